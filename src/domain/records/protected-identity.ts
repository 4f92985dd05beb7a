import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';

type Marks = { [P in ReadKind]: (data: ReadResults[P]) => boolean };

const never = (): boolean => false;

/**
 * Which documents carry `PatientProtectedId` besides the patient document: journal notes,
 * prescriptions and the vendor layouts (patient v2, care contacts, attention signals) name the
 * patient with the flag, and the document being answered may know of a
 * protection the patient document does not show yet. When in doubt, protect.
 */
const MARKS: Marks = {
  patient: (records) => records.some((r) => r.PatientEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  'patient-v2': (items) => items.some((i) => i.patientEHRExtract.some((e) => e.patient?.patientProtectedId === true)),
  medications: (records) => records.some((r) => r.PrescriptionEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  journalnotes: (records) => records.some((r) => r.JournalNoteEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
  bookings: never,
  videomeetings: never,
  contacts: (items) => items.some((i) => i.contactEHRExtract.some((e) => e.patient?.patientProtectedId === true)),
  attentionsignals: (items) => items.some((i) => i.AttentionSignalEHRExtract.some((e) => e.Patient?.PatientProtectedId === true)),
};

/** True when any part of an answered document marks the patient's identity protected. */
export function marksProtectedIdentity<K extends ReadKind>(kind: K, data: ReadResults[K]): boolean {
  return (MARKS[kind] as (d: ReadResults[K]) => boolean)(data);
}
