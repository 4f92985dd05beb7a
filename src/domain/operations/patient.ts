import { unfiltered } from '../read-policy/time-selection.js';
import { maskPatientRecords, maskPatientV2, PatientRecordSchema, PatientV2Schema } from '../records/index.js';
import { WHO } from './docs-text.js';
import { recordsRead, type Scope, type Tag } from './operation.js';
import { PatientQuery } from './parameters.js';

const TAG: Tag = { name: 'Patient', description: "The patient's demographic information." };
const SCOPE: Scope = { name: 'user/Patient-read', description: "Read the patient's demographic information" };
const PATH = '/patients/patient/';
const VENDOR_PATHS = ['/api/open/patient/'];
const DISPLAY_NAME = { sv: 'Läsa personuppgifter', en: 'Read personal details' };
const DESCRIPTION = 'Name, addresses, phone numbers and other demographic information. Without `api-version` the answer is the older '
  + 'layout (an array of PatientRecord); with `api-version=v2` it is the v2 layout. Addresses and phone numbers of a patient '
  + `with protected identity are left out when a client token asks. ${WHO}`;
const WHEN_ABSENT = 'the older layout';

/** What operations 4 and 5 share: one route, told apart by `api-version` (src/http/routes/api-routes.ts checks it). */
const AT_THE_PATIENT_PATH = {
  scope: SCOPE,
  displayName: DISPLAY_NAME,
  errorShape: 'status',
  path: PATH,
  vendorPaths: VENDOR_PATHS,
  query: PatientQuery,
} as const;

/** Operation 4: the older layout, the EHR's PatientRecords document (also what access decisions read). */
export const getPatient = recordsRead({
  ...AT_THE_PATIENT_PATH,
  apiVersion: { value: undefined, whenAbsent: WHEN_ABSENT },
  answer: { item: PatientRecordSchema, schemaName: 'PatientRecord' },
  policy: {
    select: unfiltered,
    marksProtectedIdentity: (records) => records.some((r) => r.PatientEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
    withoutContactDetails: maskPatientRecords,
  },
  docs: {
    tag: TAG,
    summary: "Read the patient's information",
    description: DESCRIPTION,
    success: 'The patient: an array of PatientRecord, or with api-version=v2 the v2 layout.',
  },
});

/** Operation 5: the vendor's patient information v2 layout, from the EHR's `patient-v2` mirror document. */
export const getPatientV2 = recordsRead({
  ...AT_THE_PATIENT_PATH,
  apiVersion: { value: 'v2', whenAbsent: WHEN_ABSENT },
  answer: { item: PatientV2Schema, schemaName: 'PatientV2', vendorLayout: 'patient-information-v2' },
  policy: {
    // Every extract, in the EHR's order: the vendor's layout picks none.
    select: unfiltered,
    marksProtectedIdentity: (items) => items.some((i) => i.patientEHRExtract.some((e) => e.patient?.patientProtectedId === true)),
    withoutContactDetails: maskPatientV2,
  },
  docs: {
    tag: TAG,
    summary: "Read the patient's information",
    description: DESCRIPTION,
    success: 'The patient in the v2 layout.',
  },
});
