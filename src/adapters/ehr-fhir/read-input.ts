/**
 * What one read's mapper is given: the search's matches (checked), every other resource at hand by
 * reference, and the patient found by the lookup. Mappers are pure: they never fetch and never log,
 * they note (MapContext.note) what the adapter should log.
 */
import { firstCode } from './codes.js';
import type { PatientFacts } from './patient-facts.js';
import type { ResourceIndex } from './resource-index.js';
import type { CodeableConcept } from '../../domain/fhir/resources/datatypes.js';
import type { MappedResource, ResourceOf, ResourceType } from './schemas/index.js';

export interface ReadInput {
  matches: readonly MappedResource[];
  index: ResourceIndex;
  patient: PatientFacts;
  /** The server withheld some of the read's records (a SUBSETTED Bundle): src/domain/release/filtered-upstream.ts. */
  withheld?: boolean;
}

/**
 * The matches of one type that are answered at all: `entered-in-error` (as `status` or as
 * `verificationStatus`) should never have existed and is never answered (docs/upstream-fhir.md#status-filters).
 */
export function answerable<T extends ResourceType>(input: ReadInput, type: T): ResourceOf<T>[] {
  return input.matches.filter((r): r is ResourceOf<T> => r.resourceType === type && !enteredInError(r));
}

/** Whether a resource was entered in error, by `status` or `verificationStatus`: never answered, a match or one a match names. */
export function enteredInError(resource: MappedResource): boolean {
  const r = resource as { status?: string; verificationStatus?: CodeableConcept };
  return r.status === 'entered-in-error' || firstCode(r.verificationStatus) === 'entered-in-error';
}

/**
 * The one record of a read that answers one record however many extracts (medications, journal
 * notes), or none without an extract: the legacy EHR answers a patient without data with an empty
 * root, an empty answer (docs/upstream-fhir.md#3-the-reads). When the server withheld records, the
 * record stays with what is left, none perhaps, as a release policy leaves it (docs/release-policy.md:
 * the answer's shape stays the vendor's), so a second instance answers what the first answered.
 */
export const oneRecordOf = <E, R>(extracts: E[], record: (extracts: E[]) => R, withheld = false): R[] =>
  (extracts.length === 0 && !withheld ? [] : [record(extracts)]);
