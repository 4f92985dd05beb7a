import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { instantOf } from '../../domain/read-policy/time-selection.js';
import { releaseDiagnosis } from '../../domain/release/report-release.js';
import { DiagnosesSchema, type DiagnosisEhrExtract } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { DIAGNOSIS_TYPES } from './resource-types.js';

/** Operation 12 (beyond the spec): diagnoses (ICD-10-SE) and their actions, in the vendor's v2 layout. */
export const getDiagnoses = recordsRead({
  number: 12,
  scope: {
    name: 'user/Diagnosis-read', description: 'Read diagnoses',
    aliases: ['user/Condition.read', 'patient/Condition.read'],
  },
  displayName: { sv: 'Diagnoser', en: 'Diagnoses' },
  errorShape: 'error',
  path: '/patients/diagnoses/',
  vendorPaths: ['/api/open/diagnosis/'],
  query: TimeFilterQuery,
  answer: { item: DiagnosesSchema, schemaName: 'DiagnosisEHRExtracts', example: EXAMPLE, vendorLayout: 'diagnosis-v2', bulk: 'diagnosisEHRExtract' },
  fhirTypes: DIAGNOSIS_TYPES,
  policy: extractsPolicy('diagnosisEHRExtract', {
    instant: (e: DiagnosisEhrExtract, zone) => instantOf(e.timeCreated, zone),
    protectedMark: (e) => e.patient?.patientProtectedId,
    release: releaseDiagnosis,
    vendorLayout: true,
  }),
  docs: {
    tag: { name: 'Diagnoses', description: 'Diagnoses set at the patient\'s care contacts, with their codes (ICD-10-SE) and the actions taken.' },
    summary: 'List diagnoses',
    description: `Diagnoses with their codes and texts, nested diagnoses and actions (procedures), oldest first, filtered on when each was recorded. ${INTERVAL} ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The diagnoses, oldest first.',
  },
});
