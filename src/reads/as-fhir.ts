/**
 * A read's answer in the FHIR R4 form the project speaks (docs/upstream-fhir.md §3 read backwards):
 * what the FHIR API (issue 36) answers for the same records the COS API answers. Each read's folder
 * gives its own (`as-fhir.ts`); the test of each shows that the `fhir-r4` adapter's mapper reads the
 * resources back to the same answer, but for the differences the FHIR description makes.
 */
import type { ReadItem, ReadName } from '../domain/operations/table.js';

/** A FHIR resource as JSON: its type, its id (a valid FHIR id), and the rest of its members. */
export type FhirResource = { resourceType: string; id: string } & Record<string, unknown>;

export interface AsFhirContext {
  /** The Patient id the API gives the patient the answer is about (never an identity number). */
  patientId: string;
  /** EHR_TIMEZONE: the zone of the answer's local times, written with their offset. */
  zone: string;
  /** FHIR_ID_ROOT: the OID root under which the answer's record ids were made from FHIR ids. */
  idRoot: string;
  /** FHIR_VIDEO_ACTION_ID_SYSTEM, where a read writes numeric video action ids. */
  videoActionIdSystem?: string;
}

/** The resources of one answer: the records themselves (`match`) and what they reference (`include`), each once. */
export interface FhirAnswer {
  matches: FhirResource[];
  included: FhirResource[];
}

export interface AsFhir<R extends ReadName> {
  /** The resource types the read's records take (search.mode `match`). */
  types: readonly string[];
  resources(items: readonly ReadItem<R>[], ctx: AsFhirContext): FhirAnswer;
}
