/**
 * What the PatientRecords document says about one patient: known, and protected. (Patient v2 is the
 * EHR's own `patient-v2` document now, no longer derived from this one.)
 */
import type { PatientData, PatientRecord } from '../../reads/patient/answer.js';

function dataOf(records: PatientRecord[], patientId: string): PatientData[] {
  const found: PatientData[] = [];
  for (const record of records) {
    for (const extract of record.PatientEHRExtract) {
      if (extract.Patient?.PatientID.extension === patientId) found.push(extract.Patient);
    }
  }
  return found;
}

export function knowsPatient(records: PatientRecord[], patientId: string): boolean {
  return dataOf(records, patientId).length > 0;
}

/** True when any extract of the patient marks the identity protected: when in doubt, protect. */
export function isProtectedIdentity(records: PatientRecord[], patientId: string): boolean {
  return dataOf(records, patientId).some((d) => d.PatientProtectedId === true);
}


/** The name a person is known by (the given name in use, else the first, and the family name), for a picker; empty when the record has none. */
export function patientDisplayName(records: PatientRecord[], patientId: string): string {
  const name = dataOf(records, patientId).find((d) => d.PatientName !== undefined)?.PatientName;
  if (name === undefined) return '';
  const givens = name.PatientGivenName;
  const given = (givens.find((g) => g.qualifier === 'CL') ?? givens[0])?.value;
  return [given, name.PatientFamilyName].filter((part) => part !== undefined && part !== '').join(' ');
}
