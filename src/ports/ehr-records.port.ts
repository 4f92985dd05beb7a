import type {
  AttentionSignal, BookedAppointmentsResult, CareContact, JournalNoteRecord, PatientRecord, PatientV2,
  PrescriptionRecord, VideoMeeting,
} from '../domain/records/index.js';

/** The documents the EHR answers, by their path name upstream (README §2): the patient's in two layouts. */
export type ReadKind =
  | 'patient' | 'patient-v2' | 'medications' | 'journalnotes' | 'bookings' | 'videomeetings' | 'contacts' | 'attentionsignals';

export interface ReadResults {
  patient: PatientRecord[];
  'patient-v2': PatientV2[];
  medications: PrescriptionRecord[];
  journalnotes: JournalNoteRecord[];
  bookings: BookedAppointmentsResult[];
  videomeetings: VideoMeeting[];
  contacts: CareContact[];
  attentionsignals: AttentionSignal[];
}

/** Inclusive bounds as compact 14-digit local times (`YYYYMMDDhhmmss`); either may be absent. */
export interface TimeRange {
  from?: string;
  to?: string;
}

/** How a visit was paid: the spec's CASH and CARD, and the vendor's INVOICE (CONTRACT §4). */
export const PAYMENT_TYPES = ['CASH', 'CARD', 'INVOICE'] as const;
export type PaymentType = typeof PAYMENT_TYPES[number];

/** What the EHR answered to a write, by its stable reason code (its Comment is not for parsing). */
export interface EhrWriteResult {
  resultCode: 'OK' | 'INFO' | 'ERROR';
  reasonCode: string | undefined;
}

/**
 * Why an EHR call failed. `patient-not-found` is answered like any refused access; the others
 * are infrastructure faults that never reveal upstream text to the caller.
 */
export type EhrFailure = 'patient-not-found' | 'unavailable' | 'timeout' | 'bad-response';

export class EhrError extends Error {
  constructor(
    readonly failure: EhrFailure,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'EhrError';
  }
}

/** The patient data of the legacy EHR, already translated to the API's JSON records. */
export interface EhrRecords {
  /** Records of one patient, filtered to `range` and sorted oldest first. Throws EhrError. */
  read<K extends ReadKind>(kind: K, patientId: string, range: TimeRange): Promise<ReadResults[K]>;
  registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult>;
  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult>;
  /** Cheap reachability probe for readiness. */
  ping(): Promise<boolean>;
}
