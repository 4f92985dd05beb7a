import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { releaseNote } from '../../domain/release/journal-release.js';
import { JournalNoteRecordSchema, type JournalExtract } from '../../domain/records/index.js';
import { compactToEpochMs } from '../../domain/time/local-time.js';
import { EMPTY, INTERVAL, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { NOTE_TYPES } from './resource-types.js';

/** Operation 10: journal notes with their text, filtered and sorted on when they were written. */
export const getJournalNotes = recordsRead({
  number: 10,
  scope: { name: 'user/JournalNote-read', description: 'Read journal notes' },
  displayName: { sv: 'Journalanteckningar', en: 'Journal notes' },
  errorShape: 'status',
  path: '/patients/journalnotes/',
  vendorPaths: ['/api/open/journalnotes/'],
  query: TimeFilterQuery,
  answer: { item: JournalNoteRecordSchema, schemaName: 'JournalNoteRecord', example: EXAMPLE, vendorLayout: 'journal-notes', bulk: 'JournalNoteEHRExtract' },
  fhirTypes: NOTE_TYPES,
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
