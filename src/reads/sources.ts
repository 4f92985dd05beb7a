/**
 * Where each EHR gets each read from, one line per read (docs/architecture.md#a-read-is-one-folder);
 * source-table.ts checks that every read of src/reads/index.ts has its line. `npm run new-read` adds one.
 */
export { getAppointments } from './appointments/sources.js';
export { getAttentionSignals } from './attention-signals/sources.js';
export { getContacts } from './care-contacts/sources.js';
export { getDiagnoses } from './diagnoses/sources.js';
export { getJournalNotes } from './journal-notes/sources.js';
export { getLabResults } from './lab-results/sources.js';
export { getMedications } from './medications/sources.js';
export { getPatient } from './patient/sources.js';
export { getPatientV2 } from './patient-v2/sources.js';
export { getVideoMeetings } from './video-meetings/sources.js';
