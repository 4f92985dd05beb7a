import { extractsPolicy } from '../read-policy/extracts-policy.js';
import { releaseNote } from '../release/journal-release.js';
import { JournalNoteRecordSchema, type JournalExtract } from '../records/index.js';
import { compactToEpochMs } from '../time/local-time.js';
import { EMPTY, INTERVAL, WHO } from './docs-text.js';
import { recordsRead } from './operation.js';
import { TimeFilterQuery } from './parameters.js';

/** Operation 10: journal notes with their text, filtered and sorted on when they were written. */
export const getJournalNotes = recordsRead({
  scope: { name: 'user/JournalNote-read', description: 'Read journal notes' },
  displayName: { sv: 'Läsa journalanteckningar', en: 'Read journal notes' },
  errorShape: 'status',
  path: '/patients/journalnotes/',
  vendorPaths: ['/api/open/journalnotes/'],
  query: TimeFilterQuery,
  answer: { item: JournalNoteRecordSchema, schemaName: 'JournalNoteRecord', vendorLayout: 'journal-notes', bulk: 'JournalNoteEHRExtract' },
  policy: extractsPolicy('JournalNoteEHRExtract', {
    instant: (e: JournalExtract, zone) => compactToEpochMs(e.time_created.value, zone),
    protectedMark: (e) => e.Patient?.PatientProtectedId,
    release: releaseNote,
    vendorLayout: false,
  }),
  docs: {
    tag: { name: 'Journal notes', description: "Notes from the patient's medical record." },
    summary: 'List journal notes',
    description: `Notes from the medical record with their text, oldest first, filtered on when they were written. ${INTERVAL} ${EMPTY} ${WHO}`,
    success: 'The journal notes, oldest first.',
  },
});
