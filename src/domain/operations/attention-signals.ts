import { noContactDetails } from '../read-policy/read-policy.js';
import { instantOf, selectExtracts } from '../read-policy/time-selection.js';
import { releaseSignal } from '../release/record-release.js';
import { releaseIn } from '../release/release.js';
import { AttentionSignalSchema, type AttentionSignalEhrExtract } from '../records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from './docs-text.js';
import { recordsRead } from './operation.js';
import { TimeFilterQuery } from './parameters.js';

/** Operation 7: attention signals in the vendor's layout, filtered and sorted on when they were registered. */
export const getAttentionSignals = recordsRead({
  scope: { name: 'user/AttentionSignal-read', description: 'Read attention signals' },
  displayName: { sv: 'Läsa uppmärksamhetssignaler', en: 'Read attention signals' },
  errorShape: 'error',
  path: '/patients/attentionsignals/',
  vendorPaths: ['/api/open/attentionsignals/'],
  query: TimeFilterQuery,
  answer: { item: AttentionSignalSchema, schemaName: 'AttentionSignals', vendorLayout: 'attention-signal' },
  policy: {
    select: (items, bounds, zone) => selectExtracts(items, 'AttentionSignalEHRExtract',
      (e: AttentionSignalEhrExtract) => instantOf(e.time_created, zone), bounds),
    marksProtectedIdentity: (items) => items.some((i) => i.AttentionSignalEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
    withoutContactDetails: noContactDetails,
    release: (items, rules, all) => releaseIn(items, 'AttentionSignalEHRExtract', (e: AttentionSignalEhrExtract) => releaseSignal(e, rules), all, true),
  },
  docs: {
    tag: { name: 'Attention signals', description: 'Warnings a care giver must know about: allergies, infections, treatments that matter for safety.' },
    summary: 'List attention signals',
    description: `Allergies, infections and other warnings, oldest first, filtered on when they were registered. ${INTERVAL} ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The attention signals, oldest first.',
  },
});
