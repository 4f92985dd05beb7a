import { Type } from 'typebox';
import { MAX_PAGE_SIZE } from '../../domain/access-log/read-access-log.js';
import { TimeFilterQuerySchema } from './requests.js';

/**
 * The access log's query: the interval of the other reads, and paging. Query strings are not
 * coerced, so `limit` is digits checked here and turned into a number by the route.
 */
export const AccessLogQuerySchema = Type.Object({
  ...TimeFilterQuerySchema.properties,
  limit: Type.Optional(Type.String({
    maxLength: 3, pattern: '^[1-9][0-9]{0,2}$',
    description: `Entries per page, an integer from 1 to ${MAX_PAGE_SIZE}; 100 when left out. It may change from one page to the next.`,
  })),
  cursor: Type.Optional(Type.String({
    maxLength: 128, pattern: '^[A-Za-z0-9_-]+$',
    description: 'Where the next page starts: copy it from the `Link: <...>; rel="next"` header of the page before. Opaque; valid only '
      + 'for the same patient and interval.',
  })),
}, { additionalProperties: false });
