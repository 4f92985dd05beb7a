import { describe, expect, it } from 'vitest';
import { isProtectedIdentity, knowsPatient, toPatientV2 } from '../../../src/domain/records/index.js';
import { patientData, patientRecords, PATIENT, ZONE } from './builders.js';

const OTHER = '195507142478';

describe('toPatientV2', () => {
  it('maps the extract field by field', () => {
    expect(toPatientV2(patientRecords(patientData()), PATIENT, ZONE)).toEqual({
      personalIdentityNumber: PATIENT,
      name: { givenNames: ['Tolvan', 'Nils-Åke'], middleName: 'Öberg', familyName: 'Tolvansson' },
      birthDate: '1912-12-12',
      sex: 'M',
      protectedIdentity: false,
      addresses: [{
        type: 'FOLKBOKFORING', careOf: 'c/o Märta Ström', street: 'Tolvansgatan 12 lgh 1203', postalCode: '118 20',
        city: 'Stockholm', country: 'Sverige', countryCode: 'SE', comment: 'Portkod 1212',
      }],
      phoneNumbers: [{ type: 'MOBIL', number: '0701740605', comment: 'Nås bäst efter 16.00' }],
      emailAddresses: [{ type: 'PRIVAT', address: 'tolvan.tolvansson@example.se' }],
      // 14:30:12 Stockholm summer time.
      updatedDateTimeInUnix: Date.UTC(2024, 5, 11, 12, 30, 12),
    });
  });

  it('leaves absent fields out and gives empty arrays', () => {
    const bare = patientData({
      PatientSex: undefined, PatientProtectedId: undefined, PatientBirthDate: undefined, PatientVersionDateTime: undefined,
      PatientName: undefined, PhoneNumbers: { Phone: [] }, EmailAddresses: { Email: [] }, PatientAddresses: { PatientAddress: [] },
    });
    const v2 = toPatientV2(patientRecords(bare), PATIENT, ZONE);
    expect(v2).toEqual({
      personalIdentityNumber: PATIENT, name: { givenNames: [] }, addresses: [], phoneNumbers: [], emailAddresses: [],
    });
    expect(Object.keys(v2 ?? {})).not.toContain('sex');
  });

  it('skips given names without a value', () => {
    const data = patientData({ PatientName: { PatientGivenName: [{ qualifier: 'CL' }, { value: 'Tolvan' }] } });
    expect(toPatientV2(patientRecords(data), PATIENT, ZONE)?.name).toEqual({ givenNames: ['Tolvan'] });
  });

  it('picks the extract with the latest version instant, not the latest string', () => {
    // 02:30 on 30 March 2025 does not exist: it is read as 03:30 (01:30Z), later than 03:10 (01:10Z).
    const gap = patientData({ PatientSex: 'F', PatientVersionDateTime: { value: '20250330023000' } });
    const after = patientData({ PatientSex: 'U', PatientVersionDateTime: { value: '20250330031000' } });
    expect(toPatientV2(patientRecords(after, gap), PATIENT, ZONE)?.sex).toBe('F');
    expect(toPatientV2(patientRecords(gap, after), PATIENT, ZONE)?.sex).toBe('F');
  });

  it('ignores other patients\' extracts and ranks an extract without version last', () => {
    const other = patientData({ PatientSex: 'F', PatientVersionDateTime: { value: '20300101000000' } }, OTHER);
    const unversioned = patientData({ PatientSex: 'U', PatientVersionDateTime: undefined });
    const records = patientRecords(unversioned, other, undefined, patientData());
    expect(toPatientV2(records, PATIENT, ZONE)?.sex).toBe('M');
    expect(toPatientV2(patientRecords(unversioned), PATIENT, ZONE)?.sex).toBe('U');
    expect(toPatientV2(records, '200404122384', ZONE)).toBeUndefined();
  });

  it('finds the patient in any record', () => {
    const records = [...patientRecords(patientData({}, OTHER)), ...patientRecords(patientData())];
    expect(toPatientV2(records, PATIENT, ZONE)?.personalIdentityNumber).toBe(PATIENT);
  });
});

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
