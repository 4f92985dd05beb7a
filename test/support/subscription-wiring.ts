/**
 * Subscriptions in a test app (docs/fhir-api.md#subscriptions): the use case over a store in memory, the app's
 * access policy, read use case and FHIR forms, wired as the composition root wires it, the region's
 * endpoint rules over one allowed prefix (SUBSCRIPTION_TEST_ENDPOINT), and a fake of the header rules
 * (a line is `Name: value` without a line break). `created` records each subscription handed to the sender.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MemorySubscriptionStore } from '../../src/adapters/subscriptions/memory-subscription-store.js';
import type { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { EndpointRules, type EndpointVerdict } from '../../src/domain/notifications/endpoint-rules.js';
import { ManageSubscriptions } from '../../src/domain/notifications/manage-subscriptions.js';
import { subscriberShows } from '../../src/http/fhir/subscription-caller.js';
import type { ResourceWriter } from '../../src/domain/notifications/notification-deps.js';
import { RightToRead } from '../../src/domain/notifications/right-to-read.js';
import type { StoredSubscription } from '../../src/domain/notifications/subscription.js';
import { offeredTopics } from '../../src/domain/notifications/topics.js';
import type { ReadItem, ReadName } from '../../src/domain/operations/table.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import type { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import type { FhirApi } from '../../src/http/fhir/fhir-api.js';
import { asFhirContext } from '../../src/http/fhir/patient-records.js';
import type { SubscriptionDependencies } from '../../src/http/routes/dependencies.js';
import type { AuditTrail } from '../../src/ports/audit-trail.port.js';
import type { Clock } from '../../src/ports/clock.port.js';
import type { FhirForm } from '../../src/reads/as-fhir.js';
import { ZONE } from './app-wiring.js';

/** The prefix the fake endpoint rule allows. */
export const SUBSCRIPTION_TEST_ENDPOINT = 'https://hooks.test.example/';

export interface TestSubscriptions {
  door: SubscriptionDependencies;
  store: MemorySubscriptionStore;
  /** Every subscription handed to the sender, in order. */
  created: StoredSubscription[];
}

export interface SubscriptionWiring {
  accessPolicy: PatientAccessPolicy;
  readPatientData: ReadPatientData;
  api: FhirApi;
  audit: AuditTrail;
  clock: Clock;
  sharing: boolean;
  releasePolicy?: ReleasePolicy;
}

/** A read's records as the FHIR API serves them for one patient. */
const writerOf = (api: FhirApi): ResourceWriter => <R extends ReadName>(read: R, records: readonly ReadItem<R>[], patientId: string) =>
  (api.forms[read] as FhirForm<R> | undefined)?.resources(records, asFhirContext(api, ZONE, patientId, false)) ?? [];

// The region's own rules, over the one prefix the test apps register.
const rules = new EndpointRules([SUBSCRIPTION_TEST_ENDPOINT], false);
const checkEndpoint = (endpoint: string): EndpointVerdict => rules.check(endpoint);

const headerProblem = (lines: readonly string[]): string | undefined =>
  (lines.every((line) => /^[A-Za-z0-9-]+: [^\r\n]*$/.test(line)) ? undefined : 'each line must be "Name: value" on one line');

export function subscriptionsOver(w: SubscriptionWiring): TestSubscriptions {
  const store = new MemorySubscriptionStore();
  const right = new RightToRead(w.accessPolicy, undefined, { policy: w.releasePolicy, clock: w.clock, zone: ZONE });
  const manage = new ManageSubscriptions(
    {
      store, right, reader: w.readPatientData, write: writerOf(w.api), shows: subscriberShows(w.api), audit: w.audit, clock: w.clock,
      digest: (text) => createHash('sha256').update(text).digest('hex'), newId: randomUUID,
    },
    { topics: offeredTopics(w.sharing), pollMs: 60_000, newSubscriptionId: () => randomBytes(16).toString('hex') },
  );
  const created: StoredSubscription[] = [];
  return { door: { manage, checkEndpoint, headerProblem, created: (s) => void created.push(s) }, store, created };
}
