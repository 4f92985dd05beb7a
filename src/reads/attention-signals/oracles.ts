/**
 * The hand-kept facts of getAttentionSignals that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { onlyOverFhir, OWN, pairs, RULES, under, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

const SIGNALS = '#37-attention-signals-operation-7';
const signal = under('AttentionSignalEHRExtract/*/');
const signalDifferences: Difference[] = [
  signal('ehr_id/extension', 'differs', OWN),
  ...['ehr_system', 'AttentionSignal/RcId', 'AttentionSignal/SignalSignDateTime',
    'AttentionSignal/UnstructuredType/Type', 'HeadCareproviderUnit', 'Units/Unit/*'].map((m) => signal(m, 'absent', `${SIGNALS}: absent`)),
  ...['HypersensitivityType/ReasessmentRequired', 'ContagiousDiseaseType/ReasessmentRequired', 'ContagiousDiseaseType/ReasessmentDateTime',
    'TreatmentAndConditionType/ReasessmentRequired', 'UnstructuredType/ReasessmentRequired', 'UnstructuredType/ReasessmentDateTime']
    .map((m) => signal(`AttentionSignal/${m}`, 'absent', `${SIGNALS}: absent`)),
  ...['ContagiousDiseaseType/Comment', 'TreatmentAndConditionType/Comment', 'UnstructuredType/Comment']
    .map((m) => signal(`AttentionSignal/${m}`, 'absent', `${SIGNALS}: R4's Flag has no comment`)),
  // A deletion's comment and date are no difference: an allergy's deletion note carries both (fhir.ts).
  // A Flag made inactive would lose its comment (R4's Flag has no note); the demo has none.
  signal('AttentionSignal/TreatmentAndConditionType/TreatmentDateTime', 'absent', `${SIGNALS}: a Flag has no treatment time`),
  signal('AttentionSignal/SignalWarningSubType', 'differs', `${SIGNALS}: a hypersensitivity's sub-type by its category, food is \`Överkänslighet, ej läkemedel\``,
    pairs(['Födoämnesöverkänslighet', 'Överkänslighet, ej läkemedel'])),
  signal('AttentionSignal/HypersensitivityType/Severity', 'differs', `${SIGNALS}: Severity is \`criticality\``,
    pairs(['Livshotande', 'high'], ['Allvarlig', 'high'], ['Besvärande', 'low'])),
  signal('AttentionSignal/HypersensitivityType/Certitude', 'differs', `${SIGNALS}: Certitude is the \`verificationStatus\` code`,
    pairs(['Bekräftad', 'confirmed'], ['Misstänkt', 'unconfirmed'])),
  signal('AttentionSignal/HypersensitivityType/ReactionTypes/*', 'differs', `${SIGNALS}: every manifestation, which R4 requires of a reaction`, onlyOverFhir),
  signal('Patient/PatientInternalID', 'differs', `${SIGNALS}: Patient.id`, onlyOverFhir),
  signal('CareUnit/unitLocalID', 'absent', `${RULES}: a unit named by its HSA id only`),
  // A Flag has one author: the demo's is the signal's unit, which is its CareUnit.
  signal('CareProviders/CareProvider/*', 'absent', `${SIGNALS}: a Flag's care provider is its author when staff`),
  signal('CareProviders/CareProvider/*/CareProviderType', 'differs', `${SIGNALS}: the recorder`, pairs(['SIGNERARE', 'recorder'])),
  signal('CareProviders/CareProvider/*/CareProviderInternalID', 'differs', `${RULES}: a member of staff's internal id is the Practitioner's logical id`),
  signal('CareProviders/CareProvider/*/ProviderPosition/careProviderPositionID', 'absent', `${RULES}: Staff has a position name and no position id`),
  signal('CareProviders/CareProvider/*/CareProviderUnit/unitLocalID', 'absent', `${RULES}: a unit named by its HSA id only`),
  // The recorder's role is at the unit the signal was recorded for; the legacy document names the clinician's own unit.
  signal('CareProviders/CareProvider/*/CareProviderUnit/unitID/extension', 'differs', `${SIGNALS}: the recorder's unit is its role's`,
    pairs(['SE2321000016-7P4K', 'SE2321000016-AK01'], ['SE2321000016-BU01', 'SE2321000016-AK01'])),
];

export const getAttentionSignals = {
  reading: 'mirror',
  times: (data) => data.flatMap((a) => a.AttentionSignalEHRExtract.map((e) => e.time_created?.value ?? '')),
  filteredPaths: ['/patients/attentionsignals', '/api/open/attentionsignals'],
  withholds: true,
  formTypes: ['AllergyIntolerance', 'Flag'],
  keys: (a) => a.flatMap((r) => r.AttentionSignalEHRExtract.map((e) => `${e.time_created?.value} ${e.AttentionSignal?.SignalDataType}`)),
  differences: signalDifferences,
} satisfies ReadOracles<'getAttentionSignals'>;
