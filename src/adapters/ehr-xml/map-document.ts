/** The patient documents by read kind (README §2): parse, map, and refuse foreign records. */
import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';
import { attentionSignalsReading } from './attention-signals.js';
import { bookingsReading } from './bookings.js';
import { careContactsReading } from './care-contacts.js';
import type { DocumentInput } from './document-pieces.js';
import type { Reading } from './document.js';
import { journalNotesReading } from './journal-notes.js';
import { prescriptionsReading } from './medications.js';
import { patientRecordsReading } from './patient.js';
import { patientV2Reading } from './patient-v2.js';
import { assertOnlyPatient } from './patient-ids.js';
import type { MapContext } from './shape.js';
import { videoMeetingsReading } from './video-meetings.js';

export interface MapOptions {
  /** IANA zone of the EHR's local times (EHR_TIMEZONE). */
  zone: string;
  /** When given, a document naming any other patient is malformed. */
  expectedPatientId?: string;
  /** Told why an item was left out (no personal data in the reason). */
  onDropped?: (reason: string) => void;
}

type Readings = { [P in ReadKind]: Reading<ReadResults[P]> };

/** Internal: the document type behind each read kind (tests generate documents from the shapes). */
export const READINGS: Readings = {
  patient: patientRecordsReading,
  'patient-v2': patientV2Reading,
  medications: prescriptionsReading,
  journalnotes: journalNotesReading,
  bookings: bookingsReading,
  videomeetings: videoMeetingsReading,
  contacts: careContactsReading,
  attentionsignals: attentionSignalsReading,
};

const ignore = (): void => undefined;

const contextOf = (options: MapOptions): MapContext => ({ zone: options.zone, onDropped: options.onDropped ?? ignore });

function checked<K extends ReadKind>(kind: K, data: ReadResults[K], options: MapOptions): ReadResults[K] {
  if (options.expectedPatientId !== undefined) assertOnlyPatient(kind, data, options.expectedPatientId);
  return data;
}

/**
 * Maps one EHR document to the API's records, in document order: selecting and sorting by time is
 * selectInRange's job. Throws MalformedDocumentError.
 */
export function mapDocument<K extends ReadKind>(kind: K, xml: DocumentInput, options: MapOptions): ReadResults[K] {
  return checked(kind, (READINGS[kind] as Reading<ReadResults[K]>).map(xml, contextOf(options)), options);
}

/** Longest stretch, in ms, that mapDocumentInSlices reads before it lets the event loop run. */
export const SLICE_MS = 2;

/**
 * mapDocument's result (or error), read in slices of about SLICE_MS with the event loop free in
 * between: for documents of megabytes, which would otherwise hold every other request up while
 * they are read. Small documents finish within their first slice, without waiting a turn.
 */
export async function mapDocumentInSlices<K extends ReadKind>(kind: K, xml: DocumentInput, options: MapOptions, sliceMs = SLICE_MS): Promise<ReadResults[K]> {
  const data = await (READINGS[kind] as Reading<ReadResults[K]>).mapInSlices(xml, contextOf(options), sliceMs);
  return checked(kind, data, options);
}
