/** The audit record of a request could not be stored: the request must not be answered with data. */
export class AuditUnavailableError extends Error {
  override name = 'AuditUnavailableError';
}

/**
 * A write the EHR answered whose outcome record could not be stored: its attempt record stands, and the
 * EHR may have changed, so the caller is told how to find out rather than only to try again later.
 */
export class WriteOutcomeUnrecordedError extends AuditUnavailableError {
  override name = 'WriteOutcomeUnrecordedError';
}
