/** Where each EHR gets getLabResults from (src/reads/read-sources.ts). */
import { LAB_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { LabResultSchema } from './answer.js';
import { labResultsAsFhir } from './as-fhir.js';
import { mapLabResults } from './fhir.js';

export const getLabResults = {
  xml: xmlDocument({
    path: 'labresults', namespace: 'urn:example:ehr:labresult:2', reading: mirrorReading('ChemistryReportEHRExtracts', LabResultSchema),
    patients: (items) => items.flatMap((i) => i.chemistryReportEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['chemistryReportEHRExtract'], time: ['timeCreated'] }],
  }),
  fhir: {
    searches: [byPatient('DiagnosticReport', 'issued', [['category', 'http://terminology.hl7.org/CodeSystem/v2-0074|LAB'],
      ...includes('DiagnosticReport:result', 'DiagnosticReport:performer', 'DiagnosticReport:encounter',
        'iterate Observation:performer', 'iterate Organization:partof')])],
    follows: LAB_FOLLOWS,
    map: mapLabResults,
  },
  asFhir: labResultsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getLabResults'>;
