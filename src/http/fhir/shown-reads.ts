/**
 * The reads whose records a search's page holds, per patient: what each patient's audit record names
 * besides its operation (`alsoRead`, src/http/audit-record.ts). A search reads more than its page shows
 * (every match before paging, an include's whole read); the entry names what was handed over, not what
 * was looked through (hostile review helper-97, F3: an empty page, or a listing's other people, named
 * the journal notes).
 */
import type { FastifyRequest } from 'fastify';
import { keyOf } from '../../domain/fhir/resource-search.js';
import type { Grant, ScopeContext } from '../../domain/fhir/smart-scopes.js';
import type { ReadName } from '../../domain/operations/table.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { isReferenced, readOfRecord, readsNaming } from './fhir-access.js';

/** One patient's records a search looked through, and the grants that show them. */
export interface SearchedPatient {
  patient: string;
  resources: readonly FhirResource[];
  readOf: ReadonlyMap<string, ReadName>;
  grants: readonly Grant[];
  contexts: readonly ScopeContext[];
}

/**
 * Notes, for each patient searched, the reads whose records `page` (matches and includes) holds: a record's
 * own read, and for a party (a Practitioner) the reads whose shown records name it. A record is the
 * patient's whose looked-through records hold that very resource.
 */
export function noteShownReads(request: FastifyRequest, page: readonly FhirResource[], searched: readonly SearchedPatient[]): void {
  for (const one of searched) {
    const held = searched.length === 1 ? undefined : new Set(one.resources);
    const mine = held === undefined ? page : page.filter((r) => held.has(r));
    const reads = new Set<ReadName>();
    const parties = new Set<string>();
    for (const r of mine) {
      if (isReferenced(r)) {
        parties.add(keyOf(r));
        continue;
      }
      const read = readOfRecord(one.readOf, r);
      if (read !== undefined) reads.add(read);
    }
    if (parties.size > 0) for (const read of readsNaming(parties, one.resources, one.readOf, one.grants, one.contexts)) reads.add(read);
    const part = request.audit.patientsRead?.get(one.patient);
    (part ?? request.audit).shownReads = [...reads];
  }
}
