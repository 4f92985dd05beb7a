import { unfiltered } from '../../domain/read-policy/time-selection.js';
import { maskPatientRecords, PatientRecordSchema } from '../../domain/records/index.js';
import { WHO } from '../../domain/operations/docs-text.js';
import { recordsRead, type Scope, type Tag } from '../../domain/operations/operation.js';
import { PatientQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };

export const TAG: Tag = { name: 'Patient', description: "The patient's demographic information." };
const SCOPE: Scope = { name: 'user/Patient-read', description: "Read the patient's demographic information" };
const PATH = '/patients/patient/';
const VENDOR_PATHS = ['/api/open/patient/'];
const DISPLAY_NAME = { sv: 'Personuppgifter', en: 'Personal details' };
export const DESCRIPTION = 'Name, addresses, phone numbers and other demographic information. Without `api-version` the answer is the older '
  + 'layout (an array of PatientRecord); with `api-version=v2` it is the v2 layout. Addresses and phone numbers of a patient '
  + `with protected identity are left out when a client token asks. ${WHO}`;
export const WHEN_ABSENT = 'the older layout';

/** What operations 4 and 5 share: one route, told apart by `api-version` (src/http/routes/api-routes.ts checks it). */
export const AT_THE_PATIENT_PATH = {
  scope: SCOPE,
  displayName: DISPLAY_NAME,
  errorShape: 'status',
  path: PATH,
  vendorPaths: VENDOR_PATHS,
  query: PatientQuery,
} as const;

/** Operation 4: the older layout, the EHR's PatientRecords document (also what access decisions read). */
export const getPatient = recordsRead({
  number: 4,
  ...AT_THE_PATIENT_PATH,
  apiVersion: { value: undefined, whenAbsent: WHEN_ABSENT },
  answer: { item: PatientRecordSchema, schemaName: 'PatientRecord', example: EXAMPLE },
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
