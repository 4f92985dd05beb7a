import { describe, expect, it } from 'vitest';
import { isProtectedIdentity, knowsPatient } from '../../../src/domain/records/index.js';
import { patientData, patientRecords, PATIENT } from './builders.js';

const OTHER = '195507142478';

describe('knowsPatient and isProtectedIdentity', () => {
  it('knows only patients with an extract', () => {
    const records = patientRecords(patientData(), undefined);
    expect(knowsPatient(records, PATIENT)).toBe(true);
    expect(knowsPatient(records, OTHER)).toBe(false);
    expect(knowsPatient([], PATIENT)).toBe(false);
  });

  it('is protected when any extract of the patient says so, and only then', () => {
    const open = patientData({ PatientProtectedId: false });
    const secret = patientData({ PatientProtectedId: true, PatientVersionDateTime: { value: '20200101000000' } });
    expect(isProtectedIdentity(patientRecords(open), PATIENT)).toBe(false);
    expect(isProtectedIdentity(patientRecords(open, secret), PATIENT)).toBe(true);
    expect(isProtectedIdentity(patientRecords(patientData({ PatientProtectedId: undefined })), PATIENT)).toBe(false);
    expect(isProtectedIdentity(patientRecords(patientData({ PatientProtectedId: true }, OTHER)), PATIENT)).toBe(false);
  });
});
