import { describe, expect, it } from 'vitest';
import { readPolicyOf } from '../../../src/domain/operations/table.js';
import {
  booking, bookingResult, contact, contacts, deepFreeze, journal, patientData, patientRecords, patientV2, patientV2Data, PATIENT,
  prescriptions, signal, signals,
} from './builders.js';

describe('each read policy\'s withoutContactDetails', () => {
  it('empties the patient\'s phones, e-mails and addresses in PatientRecords and leaves out the register\'s location, keeping the wrappers and all else', () => {
    const records = deepFreeze(patientRecords(patientData(), undefined));
    const masked = readPolicyOf('getPatient').withoutContactDetails(records);
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
    const masked = readPolicyOf('getAppointments').withoutContactDetails(results);
    expect(masked[0]?.Patient).toEqual({ Name: 'Tolvan Tolvansson', PersonNumbers: [{ Number: PATIENT }], Addresses: [], PhoneNumbers: [] });
    expect(masked[0]?.Booking[0]?.PerformingUnit?.Address).toEqual(unitAddress);
    expect(masked[1]).toEqual(results[1]);
    expect(results[0]?.Patient?.Addresses).toHaveLength(1);
  });

  it('leaves documents without the patient\'s contact details as they are', () => {
    const meds = deepFreeze(prescriptions('20250303101522'));
    expect(readPolicyOf('getMedications').withoutContactDetails(meds)).toEqual(meds);
    const notes = deepFreeze(journal('20250303103012'));
    expect(readPolicyOf('getJournalNotes').withoutContactDetails(notes)).toEqual(notes);
    const contactAnswer = deepFreeze(contacts(contact('00012345', '20250303093000')));
    expect(readPolicyOf('getContacts').withoutContactDetails(contactAnswer)).toEqual(contactAnswer);
    const signalAnswer = deepFreeze(signals(signal('000101', '20191105142233')));
    expect(readPolicyOf('getAttentionSignals').withoutContactDetails(signalAnswer)).toEqual(signalAnswer);
  });

  it('issue 13: empties patient v2 addresses, phones and e-mail, drops the register location and the relatives\' addresses and phones, keeps the rest', () => {
    const answer = deepFreeze(patientV2(patientV2Data(), patientV2Data({ patientComment: 'Andra systemet' })));
    const masked = readPolicyOf('getPatientV2').withoutContactDetails(answer);
    const original = patientV2Data();
    for (const extract of masked[0]?.patientEHRExtract ?? []) {
      const patient = extract.patient;
      expect(patient?.patientAddresses).toEqual([]);
      expect(patient?.phoneNumbers).toEqual({ phone: [] });
      expect(patient?.emailAddresses).toEqual({ Email: [] });
      expect(patient).not.toHaveProperty('patientDataRegister');
      expect(patient?.patientRelatives.patientRelative).toEqual([{
        patientRelativeType: 'Dotter', patientRelativeName: 'Märta Ström', patientRelativeOrder: '1', patientRelativeComment: 'Närmast anhörig',
      }]);
      expect(patient?.patientPasses).toEqual(original.patientPasses);
      expect(patient?.patientName).toEqual(original.patientName);
    }
    const text = JSON.stringify(masked);
    for (const detail of ['Tolvansgatan', '0701740605', 'tolvan.tolvansson@', '08-46500413', '0701740612', 'Strömgatan', '118 21', '0180', '218003']) {
      expect(text, detail).not.toContain(detail);
    }
    expect(answer[0]?.patientEHRExtract[0]?.patient?.patientAddresses).toHaveLength(1);
  });
});
