import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';

type Marks = { [P in ReadKind]: (data: ReadResults[P]) => boolean };

const never = (): boolean => false;

/**
 * Which documents carry `PatientProtectedId` besides the patient document: journal notes and
 * prescriptions name the patient with the flag, and the document being answered may know of a
 * protection the patient document does not show yet. When in doubt, protect.
 */
const MARKS: Marks = {
  patient: (records) => records.some((r) => r.PatientEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  medications: (records) => records.some((r) => r.PrescriptionEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  journalnotes: (records) => records.some((r) => r.JournalNoteEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  bookings: never,
  videomeetings: never,
  contacts: never,
  attentionsignals: never,
};

/** True when any part of an answered document marks the patient's identity protected. */
export function marksProtectedIdentity<K extends ReadKind>(kind: K, data: ReadResults[K]): boolean {
  return (MARKS[kind] as (d: ReadResults[K]) => boolean)(data);
}
