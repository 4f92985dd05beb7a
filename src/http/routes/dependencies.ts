import type { ReadAccessLog } from '../../domain/access-log/read-access-log.js';
import type { PatientAccessPolicy } from '../../domain/access/patient-access.js';
import type { MarkArrived } from '../../domain/use-cases/mark-arrived.js';
import type { ReadPatientData } from '../../domain/use-cases/read-patient-data.js';
import type { RegisterPayment } from '../../domain/use-cases/register-payment.js';
import type { AnswerMemory } from '../../ports/answer-memory.port.js';
import type { FhirApi } from '../fhir/fhir-api.js';
import type { LargeAnswers } from '../serialization/large-answers.js';

/** What the API routes need: the use cases and the access policy, nothing of the adapters. */
export interface RouteDependencies {
  accessPolicy: PatientAccessPolicy;
  readPatientData: ReadPatientData;
  markArrived: MarkArrived;
  registerPayment: RegisterPayment;
  /** The patient's access log, read from the audit store the trail writes to. */
  readAccessLog: ReadAccessLog;
  zone: string;
  /** Where a read and the serialising of its answer run; unbounded when absent. */
  answerMemory?: AnswerMemory;
  /** How many large answers may be on their way out at once (SEND_MAX_LARGE_ANSWERS); unbounded when absent. */
  largeAnswers?: LargeAnswers;
  /** The FHIR R4 API (docs/fhir-api.md); FHIR_API=off leaves it out, and every /fhir route with it. */
  fhir?: FhirApi;
}
