/**
 * Why an EHR call failed. `patient-not-found` is answered like any refused access; the others are
 * infrastructure faults that never reveal upstream text to the caller. `unreachable`: no connection
 * to the EHR could be made (refused, its name not found, no route, no connection in time), so it
 * never saw the request; `bad-response`: it answered, with an error or something unreadable.
 */
export type EhrFailure = 'patient-not-found' | 'unavailable' | 'timeout' | 'unreachable' | 'bad-response';

export class EhrError extends Error {
  constructor(
    readonly failure: EhrFailure,
    message: string,
    readonly retryAfterSeconds?: number,
    /** A write the EHR was sent and did not confirm: it may have been made (asUnconfirmedWrite). */
    readonly unconfirmedWrite = false,
    /** Of such a write: the adapter found its booking the patient's before sending it (ofCheckedBooking). */
    readonly bookingChecked = false,
  ) {
    super(message);
    this.name = 'EhrError';
  }
}

/**
 * The failure of a write request the EHR was sent, as its caller must be told it: one that timed out, or
 * whose answer was cut off or unreadable, may have been made, and only the same request again tells,
 * since a repeat changes nothing (docs/contract.md#errors); one the EHR never saw (no connection, the
 * circuit open) was not. One `answered` unavailable (503, 429) may have been taken too: a gateway answers
 * so for a request it forwarded and lost (hostile review helper-135, F1). Said by the adapter that sends
 * it: a read made first (a fee) is not.
 */
export function asUnconfirmedWrite(err: unknown, answered = false): unknown {
  const unsure = (failure: EhrFailure): boolean => failure === 'timeout' || failure === 'bad-response' || (answered && failure === 'unavailable');
  if (err instanceof EhrError && !err.unconfirmedWrite && unsure(err.failure)) {
    return new EhrError(err.failure, err.message, err.retryAfterSeconds, true, err.bookingChecked);
  }
  return err;
}

/**
 * `err`, of a write whose booking the adapter found the patient's before sending it: an unconfirmed one
 * then says so, so its outcome record may name the booking (the legacy EHR's payment is sent unchecked).
 */
export function ofCheckedBooking(err: unknown): unknown {
  return err instanceof EhrError && err.unconfirmedWrite && !err.bookingChecked
    ? new EhrError(err.failure, err.message, err.retryAfterSeconds, true, true) : err;
}

/** A write sent to the EHR and not confirmed (`unconfirmedWrite`): it may yet be made. */
export const isUnconfirmedWrite = (err: unknown): boolean => err instanceof EhrError && err.unconfirmedWrite;

/** Such a write whose booking the adapter found the patient's before sending it (ofCheckedBooking). */
export const isUnconfirmedOfCheckedBooking = (err: unknown): boolean => isUnconfirmedWrite(err) && (err as EhrError).bookingChecked;
