/**
 * `GET /fhir/AuditEvent?patient=…`: the patient's access log (docs/contract.md#the-patients-access-log)
 * as FHIR, the same entries and the same AuditEvent form the COS log answers with `Accept:
 * application/fhir+json`, paged with the log's own cursor.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/access-log/page-size.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { auditEvent } from '../access-log/fhir-audit-event.js';
import { noteWithheld } from '../release-header.js';
import { accessFor } from '../request-patient.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { searchLink, searchset } from './bundle.js';
import { contextsFor, grantsOf, requireGrants } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import { patientsOf } from './patients-of-request.js';
import { DEFAULT_COUNT, type FhirSearch } from './search-query.js';

export async function auditEventSearch(
  request: FastifyRequest, reply: FastifyReply, deps: RouteDependencies, api: FhirApi, search: FhirSearch,
): Promise<Record<string, unknown>> {
  const grants = grantsOf(request, api, () => []);
  const { patients: [patient] } = await patientsOf(request, deps, api, search, grants);
  if (patient === undefined) throw new Error('a search names one patient');
  requireGrants(grants, 'AuditEvent', 'search', contextsFor(request, api, patient));
  request.audit.patientId = patient;
  const { basis } = await accessFor(request, deps.accessPolicy, patient);
  const limit = search.count === DEFAULT_COUNT ? DEFAULT_PAGE_SIZE : Math.max(1, Math.min(search.count, MAX_PAGE_SIZE));
  const page = await deps.readAccessLog.page({
    patientId: patient, basis, viewer: request.token?.personId === undefined ? {} : { personId: request.token.personId },
    range: {}, limit, ...(search.cursor === undefined ? {} : { cursor: search.cursor }),
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
    ...(page.next === undefined ? {} : { next: searchLink(base, 'AuditEvent', [...search.linkParams, ['_cursor', page.next]]) }),
    subsetted: page.withheld > 0,
  });
}
