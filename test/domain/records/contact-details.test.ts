import { describe, expect, it } from 'vitest';
import { toPatientV2, withoutContactDetails, withoutContactDetailsV2 } from '../../../src/domain/records/index.js';
import {
  booking, bookingResult, contact, deepFreeze, journal, patientData, patientRecords, PATIENT, prescriptions, ZONE,
} from './builders.js';

describe('withoutContactDetails', () => {
  it('empties the patient\'s phones, e-mails and addresses in PatientRecords and leaves out the register\'s location, keeping the wrappers and all else', () => {
    const records = deepFreeze(patientRecords(patientData(), undefined));
    const masked = withoutContactDetails('patient', records);
    const data = masked[0]?.PatientEHRExtract[0]?.Patient;
    expect(data?.PhoneNumbers).toEqual({ Phone: [] });
    expect(data?.EmailAddresses).toEqual({ Email: [] });
    expect(data?.PatientAddresses).toEqual({ PatientAddress: [] });
    expect(data).not.toHaveProperty('PatientDataRegister');
    const original = patientData();
    const { PatientDataRegister, ...unregistered } = original;
    expect(PatientDataRegister).toBeDefined();
    const { PhoneNumbers, EmailAddresses, PatientAddresses } = original;
    expect({ ...data, PhoneNumbers, EmailAddresses, PatientAddresses }).toEqual(unregistered);
    expect(masked[0]?.PatientEHRExtract[1]).toBe(records[0]?.PatientEHRExtract[1]);
    expect(records[0]?.PatientEHRExtract[0]?.Patient?.PhoneNumbers.Phone).toHaveLength(1);
  });

  it('empties the booking patient summary\'s addresses and phone numbers, not the units\' or the person numbers', () => {
    const unitAddress = { StreetAddress: 'Tolvstadsplan 1', City: 'Stockholm' };
    const withUnit = { ...booking('00012345', '2025-07-04T12:30:00Z'), PerformingUnit: { Name: 'Vårdcentralen Tolvstad', Address: unitAddress } };
    const results = deepFreeze([bookingResult([withUnit]), bookingResult([], false)]);
    const masked = withoutContactDetails('bookings', results);
    expect(masked[0]?.Patient).toEqual({ Name: 'Tolvan Tolvansson', PersonNumbers: [{ Number: PATIENT }], Addresses: [], PhoneNumbers: [] });
    expect(masked[0]?.Booking[0]?.PerformingUnit?.Address).toEqual(unitAddress);
    expect(masked[1]).toEqual(results[1]);
    expect(results[0]?.Patient?.Addresses).toHaveLength(1);
  });

  it('leaves documents without the patient\'s contact details as they are', () => {
    const meds = deepFreeze(prescriptions('20250303101522'));
    expect(withoutContactDetails('medications', meds)).toEqual(meds);
    const notes = deepFreeze(journal('20250303103012'));
    expect(withoutContactDetails('journalnotes', notes)).toEqual(notes);
    const contacts = deepFreeze([contact('00012345', 0)]);
    expect(withoutContactDetails('contacts', contacts)).toEqual(contacts);
  });

  it('empties the v2 arrays and keeps everything else', () => {
    const v2 = deepFreeze(toPatientV2(patientRecords(patientData()), PATIENT, ZONE));
    if (!v2) throw new Error('patient expected');
    const masked = withoutContactDetailsV2(v2);
    expect(masked).toEqual({ ...v2, addresses: [], phoneNumbers: [], emailAddresses: [] });
    expect(v2.addresses).toHaveLength(1);
    expect(v2.phoneNumbers).toHaveLength(1);
    expect(v2.emailAddresses).toHaveLength(1);
  });
});
