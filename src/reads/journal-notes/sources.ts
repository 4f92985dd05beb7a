/** Where each EHR gets getJournalNotes from (src/reads/read-sources.ts). */
import { NOTE_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { journalNotesAsFhir } from './as-fhir.js';
import { mapJournalNotes } from './fhir.js';
import { journalNotesReading } from './xml.js';

export const getJournalNotes = {
  xml: xmlDocument({
    path: 'journalnotes', namespace: 'urn:example:ehr:journalnote:3', reading: journalNotesReading,
    patients: (records) => records.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
    filtered: [{ path: ['JournalNoteRecord', 'JournalNoteEHRExtract'], time: ['time_created'] }],
  }),
  fhir: {
    searches: [byPatient('Composition', 'date', includes('Composition:author', 'Composition:attester', 'Composition:encounter',
      'Composition:entry', 'iterate Encounter:service-provider'))],
    follows: NOTE_FOLLOWS,
    map: mapJournalNotes,
  },
  asFhir: journalNotesAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getJournalNotes'>;
