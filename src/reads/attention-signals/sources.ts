/** Where each EHR gets getAttentionSignals from (src/reads/read-sources.ts). */
import { SIGNAL_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { AttentionSignalSchema } from './answer.js';
import { attentionSignalsAsFhir } from './as-fhir.js';
import { mapAttentionSignals } from './fhir.js';

export const getAttentionSignals = {
  xml: xmlDocument({
    path: 'attentionsignals', namespace: 'urn:example:ehr:attentionsignal:2', // The root's @version becomes XSDVersion.version.
    reading: mirrorReading('AttentionSignalEHRExtracts', AttentionSignalSchema, { versionMember: 'XSDVersion' }),
    patients: (items) => items.flatMap((i) => i.AttentionSignalEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
    filtered: [{ path: ['AttentionSignalEHRExtract'], time: ['time_created'] }],
  }),
  fhir: {
    searches: [
      byPatient('AllergyIntolerance', 'date', includes('AllergyIntolerance:recorder', 'AllergyIntolerance:asserter')),
      byPatient('Flag', 'date', includes('Flag:author')),
    ],
    follows: SIGNAL_FOLLOWS,
    map: mapAttentionSignals,
  },
  asFhir: attentionSignalsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getAttentionSignals'>;
