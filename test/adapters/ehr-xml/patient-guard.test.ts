import { describe, expect, it } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, PATIENT, ZONE } from './fixtures.js';

const OTHER = '195507142478';

// Each swap changes the patient id of one item only (the last extract where there are several).
const JOURNAL_TAIL = ' root="1.2.752.129.2.1.3.1"/>\n        <PatientProtectedId>false</PatientProtectedId>\n        <PatientName>\n'
  + '          <PatientFamilyName>Tolvansson</PatientFamilyName>\n          <PatientGivenName';
const V2_TAIL = ' root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>0000458';
const CONTACT_TAIL = ' root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>00012345</patientInternalID>\n    </patient>\n    <contactPerformingUnit>\n'
  + '      <unitID extension="SE2321000016-7P4K" root="1.2.752.129.2.1.4.1"/>\n      <unitLocalID extension="4711" root="1.2.752.99999.1.4"/>\n'
  + '    </contactPerformingUnit>\n  </contactEHRExtract>\n</';
const SIGNAL_TAIL = ' root="1.2.752.129.2.1.3.1"/>\n      <PatientInternalID>00012345</PatientInternalID>\n    </Patient>\n    <CareUnit>\n'
  + '      <unitID extension="SE2321000016-7P4K" root="1.2.752.129.2.1.4.1"/>\n    </CareUnit>\n  </AttentionSignalEHRExtract>';
const MEDICATION_TAIL = ' root="1.2.752.129.2.1.3.1"/>\n        <PatientProtectedId>false</PatientProtectedId>\n      </Patient>\n    </rx:';

const cases = [
  ['patient', 'patient.xml', '<PatientID extension="191212121212"', `<PatientID extension="${OTHER}"`],
  ['medications', 'medications.xml', `<PatientId extension="191212121212"${MEDICATION_TAIL}`, `<PatientId extension="${OTHER}"${MEDICATION_TAIL}`],
  ['journalnotes', 'journalnotes.xml', `<PatientID extension="191212121212"${JOURNAL_TAIL}`, `<PatientID extension="${OTHER}"${JOURNAL_TAIL}`],
  ['bookings', 'bookings.xml', '<Number>191212121212</Number>', `<Number>${OTHER}</Number>`],
  ['patient-v2', 'patient-v2.xml', `<patientID extension="191212121212"${V2_TAIL}`, `<patientID extension="${OTHER}"${V2_TAIL}`],
  ['contacts', 'contacts.xml', `<patientID extension="191212121212"${CONTACT_TAIL}`, `<patientID extension="${OTHER}"${CONTACT_TAIL}`],
  ['attentionsignals', 'attentionsignals.xml', `<PatientID extension="191212121212"${SIGNAL_TAIL}`, `<PatientID extension="${OTHER}"${SIGNAL_TAIL}`],
] as const;

describe('a record of another patient is never forwarded', () => {
  for (const [kind, file, from, to] of cases) {
    it(`${kind}: accepts the expected patient and refuses a document naming another`, () => {
      const xml = example(file);
      expect(mapDocument(kind, xml, { zone: ZONE, expectedPatientId: PATIENT }).length).toBeGreaterThan(0);
      expect(() => mapDocument(kind, xml, { zone: ZONE, expectedPatientId: OTHER })).toThrow('record of another patient');
      const swapped = edit(xml, from, to);
      expect(() => mapDocument(kind, swapped, { zone: ZONE, expectedPatientId: PATIENT })).toThrow(MalformedDocumentError);
      expect(() => mapDocument(kind, swapped, { zone: ZONE })).not.toThrow();
    });
  }

  it('documents without patient ids are not affected', () => {
    expect(mapDocument('videomeetings', example('videomeetings.xml'), { zone: ZONE, expectedPatientId: OTHER }).length).toBeGreaterThan(0);
  });
});
