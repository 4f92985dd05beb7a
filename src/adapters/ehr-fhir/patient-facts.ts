/**
 * What every answer says about the patient found by the lookup (docs/upstream-fhir.md#2-how-the-patient-is-found):
 * the identity number asked for (PersonId), the internal id, the name, and protected identity
 * (docs/upstream-fhir.md#protected-identity), which any one of five security labels sets.
 */
import { nameParts, type NameParts } from './human-name.js';
import { personNumberKindOf } from './identifiers.js';
import type { Patient } from '../../domain/fhir/resources/parties.js';
import type { Coding } from '../../domain/fhir/resources/datatypes.js';

const PROTECTING: readonly (readonly [string, string])[] = [
  ['http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel', 'sekretessmarkering'],
  ['http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel', 'skyddadFolkbokforing'],
  ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'R'],
  ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'V'],
  ['http://terminology.hl7.org/CodeSystem/v3-ActCode', 'DEMO'],
];

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
