/**
 * The legacy EHR's patient documents, each described once: the path name its HTTP interface and data
 * folder give it (docs/upstream-ehr.md#2-requests-and-answers), the read of the API it answers, its
 * namespace, how the one XML reader reads it (a mirror document of a vendor layout from the answer's own
 * schema), which patients its records name, and which of its
 * items the EHR's own `from`/`to` filter selects. The embedded EHR, the XML-over-HTTP adapter and the
 * simulator read this table; they serve exactly the reads listed here.
 */
import type { ReadItem, ReadName } from '../../domain/operations/table.js';
import {
  AttentionSignalSchema, CareContactSchema, DiagnosesSchema, LabResultSchema, PatientV2Schema,
} from '../../domain/records/index.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import type { EhrReads } from '../../ports/ehr-records.port.js';
import { bookingsReading } from './bookings.js';
import type { Reading } from './document.js';
import { journalNotesReading } from './journal-notes.js';
import { prescriptionsReading } from './medications.js';
import { mirrorReading } from './mirror-document.js';
import { patientRecordsReading } from './patient.js';
import { videoMeetingsReading } from './video-meetings.js';

/** Items the upstream filter keeps or drops: where they sit below the root, and the path of their TimeValue. */
interface FilteredItems {
  path: readonly string[];
  time: readonly string[];
}

interface Document<R extends ReadName> {
  read: R;
  namespace: string;
  reading: Reading<ReadItem<R>[]>;
  /** The identity numbers the mapped records name (a document naming another patient is refused). */
  patients(records: ReadItem<R>[]): Iterable<string | undefined>;
  /** Absent: the document takes no `from`/`to` (the patient's own documents). */
  filtered?: readonly FilteredItems[];
}

const document = <R extends ReadName>(d: Document<R>): Document<R> => d;

export const DOCUMENTS = {
  patient: document({
    read: 'getPatient', namespace: 'urn:example:ehr:patient:3', reading: patientRecordsReading,
    patients: (records) => records.flatMap((r) => r.PatientEHRExtract.map((e) => e.Patient?.PatientID.extension)),
  }),
  'patient-v2': document({
    read: 'getPatientV2', namespace: 'urn:example:ehr:patient-v2:1', reading: mirrorReading('PatientEHRExtracts', PatientV2Schema),
    // The patient's own identity; connected numbers are other numbers of the same person.
    patients: (items) => items.flatMap((i) => i.patientEHRExtract.map((e) => e.patient?.patientID?.extension)),
  }),
  medications: document({
    read: 'getMedications', namespace: 'urn:example:ehr:prescription:2', reading: prescriptionsReading,
    patients: (records) => records.flatMap((r) => r.PrescriptionEHRExtract.map((e) => e.Patient?.PatientId?.extension)),
    filtered: [{ path: ['PrescriptionRecord', 'PrescriptionEHRExtract'], time: ['time_created'] }],
  }),
  journalnotes: document({
    read: 'getJournalNotes', namespace: 'urn:example:ehr:journalnote:3', reading: journalNotesReading,
    patients: (records) => records.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
    filtered: [{ path: ['JournalNoteRecord', 'JournalNoteEHRExtract'], time: ['time_created'] }],
  }),
  bookings: document({
    read: 'getAppointments', namespace: 'urn:example:ehr:booking:2', reading: bookingsReading,
    patients: (results) => results.flatMap((r) => (r.Patient?.PersonNumbers ?? []).map((p) => p.Number)),
    filtered: [
      { path: ['BookedAppointmentsResult', 'Booking'], time: ['StartTime'] },
      { path: ['BookedAppointmentsResult', 'RegisteredBooking'], time: ['StartTime'] },
    ],
  }),
  videomeetings: document({
    read: 'getVideoMeetings', namespace: 'urn:example:ehr:videomeeting:1', reading: videoMeetingsReading,
    patients: () => [],
    filtered: [{ path: ['VideoMeeting'], time: ['StartDateTime'] }],
  }),
  contacts: document({
    read: 'getContacts', namespace: 'urn:example:ehr:carecontact:2', reading: mirrorReading('ContactEHRExtracts', CareContactSchema),
    patients: (items) => items.flatMap((i) => i.contactEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['contactEHRExtract'], time: ['contact', 'contactBeginDateTime'] }],
  }),
  attentionsignals: document({
    read: 'getAttentionSignals', namespace: 'urn:example:ehr:attentionsignal:2', // The root's @version becomes XSDVersion.version.
    reading: mirrorReading('AttentionSignalEHRExtracts', AttentionSignalSchema, { versionMember: 'XSDVersion' }),
    patients: (items) => items.flatMap((i) => i.AttentionSignalEHRExtract.map((e) => e.Patient?.PatientID?.extension)),
    filtered: [{ path: ['AttentionSignalEHRExtract'], time: ['time_created'] }],
  }),
  labresults: document({
    read: 'getLabResults', namespace: 'urn:example:ehr:labresult:2', reading: mirrorReading('ChemistryReportEHRExtracts', LabResultSchema),
    patients: (items) => items.flatMap((i) => i.chemistryReportEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['chemistryReportEHRExtract'], time: ['timeCreated'] }],
  }),
  diagnoses: document({
    read: 'getDiagnoses', namespace: 'urn:example:ehr:diagnosis:2', reading: mirrorReading('DiagnosisEHRExtracts', DiagnosesSchema),
    patients: (items) => items.flatMap((i) => i.diagnosisEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['diagnosisEHRExtract'], time: ['timeCreated'] }],
  }),
} as const;

type Documents = typeof DOCUMENTS;
export type DocumentKind = keyof Documents;

/** The reads the legacy EHR's documents answer. */
export type XmlRead = Documents[DocumentKind]['read'];

/** A document's records, as the read it answers has them. */
export type DocumentResults = { [K in DocumentKind]: ReadItem<Documents[K]['read']>[] };

export const DOCUMENT_KINDS = Object.keys(DOCUMENTS) as DocumentKind[];

/** The document that answers each read. */
export const DOCUMENT_OF = Object.fromEntries(DOCUMENT_KINDS.map((kind) => [DOCUMENTS[kind].read, kind])) as
  { readonly [K in DocumentKind as Documents[K]['read']]: K };

export const XML_READS = Object.keys(DOCUMENT_OF) as XmlRead[];

/** Reads one document of a patient, mapped, filtered to `range` and sorted as `read`'s policy says. */
type DocumentReader = <R extends XmlRead>(read: R, patientId: string, range: TimeRange) => Promise<ReadItem<R>[]>;

/** The reads an EHR of these documents serves, each through `readDocument`. */
export function documentReads(readDocument: DocumentReader): EhrReads {
  return Object.fromEntries(XML_READS.map((read) => [read, (patientId: string, range: TimeRange) => readDocument(read, patientId, range)]));
}
