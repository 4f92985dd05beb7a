/** Stable codes for every way a use case can refuse; the HTTP layer maps each to a status once. */
export type DomainErrorCode =
  | 'ACCESS_DENIED'
  | 'PATIENT_HEADER_REQUIRED'
  | 'INVALID_PATIENT_HEADER'
  | 'INVALID_TIME_RANGE'
  | 'INVALID_PAGE'
  /** A FHIR search or read the API cannot take as written (docs/fhir-api.md#search). */
  | 'INVALID_SEARCH'
  /** A request whose body or path names something that cannot be (a grant's member), said in the message. */
  | 'INVALID_REQUEST'
  /** The caller may not do this at all, for the reason the message gives (403); never about another patient's data. */
  | 'FORBIDDEN'
  /** Nothing of the caller's has this id (404): one that is someone else's answers the same. */
  | 'NOT_FOUND'
  /** It cannot be done in the state things are in (409); the message says what to do. */
  | 'CONFLICT';

export class DomainError extends Error {
  constructor(readonly code: DomainErrorCode, message: string) {
    super(message);
    this.name = 'DomainError';
  }
}
