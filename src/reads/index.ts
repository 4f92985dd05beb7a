/**
 * The reads of patient records, one line each (docs/architecture.md#a-read-is-one-folder): the operation
 * a read's folder describes. The operation table (src/domain/operations/table.ts) takes every read from
 * here; `npm run new-read` adds a line.
 */
export { getAppointments } from './appointments/operation.js';
export { getAttentionSignals } from './attention-signals/operation.js';
export { getContacts } from './care-contacts/operation.js';
export { getDiagnoses } from './diagnoses/operation.js';
export { getJournalNotes } from './journal-notes/operation.js';
export { getLabResults } from './lab-results/operation.js';
export { getMedications } from './medications/operation.js';
export { getPatient } from './patient/operation.js';
export { getPatientV2 } from './patient-v2/operation.js';
export { getVideoMeetings } from './video-meetings/operation.js';
