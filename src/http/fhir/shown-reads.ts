/**
 * The reads whose records a search's page holds, per patient: what each patient's audit record names
 * besides its operation (`alsoRead`, src/http/audit-record.ts). A search reads more than its page shows
 * (every match before paging, an include's whole read); the entry names what was handed over, not what
 * was looked through (hostile review helper-97, F3: an empty page, or a listing's other people, named
 * the journal notes).
 */
import type { FastifyRequest } from 'fastify';
import { keyOf } from '../../domain/fhir/resource-search.js';
import type { ReadName } from '../../domain/operations/table.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { isReferenced, readOfRecord, readsNaming, type RecordsView } from './fhir-access.js';

/** One patient's records a search looked through, and what decides which of them it may show. */
export interface SearchedPatient {
  patient: string;
  view: RecordsView;
}

/**
 * Notes, for each patient searched, the reads whose records the page holds: a record's own read (of the
 * records among that patient's, the page's matches and includes); and where the matches are parties (a
 * Practitioner search), the reads whose shown records name them, which the record is named for as a read
 * of the party by id is (hostile review helper-98, F4). A party an include brings adds nothing: the record
 * that names it is on the page, and a party two people's records name is no more one's than the other's
 * (helper-98, F2: it counted as the last person's).
 */
export function noteShownReads(request: FastifyRequest, matches: readonly FhirResource[], includes: readonly FhirResource[], searched: readonly SearchedPatient[]): void {
  const records = [...matches, ...includes].filter((r) => !isReferenced(r));
  const parties = new Set(matches.filter(isReferenced).map(keyOf));
  for (const one of searched) {
    const held = searched.length === 1 ? undefined : new Set(one.view.resources);
    const reads = new Set<ReadName>();
    for (const r of records) {
      if (held !== undefined && !held.has(r)) continue;
      const read = readOfRecord(one.view.readOf, r);
      if (read !== undefined) reads.add(read);
    }
    const target = request.audit.patientsRead?.get(one.patient) ?? request.audit;
    if (parties.size === 0) {
      target.shownReads = [...reads];
      continue;
    }
    for (const read of readsNaming(parties, one.view)) reads.add(read);
    target.answeredBy = [...reads];
  }
}
