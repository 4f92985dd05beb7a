import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { releasePrescription } from '../../domain/release/record-release.js';
import { PrescriptionRecordSchema, type PrescriptionExtract } from '../../domain/records/index.js';
import { compactToEpochMs } from '../../domain/time/local-time.js';
import { EMPTY, INTERVAL, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { MEDICATION_TYPES } from './resource-types.js';

/** Operation 9: prescriptions, filtered and sorted on when they were registered. */
export const getMedications = recordsRead({
  number: 9,
  scope: { name: 'user/MedicationPrescription-read', description: 'Read prescribed medications' },
  displayName: { sv: 'Läkemedel', en: 'Medications' },
  errorShape: 'status',
  path: '/patients/medications/',
  vendorPaths: ['/open/api/medications/'],
  query: TimeFilterQuery,
  answer: { item: PrescriptionRecordSchema, schemaName: 'PrescriptionRecord', example: EXAMPLE, bulk: 'PrescriptionEHRExtract' },
  fhirTypes: MEDICATION_TYPES,
  policy: extractsPolicy('PrescriptionEHRExtract', {
    instant: (e: PrescriptionExtract, zone) => compactToEpochMs(e.time_created.value, zone),
    protectedMark: (e) => e.Patient?.PatientProtectedId,
    release: releasePrescription,
    vendorLayout: false,
  }),
  docs: {
    tag: { name: 'Medications', description: 'Prescribed medications.' },
    summary: 'List prescribed medications',
    description: `Prescriptions with product, dosage and prescriber, oldest first, filtered on when they were registered. ${INTERVAL} ${EMPTY} ${WHO}`,
    success: 'The prescriptions, oldest first.',
  },
});
