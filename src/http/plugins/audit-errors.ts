/** The audit record of a request could not be stored: the request must not be answered with data. */
export class AuditUnavailableError extends Error {
  override name = 'AuditUnavailableError';
}

/**
 * A change (a payment or an arrival, a sharing grant, a subscription) whose attempt record was stored and whose
 * outcome record could not be: it may have been made, so the caller is told how to find out rather than only to
 * try again later (hostile reviews helper-127 F2, helper-130 F1). `registration`: a payment or an arrival, whose
 * repeat answers INFO if the first was made.
 */
export class ChangeUnrecordedError extends AuditUnavailableError {
  override name = 'ChangeUnrecordedError';
  constructor(readonly registration: boolean) {
    super('the outcome of a change was not recorded');
  }
}
