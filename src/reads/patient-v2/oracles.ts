/**
 * The hand-kept facts of getPatientV2 that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { patientDifferences, RULES } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

export const getPatientV2 = {
  reading: 'mirror',
  times: 'not filtered',
  formTypes: ['Patient', 'RelatedPerson'],
  keys: (a) => [...new Set<string>(a.flatMap((r) => r.patientEHRExtract.map((e) => `${e.patient?.patientID?.extension} ${e.patient?.patientProtectedId}`)))],
  differences: [
    ...patientDifferences('patientEHRExtract/*/', '#35-patient-information-v2-layout-operation-5', {
      absent: ['ehrSystem', 'patient/rcId', 'patient/patientSecrecyGroups', 'patient/patientComment', 'patient/patientDataRegister', 'patient/patientPasses',
        'patient/phoneNumbers/phone/*/phoneComment', 'patient/emailAddresses/Email/*/EmailComment', 'patient/patientAddresses/*/PatientAddressComment',
        'patient/patientRelatives/patientRelative/*/patientRelativeOrder'],
      ehrId: 'ehrId/extension', internalId: 'patient/patientInternalID', created: 'timeCreated/value',
      phoneType: 'patient/phoneNumbers/phone/*/phoneType', emailType: 'patient/emailAddresses/Email/*/EmailType',
      address: 'patient/patientAddresses/*/PatientAddress',
    }),
    { member: 'patientEHRExtract/*/responsibleUnit/unitLocalID', kind: 'absent', why: `${RULES}: a unit named by its HSA id only` },
  ],
} satisfies ReadOracles<'getPatientV2'>;
