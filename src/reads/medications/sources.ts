/** Where each EHR gets getMedications from (src/reads/read-sources.ts). */
import { MEDICATION_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { medicationsAsFhir } from './as-fhir.js';
import { mapMedications } from './fhir.js';
import { prescriptionsReading } from './xml.js';

export const getMedications = {
  xml: xmlDocument({
    path: 'medications', namespace: 'urn:example:ehr:prescription:2', reading: prescriptionsReading,
    patients: (records) => records.flatMap((r) => r.PrescriptionEHRExtract.map((e) => e.Patient?.PatientId?.extension)),
    filtered: [{ path: ['PrescriptionRecord', 'PrescriptionEHRExtract'], time: ['time_created'] }],
  }),
  fhir: {
    searches: [byPatient('MedicationRequest', 'authoredon', includes('MedicationRequest:medication', 'MedicationRequest:requester',
      'MedicationRequest:encounter', 'iterate PractitionerRole:organization', 'iterate Organization:partof'))],
    follows: MEDICATION_FOLLOWS,
    map: mapMedications,
  },
  asFhir: medicationsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getMedications'>;
