/**
 * `GET /fhir/AuditEvent?patient=…`: the patient's access log (docs/contract.md#the-patients-access-log)
 * as FHIR, the same entries and the same AuditEvent form the COS log answers with `Accept:
 * application/fhir+json`, paged with the log's own cursor.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PAGE_SIZE } from '../../domain/access-log/page-size.js';
import { instantBounds, type DateComparison } from '../../domain/fhir/fhir-dates.js';
import type { LogInterval } from '../../domain/access-log/read-access-log.js';
import type { AccessLogEntry } from '../../domain/access-log/access-log-entry.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { auditEvent, eventIdOf } from '../access-log/fhir-audit-event.js';
import { noteWithheld } from '../release-header.js';
import { accessFor } from '../request-patient.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { searchLink, searchset } from './bundle.js';
import { contextsFor, grantsOf, requireGrants } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import { logReaderOf } from '../log-reader.js';
import { patientsOf, scopeRefusal } from './patients-of-request.js';
import type { FhirSearch } from './search-query.js';

/**
 * The log's interval (epoch ms, both ends inclusive) of the `date` comparisons on `recorded`, an instant
 * (domain/fhir/fhir-dates.ts `instantBounds`, whose ends a fraction of a millisecond may leave between two).
 * A value in the autumn's repeated hour without an offset is its first instant, as every local time the log takes is.
 */
function logInterval(dates: readonly DateComparison[]): LogInterval {
  const { from, to } = instantBounds(dates);
  return { ...(from === -Infinity ? {} : { fromMs: Math.ceil(from) }), ...(to === Infinity ? {} : { toMs: Math.ceil(to) - 1 }) };
}

/** Whose log a request reads, on what basis, once its scope for `interaction` is granted: the same policy for a search and a read. */
async function logOf(request: FastifyRequest, deps: RouteDependencies, api: FhirApi, search: FhirSearch, interaction: 'read' | 'search') {
  const grants = grantsOf(request, api);
  const { patients: [patient] } = await patientsOf(request, deps, api, search, grants);
  if (patient === undefined) throw new Error('a search names one patient');
  request.audit.patientId = patient;
  const contexts = contextsFor(request, api, patient);
  try {
    // An AuditEvent has no category: a grant restricted to one shows none of the log (hostile review helper-142, F4).
    requireGrants(grants.filter((g) => g.category === undefined), 'AuditEvent', interaction, contexts);
  } catch (err) {
    throw scopeRefusal(request, contexts, err);
  }
  const { basis } = await accessFor(request, deps.accessPolicy, patient);
  return { patient, basis, ...logReaderOf(request) };
}

function eventOf(api: FhirApi, deps: RouteDependencies, e: AccessLogEntry, patient: string): FhirResource {
  return auditEvent(e, patient, deps.appNames, api.ids) as unknown as FhirResource;
}

export async function auditEventSearch(
  request: FastifyRequest, reply: FastifyReply, deps: RouteDependencies, api: FhirApi, search: FhirSearch,
): Promise<Record<string, unknown>> {
  // The log is read in order by patient and date, page by page: a search by id would answer every entry as if it matched.
  if (search.ids !== undefined) throw new ApiError(400, 'AuditEvent is searched by patient and date only: leave out _id, and follow the next links.');
  const { patient, basis, viewer, caller } = await logOf(request, deps, api, search, 'search');
  // `_count` as every search takes it (50 by default); `0` reads a whole page to count it, and shows none of it.
  const limit = search.count === 0 ? MAX_PAGE_SIZE : Math.min(search.count, MAX_PAGE_SIZE);
  const page = await deps.readAccessLog.page({
    patientId: patient, basis, viewer, caller, interval: logInterval(search.dates), limit, ...(search.cursor === undefined ? {} : { cursor: search.cursor }),
  });
  noteWithheld(request, reply, page.withheld);
  const matches = page.entries.map((e) => eventOf(api, deps, e, patient));
  const base = api.publicBaseUrl;
  return searchset(base, {
    // The log is paged by its cursor, not counted: a `total` only when this page is the whole log.
    ...(page.next === undefined && search.cursor === undefined ? { total: matches.length } : {}),
    matches: search.count === 0 ? [] : matches,
    includes: [],
    self: searchLink(base, 'AuditEvent', [...search.linkParams, ...(search.cursor === undefined ? [] : [['_cursor', search.cursor] as [string, string]])]),
    ...(page.next === undefined || search.count === 0 ? {} : { next: searchLink(base, 'AuditEvent', [...search.linkParams, ['_cursor', page.next]]) }),
    subsetted: page.withheld > 0,
  });
}

/** Pages of one millisecond's entries a read by id looks through: far more than a patient's log holds in one. */
const READ_PAGES = 20;
/** The latest time an entry may have (an ISO time's four-digit year): an id's time beyond it names none. */
const LATEST_ID_MS = Date.parse('9999-12-31T23:59:59.999Z');
const notFound = (): ApiError => new ApiError(404, 'No AuditEvent with this id is readable with this token: search AuditEvent?patient=… for the ids.');

/**
 * `GET /fhir/AuditEvent/<id>` (docs/fhir-api.md#interactions lists read): the entry of the caller's own access log
 * whose AuditEvent has this id, decided as the search decides (`search` names the patient, as a
 * read's `patient` parameter does), else 404 as for any other resource one may not see. The log is
 * read at the id's own millisecond.
 */
export async function auditEventRead(
  request: FastifyRequest, reply: FastifyReply, deps: RouteDependencies, api: FhirApi, search: FhirSearch, id: string,
): Promise<FhirResource> {
  const { patient, basis, viewer, caller } = await logOf(request, deps, api, search, 'read');
  const at = parseInt(id.split('-')[0] ?? '', 36);
  if (!Number.isSafeInteger(at) || at < 0 || at > LATEST_ID_MS) throw notFound();
  // The entry's own millisecond: the log is read by instants, so no local time's repeated hour is in the way.
  const interval: LogInterval = { fromMs: at, toMs: at };
  let cursor: string | undefined;
  for (let pages = 0; pages < READ_PAGES; pages++) {
    const page = await deps.readAccessLog.page({ patientId: patient, basis, viewer, caller, interval, limit: MAX_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
    // Only the ids are compared; the one entry that has it is written out as its AuditEvent.
    const found = page.entries.find((e) => eventIdOf(api.ids, e) === id);
    if (found !== undefined) {
      noteWithheld(request, reply, 0);
      return eventOf(api, deps, found, patient);
    }
    if (page.next === undefined) break;
    cursor = page.next;
  }
  throw notFound();
}
