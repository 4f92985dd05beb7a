/** The seven patient documents by read kind (README §2): parse, map, and refuse foreign records. */
import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';
import { mapAttentionSignals } from './attention-signals.js';
import { mapBookings } from './bookings.js';
import { mapCareContacts } from './care-contacts.js';
import { mapJournalNoteRecords } from './journal-notes.js';
import { mapPrescriptionRecords } from './medications.js';
import { mapPatientRecords } from './patient.js';
import { assertOnlyPatient } from './patient-ids.js';
import type { MapContext } from './shape.js';
import { mapVideoMeetings } from './video-meetings.js';

export interface MapOptions {
  /** IANA zone of the EHR's local times (EHR_TIMEZONE). */
  zone: string;
  /** When given, a document naming any other patient is malformed. */
  expectedPatientId?: string;
  /** Told why an item was left out (no personal data in the reason). */
  onDropped?: (reason: string) => void;
}

type Mappers = { [P in ReadKind]: (xml: string, ctx: MapContext) => ReadResults[P] };

const MAPPERS: Mappers = {
  patient: mapPatientRecords,
  medications: mapPrescriptionRecords,
  journalnotes: mapJournalNoteRecords,
  bookings: mapBookings,
  videomeetings: mapVideoMeetings,
  contacts: mapCareContacts,
  attentionsignals: mapAttentionSignals,
};

const ignore = (): void => undefined;

/**
 * Maps one EHR document to the API's records, in document order: selecting and sorting by time is
 * selectInRange's job. Throws MalformedDocumentError.
 */
export function mapDocument<K extends ReadKind>(kind: K, xml: string, options: MapOptions): ReadResults[K] {
  const ctx: MapContext = { zone: options.zone, onDropped: options.onDropped ?? ignore };
  const data = (MAPPERS[kind] as (x: string, c: MapContext) => ReadResults[K])(xml, ctx);
  if (options.expectedPatientId !== undefined) assertOnlyPatient(kind, data, options.expectedPatientId);
  return data;
}
