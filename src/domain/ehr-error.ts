/**
 * Why an EHR call failed. `patient-not-found` is answered like any refused access; the others are
 * infrastructure faults that never reveal upstream text to the caller.
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
