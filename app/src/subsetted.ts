/**
 * Whether an answer leaves something out: the FHIR API tags such a Bundle `SUBSETTED` (the release
 * policy withheld some of its items, docs/fhir-api.md), and the page says so where it shows the answer.
 */
import type { Bundle } from './fhir-types.js';

const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

export const isSubsetted = (bundle: Bundle): boolean =>
  (bundle.meta?.tag ?? []).some((t) => t.system === SUBSETTED.system && t.code === SUBSETTED.code);
