/**
 * A fault of one EHR answer (docs/contract.md#errors: 502 for that request alone): a malformed document, a
 * record of another patient, a body over the cap or not XML, a refusal of this request. The EHR
 * answered, so the circuit breaker does not count it; only transport faults, timeouts and 5xx do
 * (issue 12 item 3), or one patient's document would stop the service for everyone.
 */
import { EhrError } from '../../domain/ehr-error.js';

export class AnswerFaultError extends EhrError {
  constructor(reason: string) {
    super('bad-response', reason);
  }
}
