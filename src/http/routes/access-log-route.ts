import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AccessLogEntrySchema } from '../../domain/access-log/access-log-entry.js';
import { DEFAULT_PAGE_SIZE, type ReadAccessLog } from '../../domain/access-log/read-access-log.js';
import type { PatientAccessPolicy } from '../../domain/access/patient-access.js';
import { timeRangeFrom } from '../../domain/time/time-range.js';
import { auditEventBundle, AuditEventBundleSchema } from '../access-log/fhir-audit-event.js';
import { documented } from '../openapi/operation-docs.js';
import { named } from '../openapi/schema-names.js';
import { accessFor, targetPatientOf } from '../patient-access.js';
import { AccessLogQuerySchema } from '../schemas/access-log.js';
import { errorResponses } from '../schemas/errors.js';
import { PatientHeadersSchema } from '../schemas/requests.js';

export interface AccessLogRouteDependencies {
  accessPolicy: PatientAccessPolicy;
  readAccessLog: ReadAccessLog;
  zone: string;
}

const FHIR_JSON = 'application/fhir+json';

interface Query { fromDateTime?: string; toDateTime?: string; limit?: string; cursor?: string }

/** The next page's URL: this path, and only the validated parameters (a subscription key sent in the query never reappears). */
function nextUrl(request: FastifyRequest, query: Query, cursor: string): string {
  const params = new URLSearchParams();
  if (query.fromDateTime !== undefined) params.set('fromDateTime', query.fromDateTime);
  if (query.toDateTime !== undefined) params.set('toDateTime', query.toDateTime);
  if (query.limit !== undefined) params.set('limit', query.limit);
  params.set('cursor', cursor);
  return `${request.url.split('?')[0] ?? ''}?${params.toString()}`;
}

/** CONTRACT §6: who has accessed the patient's data, as the patient, a delegate or a client token may read it. */
export const accessLogRoute: FastifyPluginAsyncTypebox<AccessLogRouteDependencies> = async (app, deps) => {
  app.get('/patients/accesslog/', {
    config: { operation: 'getAccessLog', errorShape: 'status' },
    schema: {
      ...documented('getAccessLog'),
      headers: PatientHeadersSchema,
      querystring: AccessLogQuerySchema,
      response: {
        200: {
          description: 'A page of the log, oldest first; an empty array when nothing was recorded in the interval.',
          headers: {
            Link: {
              type: 'string', maxLength: 1024,
              description: 'The next page: `<URL>; rel="next"` (RFC 8288), the same query with a `cursor`. Absent on the last page.',
            },
          },
          content: {
            'application/json': { schema: Type.Array(named(AccessLogEntrySchema, 'AccessLogEntry'), { maxItems: 500 }) },
            [FHIR_JSON]: { schema: named(AuditEventBundleSchema, 'AuditEventBundle') },
          },
        },
        ...errorResponses('status'),
      },
    },
  }, async (request, reply) => {
    const query: Query = request.query;
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const range = timeRangeFrom(query.fromDateTime, query.toDateTime, deps.zone);
    await accessFor(request, deps.accessPolicy, patientId);
    const viewer = request.token?.personId === undefined ? {} : { personId: request.token.personId };
    const page = await deps.readAccessLog.page({
      patientId, viewer, range, limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    const next = page.next === undefined ? undefined : nextUrl(request, query, page.next);
    if (next !== undefined) reply.header('link', `<${next}>; rel="next"`);
    if (request.headers.accept?.includes(FHIR_JSON) === true) {
      // Already text: sent as it is, past the JSON entries' serialiser.
      const untyped: FastifyReply = reply;
      return untyped.type(`${FHIR_JSON}; charset=utf-8`).send(JSON.stringify(auditEventBundle(page.entries, patientId, next)));
    }
    return page.entries;
  });
};
