/**
 * Every patient-bound resource of an answer belongs to the patient found (docs/upstream-fhir.md#8-the-patients-own-data-only-once-more,
 * threat 29 of docs/threat-model.md#the-upstream-ehr-api10): each match names the patient, and no entry at hand (match, include or
 * fetched, or contained in one of them) names another, by `subject`, `patient` or a Patient participant. Each entry is checked on its own, never through the
 * index's one resource per id (which refuses a second, different entry under an id it holds). The patient is named by a reference
 * to this server's Patient: one that names the same id on another server (an absolute URL whose base is not EHR_BASE_URL) is
 * another patient. A server that ignores an unsupported `patient` parameter, or a record pointing at another patient's result, never
 * turns into a leak: the whole answer is refused. Only the registry search may hold other Patients.
 */
import { fhirFault } from '../fault.js';
import { referenceKey, type ResourceIndex } from '../resource-index.js';
import { isResourceType } from '../schemas/index.js';
import type { RawResource } from './fhir-client.js';

interface Link {
  reference?: string;
  type?: string;
}

interface Links {
  subject?: Link;
  patient?: Link;
  participant?: { actor?: Link }[];
}

/**
 * A participant that is, or may be, a patient: typed so, or named by a reference to a Patient or by
 * one that is no `Type/id` (and so cannot be shown not to be). One named by display alone points at nothing.
 */
const mayBePatient = (actor: Link): boolean =>
  actor.type === 'Patient' || (actor.reference !== undefined && referenceKey(actor.reference)?.startsWith('Patient/') !== false);

/** A resource's type as a fault may name it: one this service reads, else no name (the server's word may hold anything). */
const typeOf = (resource: RawResource): string => (isResourceType(resource.resourceType) ? resource.resourceType : 'resource');

/** The references by which a resource names a patient; `undefined` for one that names none. */
export function patientReferences(resource: RawResource): (string | undefined)[] | undefined {
  const r = resource as RawResource & Links;
  const links = r.resourceType === 'Appointment'
    ? (Array.isArray(r.participant) ? r.participant : []).flatMap((p) => (p?.actor === undefined ? [] : [p.actor])).filter((a) => typeof a !== 'object' || a === null || mayBePatient(a))
    : [r.subject, r.patient].filter((l): l is Link => l !== undefined);
  // A link that is no object (`"subject": null` in a contained resource, which no schema reads) names no one it can be checked for.
  if (links.some((l) => typeof l !== 'object' || l === null)) throw fhirFault(`a ${typeOf(resource)} naming its patient by no reference`);
  return links.length === 0 ? undefined : links.map((l) => l.reference);
}

/**
 * Refuses the answer unless every match names the patient `patientId` and no entry of `index` (the
 * matches among them) names another. `otherPatients`: the registry's search, whose RelatedPersons
 * are about other patients.
 */
export function assertPatientBound(
  matches: readonly RawResource[], index: ResourceIndex, patientId: string, otherPatients = false,
): void {
  if (otherPatients) return;
  const own = `Patient/${patientId}`;
  const check = (resource: RawResource): void => {
    if (resource.resourceType === 'Patient' && resource.id !== patientId) throw fhirFault('another patient in the answer');
    for (const ref of patientReferences(resource) ?? []) {
      if (index.keyOf(ref) !== own) throw fhirFault(`a ${typeOf(resource)} of another patient`);
    }
    // A resource held inside another (a note's value, `#v1`) is at hand too (hostile review helper-220, F2).
    const { contained } = resource as { contained?: unknown };
    if (Array.isArray(contained)) for (const inner of contained as RawResource[]) check(inner);
  };
  for (const match of matches) {
    if (patientReferences(match) === undefined) throw fhirFault(`a ${typeOf(match)} match not bound to the patient`);
    check(match);
  }
  for (const resource of index.entries()) check(resource);
}
