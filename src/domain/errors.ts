/** Stable codes for every way a use case can refuse; the HTTP layer maps each to a status once. */
export type DomainErrorCode =
  | 'ACCESS_DENIED'
  | 'PATIENT_HEADER_REQUIRED'
  | 'INVALID_PATIENT_HEADER'
  | 'INVALID_TIME_RANGE'
  | 'INVALID_PAGE'
  /** A FHIR search or read the API cannot take as written (docs/fhir-api.md#search). */
  | 'INVALID_SEARCH';

export class DomainError extends Error {
  constructor(readonly code: DomainErrorCode, message: string) {
    super(message);
    this.name = 'DomainError';
  }
}
