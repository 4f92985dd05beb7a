import { unfiltered } from '../../domain/read-policy/time-selection.js';
import { maskPatientV2, PatientV2Schema } from '../../domain/records/index.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { AT_THE_PATIENT_PATH, DESCRIPTION, TAG, WHEN_ABSENT } from '../patient/operation.js';
import EXAMPLE from './example.json' with { type: 'json' };

/** Operation 5: the vendor's patient information v2 layout, from the EHR's `patient-v2` mirror document. */
export const getPatientV2 = recordsRead({
  number: 5,
  ...AT_THE_PATIENT_PATH,
  apiVersion: { value: 'v2', whenAbsent: WHEN_ABSENT },
  answer: { item: PatientV2Schema, schemaName: 'PatientV2', example: EXAMPLE, vendorLayout: 'patient-information-v2' },
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
