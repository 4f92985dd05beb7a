/**
 * The hand-kept facts of getPatient that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { patientDifferences } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

export const getPatient = {
  reading: 'own reading',
  times: 'not filtered',
  formTypes: ['Patient'],
  // The XML document keeps an older version of some people beside the current one; FHIR's read is the current one.
  keys: (a) => [...new Set<string>(a.flatMap((r) => r.PatientEHRExtract.map((e) => `${e.Patient?.PatientID.extension} ${e.Patient?.PatientProtectedId}`)))],
  differences: patientDifferences('PatientEHRExtract/*/', '#34-patient-information-older-layout-operation-4', {
    absent: ['ehr_system', 'Patient/rc_id', 'Patient/PatientComment', 'Patient/PatientDataRegister', 'Patient/PhoneNumbers/Phone/*/PhoneComment',
      'Patient/EmailAddresses/Email/*/EmailComment', 'Patient/PatientAddresses/PatientAddress/*/PatientAddressComment'],
    ehrId: 'ehr_id/extension', internalId: 'Patient/PatientInternalID', created: 'time_created/value',
    phoneType: 'Patient/PhoneNumbers/Phone/*/PhoneType', emailType: 'Patient/EmailAddresses/Email/*/EmailType',
    address: 'Patient/PatientAddresses/PatientAddress/*/PatientAddress',
  }),
} satisfies ReadOracles<'getPatient'>;
