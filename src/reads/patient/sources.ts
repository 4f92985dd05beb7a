/** Where each EHR gets getPatient from (src/reads/read-sources.ts). */
import { PATIENT_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { patientAsFhir } from './as-fhir.js';
import { mapPatientRecord } from './fhir.js';
import { patientRecordsReading } from './xml.js';

export const getPatient = {
  xml: xmlDocument({
    path: 'patient', namespace: 'urn:example:ehr:patient:3', reading: patientRecordsReading,
    patients: (records) => records.flatMap((r) => r.PatientEHRExtract.map((e) => e.Patient?.PatientID.extension)),
  }),
  fhir: { searches: [], follows: PATIENT_FOLLOWS, map: mapPatientRecord },
  asFhir: patientAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getPatient'>;
