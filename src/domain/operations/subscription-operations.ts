/**
 * What the patient's access log says of notifications (docs/notifications.md#audited-and-shown): an app
 * subscribing to a topic of the patient's record, stopping (by its own request or because the service
 * ended it), being told of a change, and looking at a subscription. The FHIR API's Subscription routes
 * have no COS path and no scope of the API's own, so, as the FHIR API's own operations, they are kept
 * beside the operation table; the names per topic are derived from the topics (topics.ts).
 */
import { TOPIC_NAMES, TOPICS, type TopicName } from '../notifications/topics.js';
import type { DisplayName } from './operation.js';

/** `lab-result` as `LabResult`, in types as in values. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;
const pascal = <T extends TopicName>(topic: T): Pascal<T> => topic.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') as Pascal<T>;

/** What happens to a subscription of one topic that the patient's log shows. */
export type SubscriptionStep = 'subscribe' | 'unsubscribe' | 'notify';

/** The names of every step of every topic, as a type: a name that is none of them does not compile. */
export type SubscriptionStepName = `${SubscriptionStep}${Pascal<TopicName>}`;

/** The audited operation of a step of a topic: `subscribeLabResult`, `unsubscribeLabResult`, `notifyLabResult`. */
export const subscriptionOperation = (step: SubscriptionStep, topic: TopicName): SubscriptionStepName => `${step}${pascal(topic)}`;

const SENTENCES: Readonly<Record<SubscriptionStep, DisplayName>> = {
  subscribe: { sv: 'En app får besked', en: 'An app is told' },
  unsubscribe: { sv: 'En app får inte längre besked', en: 'An app is no longer told' },
  notify: { sv: 'En app fick besked', en: 'An app was told' },
};

/** Looking at subscriptions: nothing of the record changes, but what an app was told is shown again. */
const LOOKS = {
  readSubscription: { sv: 'En app läste vad den får besked om', en: 'An app looked at what it is told of' },
  getSubscriptionStatus: { sv: 'En app läste hur dess besked går fram', en: 'An app looked at how its notifications get through' },
  getSubscriptionEvents: { sv: 'En app hämtade ändringar den fått besked om', en: 'An app fetched changes it was told of' },
  searchSubscriptions: { sv: 'En app läste sina bevakningar', en: 'An app looked at its subscriptions' },
} as const satisfies Record<string, DisplayName>;

export type SubscriptionLookName = keyof typeof LOOKS;

/**
 * A creation or deletion refused before its topic is known (a body that is no subscription, an id of
 * nobody's): audited under what was asked, not under a topic it never named.
 */
const ASKS = {
  createSubscription: { sv: 'En app bad om besked om ändringar', en: 'An app asked to be told of changes' },
  deleteSubscription: { sv: 'En app bad om att sluta få besked om ändringar', en: 'An app asked to be told of changes no more' },
} as const satisfies Record<string, DisplayName>;

export type SubscriptionAskName = keyof typeof ASKS;

/** Every operation name of notifications: a step of a topic, a look, or an ask refused before its topic was known. */
export type SubscriptionOperationName = SubscriptionStepName | SubscriptionLookName | SubscriptionAskName;

function stepNames(): Map<string, DisplayName> {
  const names = new Map<string, DisplayName>();
  for (const topic of TOPIC_NAMES) {
    for (const step of Object.keys(SENTENCES) as SubscriptionStep[]) {
      const told = TOPICS[topic].told;
      names.set(subscriptionOperation(step, topic), { sv: `${SENTENCES[step].sv} ${told.sv}`, en: `${SENTENCES[step].en} ${told.en}` });
    }
  }
  for (const [name, displayName] of Object.entries({ ...LOOKS, ...ASKS })) names.set(name, displayName);
  return names;
}

/** Every operation name of notifications with what the access log calls it. */
export const SUBSCRIPTION_OPERATIONS: ReadonlyMap<string, DisplayName> = stepNames();

export const isSubscriptionOperationName = (name: string): name is SubscriptionOperationName => SUBSCRIPTION_OPERATIONS.has(name);

/** What a notifications operation is as an AuditEvent: its action, and its RESTful interaction where it is one. */
export interface SubscriptionAudit {
  action: 'C' | 'D' | 'E';
  interaction?: 'create' | 'delete' | 'search';
}

const CREATES: SubscriptionAudit = { action: 'C', interaction: 'create' };
const DELETES: SubscriptionAudit = { action: 'D', interaction: 'delete' };
/** Looking at a subscription is a read, as listing or reading a grant is: E, search. */
const LOOKING: SubscriptionAudit = { action: 'E', interaction: 'search' };
/** Being told is the service's sending, no request of the app's: E with no RESTful interaction. */
const TOLD: SubscriptionAudit = { action: 'E' };
const STEP_AUDITS: Readonly<Record<SubscriptionStep, SubscriptionAudit>> = { subscribe: CREATES, unsubscribe: DELETES, notify: TOLD };

const AUDITS: ReadonlyMap<string, SubscriptionAudit> = new Map([
  ...TOPIC_NAMES.flatMap((topic) => (Object.keys(STEP_AUDITS) as SubscriptionStep[]).map((step) => [subscriptionOperation(step, topic), STEP_AUDITS[step]] as const)),
  ...Object.keys(LOOKS).map((name) => [name, LOOKING] as const),
  ['createSubscription', CREATES], ['deleteSubscription', DELETES],
]);

/**
 * The AuditEvent of a notifications operation (the FHIR access log): subscribing creates a
 * Subscription (C, create), stopping deletes or ends one (D, delete), being told is E with no RESTful
 * interaction; undefined for an operation of something else.
 */
export const subscriptionAuditOf = (name: string): SubscriptionAudit | undefined => AUDITS.get(name);

const NOTIFY: ReadonlySet<string> = new Set(TOPIC_NAMES.map((topic) => subscriptionOperation('notify', topic)));

/** Whether an operation is an app being told of a change (no request of anyone's: the service's notification). */
export const isNotifyOperation = (name: string): boolean => NOTIFY.has(name);
