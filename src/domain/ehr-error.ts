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
    /** A write the EHR was sent and did not confirm: it may have been made (unconfirmedWrites). */
    readonly unconfirmedWrite = false,
  ) {
    super(message);
    this.name = 'EhrError';
  }
}

/**
 * A write's failure as its caller must be told it: one the EHR was sent (it timed out, or its answer was
 * cut off or unreadable) may have been made, and only the same request again tells, since a repeat
 * changes nothing (docs/contract.md#errors); one it never saw, or refused as unavailable, was not.
 */
export function unconfirmedWrites(err: unknown): never {
  if (err instanceof EhrError && (err.failure === 'timeout' || err.failure === 'bad-response')) {
    throw new EhrError(err.failure, err.message, err.retryAfterSeconds, true);
  }
  throw err;
}
