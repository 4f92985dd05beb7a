import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { instantOf } from '../../domain/read-policy/time-selection.js';
import { releaseSignal } from '../../domain/release/record-release.js';
import { AttentionSignalSchema, type AttentionSignalEhrExtract } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { SIGNAL_TYPES } from './resource-types.js';

/** Operation 7: attention signals in the vendor's layout, filtered and sorted on when they were registered. */
export const getAttentionSignals = recordsRead({
  number: 7,
  scope: { name: 'user/AttentionSignal-read', description: 'Read attention signals' },
  displayName: { sv: 'Uppmärksamhetssignaler', en: 'Attention signals' },
  errorShape: 'error',
  path: '/patients/attentionsignals/',
  vendorPaths: ['/api/open/attentionsignals/'],
  query: TimeFilterQuery,
  answer: { item: AttentionSignalSchema, schemaName: 'AttentionSignals', example: EXAMPLE, vendorLayout: 'attention-signal' },
  fhirTypes: SIGNAL_TYPES,
  policy: extractsPolicy('AttentionSignalEHRExtract', {
    instant: (e: AttentionSignalEhrExtract, zone) => instantOf(e.time_created, zone),
    protectedMark: (e) => e.Patient?.PatientProtectedId,
    release: releaseSignal,
    vendorLayout: true,
  }),
  docs: {
    tag: { name: 'Attention signals', description: 'Warnings a care giver must know about: allergies, infections, treatments that matter for safety.' },
    summary: 'List attention signals',
    description: `Allergies, infections and other warnings, oldest first, filtered on when they were registered. ${INTERVAL} ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The attention signals, oldest first.',
  },
});
