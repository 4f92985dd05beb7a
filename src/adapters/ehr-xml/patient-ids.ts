/**
 * Every patient identity a mapped document names. The service must never forward another
 * patient's record (THREATS #29), so a document naming anyone but the requested patient is refused.
 */
import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';
import { malformed } from './malformed-document-error.js';

type IdsOf = { [P in ReadKind]: (data: ReadResults[P]) => Iterable<string | undefined> };

const NONE: never[] = [];

const IDS: IdsOf = {
  patient: (records) => records.flatMap((r) => r.PatientEHRExtract.map((e) => e.Patient?.PatientID.extension)),
  // The patient's own identity; connected numbers are other numbers of the same person.
  'patient-v2': (items) => items.flatMap((i) => i.patientEHRExtract.map((e) => e.patient?.patientID?.extension)),
  medications: (records) => records.flatMap((r) => r.PrescriptionEHRExtract.map((e) => e.Patient?.PatientId?.extension)),
  journalnotes: (records) => records.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
  bookings: (results) => results.flatMap((r) => (r.Patient?.PersonNumbers ?? []).map((p) => p.Number)),
  videomeetings: () => NONE,
  contacts: (items) => items.flatMap((i) => i.contactEHRExtract.map((e) => e.patient?.patientID?.extension)),
  attentionsignals: (items) => items.flatMap((i) => i.AttentionSignalEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
};

export function assertOnlyPatient<K extends ReadKind>(kind: K, data: ReadResults[K], expected: string): void {
  const ids = (IDS[kind] as (d: ReadResults[K]) => Iterable<string | undefined>)(data);
  for (const id of ids) {
    if (id !== undefined && id !== expected) throw malformed('record of another patient');
  }
}
