/**
 * What every answer says about the patient found by the lookup (docs/upstream-fhir.md#2-how-the-patient-is-found):
 * the identity number asked for (PersonId), the internal id, the name, and protected identity
 * (docs/upstream-fhir.md#protected-identity), which any one of five security labels sets.
 */
import { PDAS_BASE } from './extensions.js';
import { nameParts, type NameParts } from './human-name.js';
import { personNumberKindOf } from '../../domain/identity/person-number-systems.js';
import type { Patient } from '../../domain/fhir/resources/parties.js';
import type { Coding } from '../../domain/fhir/resources/datatypes.js';

const PROTECTING: readonly (readonly [string, string])[] = [
  ['http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel', 'sekretessmarkering'],
  ['http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel', 'skyddadFolkbokforing'],
  ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'R'],
  ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'V'],
  ['http://terminology.hl7.org/CodeSystem/v3-ActCode', 'DEMO'],
];

/**
 * The service's own tag of a Patient written from the older patient layout (operation 4) because the
 * legacy EHR holds the person in no v2 layout: there the v2 read answers `[]` (docs/upstream-ehr.md#6-the-embedded-ehrs-folder,
 * a missing document is an empty answer), so a second instance reading this Patient answers its v2 read
 * empty too (docs/upstream-fhir.md#35-patient-information-v2-layout-operation-5). FHIR itself has no way
 * to say that a layout is missing.
 */
export const OLDER_LAYOUT_ONLY = { system: `${PDAS_BASE}CodeSystem/patient-layout`, code: 'older-only' } as const;

/** Whether the Patient carries OLDER_LAYOUT_ONLY in `meta.tag`. */
export const holdsOlderLayoutOnly = (patient: Patient): boolean =>
  (patient.meta?.tag ?? []).some((c) => c.system === OLDER_LAYOUT_ONLY.system && c.code === OLDER_LAYOUT_ONLY.code);

/** Protected identity: when in doubt, protect, so each of the labels counts. */
export const isProtected = (security: readonly Coding[] | undefined): boolean =>
  (security ?? []).some((c) => PROTECTING.some(([system, code]) => c.system === system && c.code === code));

export interface PatientFacts {
  resource: Patient;
  /** The 12 digits the port was asked for. */
  number: string;
  /** PersonId: the person-number identifier holding the number asked for. */
  personId?: { root: string; extension: string };
  protectedId: boolean;
  name?: NameParts;
}

export function patientFacts(patient: Patient, number: string): PatientFacts {
  const identifier = patient.identifier?.find((i) => i.value === number && personNumberKindOf(i.system) !== undefined);
  const kind = personNumberKindOf(identifier?.system);
  return {
    resource: patient,
    number,
    personId: kind === undefined ? undefined : { root: kind.oid, extension: number },
    protectedId: isProtected(patient.meta?.security),
    name: nameParts(patient.name),
  };
}

/** `gender` as the layouts write sex: M, F, else U (`other`, `unknown`). */
export const sexOf = (patient: Patient): string | undefined =>
  (patient.gender === undefined ? undefined : patient.gender === 'male' ? 'M' : patient.gender === 'female' ? 'F' : 'U');
