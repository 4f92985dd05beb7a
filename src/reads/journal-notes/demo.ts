/** The demo people's data of getJournalNotes (the patient's journal notes), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { compositions } from './demo-fhir.js';
import { journalNotesDocument } from './demo-xml.js';

export const demo = { xml: journalNotesDocument, fhir: { person: compositions } } satisfies ReadDemo;
