/**
 * The hand-kept facts of getDiagnoses that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { onlyOverFhir, OWN, pairs, RULES, under, v2CareProvider, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';
import type { Diagnosis } from './answer.js';

const DIAGNOSES = '#312-diagnoses-operation-12';
const diagnosis = under('diagnosisEHRExtract/*/');
const diagnosisDifferences: Difference[] = [
  ...['ehrId/extension', 'diagnoses/diagnosis/*/rcId', 'diagnoses/diagnosis/*/action/*/rcId'].map((m) => diagnosis(m, 'differs', OWN)),
  ...['ehrSystem', 'diagnosisMetaData/NoteId', 'diagnosisMetaData/DiagnosisTemplateName', 'diagnosisMetaData/DiagnosisTemplateSecrecyLevels/secrecyLevel/*',
    'diagnoses/diagnosis/*/diagnosisChronic', 'units/unit/*'].map((m) => diagnosis(m, 'absent', `${DIAGNOSES}: absent`)),
  // The demo's diagnoses are set at no contact, as the legacy notes (without hCMContact) are.
  ...['careUnit', 'accessZoneUnit', 'headCareProviderUnit'].map((m) => diagnosis(m, 'absent', `${DIAGNOSES}: the units of the Condition's Encounter`)),
  diagnosis('diagnosisMetaData/DiagnosisTypeOfNote', 'differs', `${DIAGNOSES}: Text(category[0]), as diagnosisType`,
    pairs(['Diagnos', 'Huvuddiagnos'], ['Diagnos', 'Bidiagnos'], ['Diagnos', 'Yttre orsak'])),
  diagnosis('diagnosisMetaData/DiagnosisNoteDate/value', 'differs', `${DIAGNOSES}: TS(recordedDate), a date with its time`,
    (xml, fhir) => typeof xml === 'string' && typeof fhir === 'string' && fhir.length === 14 && fhir.startsWith(xml)),
  diagnosis('diagnosisMetaData/DiagnosisSignDateTime/value', 'differs', `${DIAGNOSES}: a confirmed Condition is signed when recorded`),
  diagnosis('diagnosisMetaData/DiagnosisSecrecyLevels/secrecyLevel/*', 'differs', `${RULES}: secrecy levels as security labels`,
    pairs(['Normal', undefined], ['Sekretess', 'R'])),
  diagnosis('patient/patientInternalID', 'differs', `${RULES}: the patient's internal id is Patient.id`, onlyOverFhir),
  diagnosis('careProviders/careProvider/*/careProviderType', 'differs', `${DIAGNOSES}: the asserter`, pairs(['Diagnosställare', 'asserter'])),
  ...v2CareProvider(diagnosis, 'careProviders/careProvider/*/'),
];

/** Every code of a note's diagnoses, a nested diagnosis's after its own. */
const codes = (diagnoses: Diagnosis[]): (string | undefined)[] => diagnoses.flatMap((d) => [d.diagnosisCode, ...codes(d.diagnosis)]);

export const getDiagnoses = {
  reading: 'mirror',
  times: (data) => data.flatMap((a) => a.diagnosisEHRExtract.map((e) => e.timeCreated?.value ?? '')),
  filteredPaths: ['/patients/diagnoses', '/api/open/diagnosis'],
  withholds: true,
  formTypes: ['Condition', 'Procedure'],
  // FHIR holds one Condition per diagnosis note, of its first diagnosis, where a legacy note may hold several
  // (docs/upstream-fhir.md#312-diagnoses-operation-12): each note is named by its first code and its time.
  keys: (a) => a.flatMap((r) => r.diagnosisEHRExtract.flatMap((e) => codes(e.diagnoses?.diagnosis ?? []).slice(0, 1)
    .map((code) => `${code} ${e.timeCreated?.value}`))),
  differences: diagnosisDifferences,
} satisfies ReadOracles<'getDiagnoses'>;
