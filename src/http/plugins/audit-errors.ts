/** The audit record of a request could not be stored: the request must not be answered with data. */
export class AuditUnavailableError extends Error {
  override name = 'AuditUnavailableError';
}
