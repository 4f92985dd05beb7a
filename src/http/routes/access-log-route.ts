import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AccessLogEntrySchema } from '../../domain/access-log/access-log-entry.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/access-log/page-size.js';
import { intervalOf } from '../../domain/access-log/read-access-log.js';
import { timeRangeFrom } from '../../domain/time/time-range.js';
import { auditEventBundle, AuditEventBundleSchema } from '../access-log/fhir-audit-event.js';
import { named } from '../openapi/schema-names.js';
import { noteWithheld } from '../release-header.js';
import { logReaderOf } from '../log-reader.js';
import { accessFor, targetPatientOf } from '../request-patient.js';
import type { RouteKind } from './route-parts.js';

const FHIR_JSON = 'application/fhir+json';

/** As validated: `limit` already a whole number from 1 to the page size's maximum. */
interface Query { fromDateTime?: string; toDateTime?: string; limit?: number; cursor?: string }

/** The next page's URL: this path, and only the validated parameters (a subscription key sent in the query never reappears). */
function nextUrl(request: FastifyRequest, query: Query, cursor: string): string {
  const params = new URLSearchParams();
  if (query.fromDateTime !== undefined) params.set('fromDateTime', query.fromDateTime);
  if (query.toDateTime !== undefined) params.set('toDateTime', query.toDateTime);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `${request.url.split('?')[0] ?? ''}?${params.toString()}`;
}

/**
 * Who has accessed the patient's data (docs/contract.md#the-patients-access-log), as the patient, a
 * delegate or a client token may read it: a page of entries, the next page in a `Link` header; with
 * `Accept: application/fhir+json` the same page as FHIR AuditEvents.
 */
export const accessLogRoute: RouteKind = (_route, deps) => ({
  ok: {
    headers: {
      Link: {
        type: 'string', maxLength: 1024,
        description: 'The next page: `<URL>; rel="next"` (RFC 8288), the same query with a `cursor`. Absent on the last page.',
      },
    },
    content: {
      'application/json': { schema: Type.Array(named(AccessLogEntrySchema, 'AccessLogEntry'), { maxItems: MAX_PAGE_SIZE }) },
      [FHIR_JSON]: { schema: named(AuditEventBundleSchema, 'AuditEventBundle') },
    },
  },
  handle: async (request, reply) => {
    const query = request.query as Query;
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const interval = intervalOf(timeRangeFrom(query.fromDateTime, query.toDateTime, deps.zone), deps.zone);
    const { basis } = await accessFor(request, deps.accessPolicy, patientId);
    const page = await deps.readAccessLog.page({
      patientId, basis, ...logReaderOf(request), interval, limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    noteWithheld(request, reply, page.withheld);
    const next = page.next === undefined ? undefined : nextUrl(request, query, page.next);
    if (next !== undefined) reply.header('link', `<${next}>; rel="next"`);
    if (request.headers.accept?.includes(FHIR_JSON) === true) {
      // Already text: sent as it is, past the JSON entries' serialiser.
      const untyped: FastifyReply = reply;
      return untyped.type(`${FHIR_JSON}; charset=utf-8`).send(JSON.stringify(auditEventBundle(page.entries, patientId, next, deps.appNames, deps.fhir?.ids)));
    }
    return page.entries;
  },
});
