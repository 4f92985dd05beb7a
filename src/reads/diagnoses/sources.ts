/** Where each EHR gets getDiagnoses from (src/reads/read-sources.ts). */
import { DIAGNOSIS_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { DiagnosesSchema } from './answer.js';
import { diagnosesAsFhir } from './as-fhir.js';
import { mapDiagnoses } from './fhir.js';

export const getDiagnoses = {
  xml: xmlDocument({
    path: 'diagnoses', namespace: 'urn:example:ehr:diagnosis:2', reading: mirrorReading('DiagnosisEHRExtracts', DiagnosesSchema),
    patients: (items) => items.flatMap((i) => i.diagnosisEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['diagnosisEHRExtract'], time: ['timeCreated'] }],
  }),
  fhir: {
    searches: [byPatient('Condition', 'recorded-date', [...includes('Condition:asserter', 'Condition:encounter',
      'iterate Encounter:service-provider', 'iterate Organization:partof'), ['_revinclude', 'Procedure:reason-reference']])],
    reverse: { type: 'Procedure', param: 'reason-reference' },
    follows: DIAGNOSIS_FOLLOWS,
    map: mapDiagnoses,
  },
  asFhir: diagnosesAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getDiagnoses'>;
