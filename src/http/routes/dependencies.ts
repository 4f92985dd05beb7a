import type { ReadAccessLog } from '../../domain/access-log/read-access-log.js';
import type { PatientAccessPolicy } from '../../domain/access/patient-access.js';
import type { ManageSubscriptions } from '../../domain/notifications/manage-subscriptions.js';
import type { StoredSubscription } from '../../domain/notifications/subscription.js';
import type { ProxyGrants } from '../../domain/proxies/proxy-grants.js';
import type { MarkArrived } from '../../domain/use-cases/mark-arrived.js';
import type { ReadPatientData } from '../../domain/use-cases/read-patient-data.js';
import type { RegisterPayment } from '../../domain/use-cases/register-payment.js';
import type { AnswerMemory } from '../../ports/answer-memory.port.js';
import type { EndpointVerdict } from '../../domain/notifications/endpoint-rules.js';
import type { AppNames } from '../access-log/fhir-audit-event.js';
import type { ScopeGrants } from '../../domain/access/scope-grants.js';
import type { FhirApi } from '../fhir/fhir-api.js';
import type { LargeAnswers } from '../serialization/large-answers.js';

/** What the FHIR API's Subscription routes need (docs/fhir-api.md#subscriptions). */
export interface SubscriptionDependencies {
  manage: ManageSubscriptions;
  /** Whether notifications may go to `endpoint` for the app `clientId` (its allowed prefixes, https, loopback): the normalised URL to keep, or why not. */
  checkEndpoint(endpoint: string, clientId: string): EndpointVerdict;
  /** Why `channel.header` lines may not be sent (a line break, not `Name: value`, too many or too long); undefined when they may. */
  headerProblem(lines: readonly string[]): string | undefined;
  /** Told of each subscription once kept, so that its handshake goes at once. */
  created?(s: StoredSubscription): void;
}

/** What the API routes need: the use cases and the access policy, nothing of the adapters. */
export interface RouteDependencies {
  accessPolicy: PatientAccessPolicy;
  /** What a token's scopes grant, the same on the COS door as on /fhir (scopeGrantsOf the reads' FHIR forms). */
  scopeGrants: ScopeGrants;
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
  /** Sharing (docs/proxies.md); undefined with PROXY_GRANTS=off, when every sharing route answers 403. */
  proxyGrants?: ProxyGrants;
  /**
   * The apps the service's own authorization server registers, by client id: each one's name in Swedish
   * and English (its `client_name#sv`/`#en`), for the access log as FHIR and the patient app's page.
   */
  appNames?: AppNames;
  /** The FHIR R4 API (docs/fhir-api.md); FHIR_API=off leaves it out, and every /fhir route with it. */
  fhir?: FhirApi;
  /** Subscriptions on the FHIR API (docs/fhir-api.md#subscriptions); SUBSCRIPTIONS=off leaves them out, and /fhir serves no Subscription. */
  subscriptions?: SubscriptionDependencies;
}
