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
  ) {
    super(message);
    this.name = 'EhrError';
  }
}
