/**
 * The notification and status documents of the Subscriptions R5 Backport IG (STU 1.1.0) on R4
 * (docs/notifications.md#what-arrives): a `history` Bundle whose first entry is the
 * `backport-subscription-status-r4` Parameters, and, for `id-only`, one entry per focus with `fullUrl`,
 * `request` and `response` but no resource (R4 requires both in a history Bundle). `$status` answers
 * the same Parameters in a `searchset`. No record content is ever in them: a focus is a reference.
 */
import type { EndReason, StoredSubscription, SubscriptionEvent } from './subscription.js';
import type { TopicName } from './topics.js';

/** Where the backport IG's canonical URLs live (its StructureDefinitions and OperationDefinitions below it). */
export const BACKPORT_IG = 'http://hl7.org/fhir/uv/subscriptions-backport';
const BACKPORT = `${BACKPORT_IG}/StructureDefinition`;
export const STATUS_PROFILE = `${BACKPORT}/backport-subscription-status-r4`;
export const NOTIFICATION_PROFILE = `${BACKPORT}/backport-subscription-notification-r4`;
const SUBSCRIPTION_ERROR = 'http://terminology.hl7.org/CodeSystem/subscription-error';

export type NotificationType = 'handshake' | 'heartbeat' | 'event-notification' | 'query-status' | 'query-event';

/** Where the documents point: the FHIR base (`{PUBLIC_BASE_URL}/fhir`) and the ids they are given. */
export interface BundleContext {
  fhirBase: string;
  nowMs: number;
  /** New UUIDs, one per call. */
  newId: () => string;
}

/** A topic's canonical URL (docs/notifications.md#topics). */
export const topicUrl = (fhirBase: string, topic: TopicName): string => `${fhirBase}/SubscriptionTopic/${topic}`;

/** The error `$status` and a notification name for a subscription that stopped, in words a developer can act on. */
const ERRORS: Readonly<Partial<Record<EndReason, { code: string; text: string }>>> = {
  'handshake-failed': { code: 'no-response', text: 'The endpoint did not answer the handshake with a 2xx: fix it and create the subscription again.' },
  'delivery-failed': { code: 'no-response', text: 'The endpoint did not take notifications within SUBSCRIPTION_RETRY_MINUTES: fix it and create the subscription again.' },
  'right-lost': { code: 'access-denied', text: 'The person no longer may read this record for this topic: nothing more is told.' },
  // Revoked, signed out of or run out, or narrowed by a new consent whose scopes no longer reach the topic (RightToRead.decide).
  'app-revoked': { code: 'access-denied', text: "The app's access was ended, ran out, or was narrowed so that it no longer reaches this topic: nothing more is told." },
};

/** The error of a subscription stopped for `reason`, as `$status` and its Subscription's `error` tell it; none for one deleted or past its end. */
export const endError = (reason: EndReason | undefined): { code: string; text: string } | undefined => (reason === undefined ? undefined : ERRORS[reason]);

const instant = (ms: number): string => new Date(ms).toISOString();

function eventPart(s: StoredSubscription, e: SubscriptionEvent, fhirBase: string): Record<string, unknown> {
  const part: Record<string, unknown>[] = [
    { name: 'event-number', valueString: String(e.number) },
    { name: 'timestamp', valueInstant: instant(e.atMs) },
  ];
  if (s.channel.payload === 'id-only') part.push({ name: 'focus', valueReference: { reference: `${fhirBase}/${e.focus}` } });
  return { name: 'notification-event', part };
}

/** The status Parameters of `s` for a notification of `type` carrying `events`. */
export function statusParameters(s: StoredSubscription, type: NotificationType, events: readonly SubscriptionEvent[], ctx: BundleContext): Record<string, unknown> {
  const parameter: Record<string, unknown>[] = [{ name: 'subscription', valueReference: { reference: `${ctx.fhirBase}/Subscription/${s.id}` } }];
  // An empty payload names no topic (the IG: SHOULD NOT); an id-only one does.
  if (s.channel.payload === 'id-only' || type === 'query-status') parameter.push({ name: 'topic', valueCanonical: topicUrl(ctx.fhirBase, s.topic) });
  parameter.push({ name: 'status', valueCode: s.status }, { name: 'type', valueCode: type },
    { name: 'events-since-subscription-start', valueString: String(s.eventCount) });
  for (const e of events) parameter.push(eventPart(s, e, ctx.fhirBase));
  const error = endError(s.endReason);
  if (error !== undefined) parameter.push({ name: 'error', valueCodeableConcept: { coding: [{ system: SUBSCRIPTION_ERROR, code: error.code }], text: error.text } });
  return { resourceType: 'Parameters', id: ctx.newId(), meta: { profile: [STATUS_PROFILE] }, parameter };
}

const REQUESTS = {
  created: { method: 'POST', status: '201' },
  updated: { method: 'PUT', status: '200' },
  deleted: { method: 'DELETE', status: '204' },
} as const;

/** The entry of an event's focus in an `id-only` notification: where it is, and what happened to it, without it. */
function focusEntry(e: SubscriptionEvent, fhirBase: string): Record<string, unknown> {
  const { method, status } = REQUESTS[e.change];
  const type = e.focus.split('/')[0] ?? '';
  return { fullUrl: `${fhirBase}/${e.focus}`, request: { method, url: e.change === 'created' ? type : e.focus }, response: { status } };
}

/** A notification (or `$events`' answer) of `s`: the status Parameters first, then each focus for `id-only`. */
export function notificationBundle(s: StoredSubscription, type: NotificationType, events: readonly SubscriptionEvent[], ctx: BundleContext): Record<string, unknown> {
  const status = statusParameters(s, type, events, ctx);
  const statusUrl = `${ctx.fhirBase}/Subscription/${s.id}/$${type === 'query-event' ? 'events' : 'status'}`;
  const entry: Record<string, unknown>[] = [{
    fullUrl: `urn:uuid:${String(status.id)}`, resource: status, request: { method: 'GET', url: statusUrl }, response: { status: '200' },
  }];
  if (s.channel.payload === 'id-only') for (const e of events) entry.push(focusEntry(e, ctx.fhirBase));
  return { resourceType: 'Bundle', id: ctx.newId(), meta: { profile: [NOTIFICATION_PROFILE] }, type: 'history', timestamp: instant(ctx.nowMs), entry };
}

/** `$status`: a `searchset` of the status Parameters. */
export function statusBundle(s: StoredSubscription, ctx: BundleContext): Record<string, unknown> {
  const status = statusParameters(s, 'query-status', [], ctx);
  return {
    resourceType: 'Bundle', id: ctx.newId(), type: 'searchset', total: 1, timestamp: instant(ctx.nowMs),
    entry: [{ fullUrl: `urn:uuid:${String(status.id)}`, resource: status, search: { mode: 'match' } }],
  };
}
