/**
 * `GET /fhir/AuditEvent?patient=…`: the patient's access log (docs/contract.md#the-patients-access-log)
 * as FHIR, the same entries and the same AuditEvent form the COS log answers with `Accept:
 * application/fhir+json`, paged with the log's own cursor.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PAGE_SIZE } from '../../domain/access-log/page-size.js';
import { instantBounds, type DateComparison } from '../../domain/fhir/fhir-dates.js';
import { epochMsToCompact } from '../../domain/time/local-time.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { auditEvent } from '../access-log/fhir-audit-event.js';
import { noteWithheld } from '../release-header.js';
import { accessFor } from '../request-patient.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { searchLink, searchset } from './bundle.js';
import { contextsFor, grantsOf, requireGrants } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import { patientsOf, scopeRefusal } from './patients-of-request.js';
import type { FhirSearch } from './search-query.js';

/**
 * The log's range (whole local seconds, both ends inclusive) of the `date` comparisons on `recorded`,
 * an instant (domain/fhir/fhir-dates.ts `instantBounds`). A bound in the autumn's repeated hour is
 * read back as its first instant, as every local time the log takes is.
 */
function logRange(dates: readonly DateComparison[], zone: string): TimeRange {
  const { from, to } = instantBounds(dates);
  return { ...(from === -Infinity ? {} : { from: epochMsToCompact(from, zone) }), ...(to === Infinity ? {} : { to: epochMsToCompact(to - 1000, zone) }) };
}

export async function auditEventSearch(
  request: FastifyRequest, reply: FastifyReply, deps: RouteDependencies, api: FhirApi, search: FhirSearch,
): Promise<Record<string, unknown>> {
  // The log is read in order by patient and date, page by page: a search by id would answer every entry as if it matched.
  if (search.ids !== undefined) throw new ApiError(400, 'AuditEvent is searched by patient and date only: leave out _id, and follow the next links.');
  const grants = grantsOf(request, api, () => []);
  const { patients: [patient] } = await patientsOf(request, deps, api, search, grants);
  if (patient === undefined) throw new Error('a search names one patient');
  request.audit.patientId = patient;
  const contexts = contextsFor(request, api, patient);
  try {
    requireGrants(grants, 'AuditEvent', 'search', contexts);
  } catch (err) {
    throw scopeRefusal(request, contexts, err);
  }
  const { basis } = await accessFor(request, deps.accessPolicy, patient);
  // `_count` as every search takes it (50 by default); `0` reads a whole page to count it, and shows none of it.
  const limit = search.count === 0 ? MAX_PAGE_SIZE : Math.min(search.count, MAX_PAGE_SIZE);
  const page = await deps.readAccessLog.page({
    patientId: patient, basis, viewer: request.token?.personId === undefined ? {} : { personId: request.token.personId },
    range: logRange(search.dates, deps.zone), limit, ...(search.cursor === undefined ? {} : { cursor: search.cursor }),
  });
  noteWithheld(request, reply, page.withheld);
  const matches = page.entries.map((e) => ({
    ...auditEvent(e, patient), id: api.ids.recordDigest('audit-event', `${e.timeInUnix}|${e.requestId}|${e.operation}`),
  }) as unknown as FhirResource);
  const base = api.publicBaseUrl;
  return searchset(base, {
    // The log is paged by its cursor, not counted: a `total` only when this page is the whole log.
    ...(page.next === undefined && search.cursor === undefined ? { total: matches.length } : {}),
    matches: search.count === 0 ? [] : matches,
    includes: [],
    self: searchLink(base, 'AuditEvent', search.linkParams),
    ...(page.next === undefined || search.count === 0 ? {} : { next: searchLink(base, 'AuditEvent', [...search.linkParams, ['_cursor', page.next]]) }),
    subsetted: page.withheld > 0,
  });
}
