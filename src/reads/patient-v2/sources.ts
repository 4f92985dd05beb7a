/** Where each EHR gets getPatientV2 from (src/reads/read-sources.ts). */
import { PATIENT_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { PatientV2Schema } from './answer.js';
import { patientV2AsFhir } from './as-fhir.js';
import { mapPatientV2 } from './fhir.js';

export const getPatientV2 = {
  xml: xmlDocument({
    path: 'patient-v2', namespace: 'urn:example:ehr:patient-v2:1', reading: mirrorReading('PatientEHRExtracts', PatientV2Schema),
    // The patient's own identity; connected numbers are other numbers of the same person.
    patients: (items) => items.flatMap((i) => i.patientEHRExtract.map((e) => e.patient?.patientID?.extension)),
  }),
  fhir: {
    searches: [{ type: 'RelatedPerson', params: (id) => [['patient', `Patient/${id}`], ['active', 'true']] }],
    follows: PATIENT_FOLLOWS,
    map: mapPatientV2,
  },
  asFhir: patientV2AsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getPatientV2'>;
