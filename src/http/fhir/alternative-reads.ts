/**
 * Reads that are alternatives for one type: a Patient's two layouts (TypeServing.alternatives). Wherever
 * they are read, the newest that gives the Patient answers and the older is not asked, so two layouts of
 * one person never answer one request (hostile review helper-97 F4: both read for an include and a
 * `$summary`; helper-98 F3: an Organization search handed over the older layout).
 */
import type { ReadName } from '../../domain/operations/table.js';
import { servedTypes, type FhirForms } from './fhir-api.js';

/** Reads that each may give a resource of `type` (a Patient's layouts, newest first): the first that does answers it. */
export interface Alternatives {
  type: string;
  reads: readonly ReadName[];
}

/** The alternatives among the reads of `forms` (TypeServing.alternatives), found once per set of forms. */
const alternativesByForms = new WeakMap<FhirForms, readonly Alternatives[]>();
export function alternativesOf(forms: FhirForms): readonly Alternatives[] {
  let found = alternativesByForms.get(forms);
  if (found === undefined) {
    found = servedTypes(forms).filter((s) => s.alternatives === true).map((s) => ({ type: s.type, reads: s.reads }));
    alternativesByForms.set(forms, found);
  }
  return found;
}

/**
 * `reads` with the members of each set of alternatives in its order (newest first) in the places they
 * hold: an Organization search makes every read, the older Patient layout among the first.
 */
export function inAlternativesOrder(reads: readonly ReadName[], alternatives: readonly Alternatives[]): ReadName[] {
  const ordered = [...reads];
  for (const { reads: members } of alternatives) {
    const places = ordered.flatMap((read, i) => (members.includes(read) ? [i] : []));
    const inOrder = members.filter((read) => reads.includes(read));
    places.forEach((place, n) => { ordered[place] = inOrder[n] as ReadName; });
  }
  return ordered;
}

