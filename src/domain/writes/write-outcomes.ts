import type { ResultRecord } from '../records/index.js';

/** What the EHR answered to a write, by its stable reason code (its Comment is not for parsing). */
export interface EhrWriteResult {
  resultCode: 'OK' | 'INFO' | 'ERROR';
  reasonCode: string | undefined;
}

/**
 * The ResultRecords the two writes answer. Comments are for people; `Any[0].ReasonCode` is the
 * stable code a client may act on. An unknown and a foreign appointment share one text, so ids of
 * other patients cannot be probed.
 */
export const WRITE_OUTCOMES = {
  ARRIVAL_REGISTERED: ['OK', 'Arrival registered.'],
  ALREADY_ARRIVED: ['INFO', 'The appointment was already marked as arrived.'],
  PAYMENT_REGISTERED: ['OK', 'Payment registered.'],
  ALREADY_PAID: ['INFO', 'The appointment was already paid.'],
  CONTACT_NOT_FOUND: ['ERROR', 'No such appointment was found for the patient.'],
  CONTACT_CANCELLED: ['ERROR', 'The appointment is cancelled.'],
  NOT_PAYABLE: ['ERROR', 'Payment can only be registered for an appointment that is marked as arrived.'],
  OUTSIDE_ARRIVAL_WINDOW: ['ERROR', 'Arrival can only be registered close to the start of the appointment.'],
} as const satisfies Record<string, readonly ['OK' | 'INFO' | 'ERROR', string]>;

export type OutcomeCode = keyof typeof WRITE_OUTCOMES;

/**
 * What the audit keeps of a write the EHR was sent and did not confirm (isUnconfirmedWrite): it may have been
 * made. Not an answer of the EHR's, which is OK, INFO or ERROR: the patient's log says the outcome is not known,
 * where "failed" alone reads as not paid (docs/contract.md#the-patients-access-log).
 */
export const UNCONFIRMED_WRITE_RESULT = 'UNKNOWN';

export function resultRecord(code: OutcomeCode): ResultRecord {
  const [resultCode, comment] = WRITE_OUTCOMES[code];
  return { ResultCode: resultCode, Comment: comment, Any: [{ ReasonCode: code }] };
}

/** Translates the EHR's answer; a reason this service does not know is reported as a plain failure. */
export function fromEhrResult(result: EhrWriteResult): ResultRecord {
  const code = result.reasonCode;
  if (code !== undefined && code in WRITE_OUTCOMES) {
    const known = code as OutcomeCode;
    if (WRITE_OUTCOMES[known][0] === result.resultCode) return resultRecord(known);
  }
  return {
    ResultCode: result.resultCode,
    Comment: result.resultCode === 'ERROR' ? 'The request could not be carried out.' : 'Done.',
    Any: code === undefined ? [] : [{ ReasonCode: code }],
  };
}

/**
 * Whether a write's answer shows that its booking is the patient's, so the audit may name it
 * (OutcomeRecord.contactId): an OK or INFO (the EHR changed, or had already changed, that booking of the
 * patient's), or an ERROR about a booking found (cancelled, not payable, outside the arrival window).
 * Never CONTACT_NOT_FOUND, nor an ERROR without a reason this service knows: the id may be anyone's text.
 */
export function confirmsBooking(answer: ResultRecord): boolean {
  const reason = answer.Any?.[0]?.ReasonCode;
  if (reason === 'CONTACT_NOT_FOUND') return false;
  if (answer.ResultCode === 'OK' || answer.ResultCode === 'INFO') return true;
  return answer.ResultCode === 'ERROR' && typeof reason === 'string' && BOOKING_FOUND.has(reason);
}

/** The ERRORs about a booking that was found: the compiler holds each to a code of WRITE_OUTCOMES. */
const BOOKING_FOUND: ReadonlySet<string> = new Set<OutcomeCode>(['CONTACT_CANCELLED', 'NOT_PAYABLE', 'OUTSIDE_ARRIVAL_WINDOW']);
