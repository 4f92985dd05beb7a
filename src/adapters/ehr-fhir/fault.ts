/**
 * A FHIR answer this service cannot trust (docs/contract.md#errors: 502 for that request alone, not
 * counted by the circuit breaker). The reason is fixed text of this service naming at most a
 * resource type and a member path: never the server's words, which may hold an identity number.
 */
import { AnswerFaultError } from '../ehr-http/answer-fault.js';

export const fhirFault = (reason: string): AnswerFaultError => new AnswerFaultError(`FHIR answer refused: ${reason}`);
