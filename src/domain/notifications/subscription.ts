/**
 * A subscription as the service keeps it (docs/notifications.md): whose it is (a person, through one
 * app, under one grant of the sign-in), which patient and topic it follows, where and how its
 * notifications go, and how far they have got. The FHIR form (the backport's R4 Subscription) is the
 * FHIR API's; the rules of its life are here and in the use cases beside it.
 */
import type { AccessBasis } from '../access/relationship.js';
import type { ReadName } from '../operations/table.js';
import type { TopicName } from './topics.js';

/** `requested` until the handshake is answered; `active`; `error` (a failed handshake, or deliveries failing past the retry time); `off` (ended). */
export type SubscriptionStatus = 'requested' | 'active' | 'error' | 'off';

/** What a notification carries of each event (`full-resource` is never offered: no record content leaves through a notification). */
export type PayloadContent = 'empty' | 'id-only';

/** Who a subscription is for: the person whose token made it, the app, and the grant of the sign-in it was made under. */
export interface Subscriber {
  /** The token's `iss` and `sub`: who the audit names as having been told. */
  issuer: string;
  subject: string;
  /** The person's identity number. */
  personId: string;
  /** The token's `smart_patient`, when it had one: the launch patient its `patient/` scopes reached. */
  smartPatient?: string;
  /** The app (`client_id`, else `azp`). */
  clientId: string;
  /** The grant of the service's own authorization server the token was issued under; absent for another issuer's token. */
  grantId?: string;
}

/**
 * The right a subscription was made under (docs/notifications.md#checked-at-sending): on what its
 * person's access rested, and for a proxy, the grants that opened it. It is kept while that right is.
 */
export interface MadeUnder {
  basis: AccessBasis;
  /** Only for basis `proxy`: the ids of the grants live when it was made. */
  proxyGrants?: readonly string[];
}

export interface Channel {
  endpoint: string;
  /** `channel.header` lines as given (`Name: value`), already checked. */
  headers: readonly string[];
  payload: PayloadContent;
  heartbeatSeconds?: number;
  timeoutSeconds: number;
  /** The most events one notification carries. */
  maxCount?: number;
}

/** Why a subscription stopped or failed, as `$status` and the Subscription's `error` tell it. */
export type EndReason = 'deleted' | 'ended' | 'right-lost' | 'app-revoked' | 'handshake-failed' | 'delivery-failed';

export interface StoredSubscription {
  /** Opaque and unguessable (128 random bits, hex). */
  id: string;
  subscriber: Subscriber;
  /** The patient followed, by identity number. */
  patient: string;
  /** Absent only on a subscription kept before the service recorded it (notifications schema version 1). */
  madeUnder?: MadeUnder;
  topic: TopicName;
  channel: Channel;
  /** `Subscription.end`: no notification after it. */
  endMs?: number;
  reason?: string;
  status: SubscriptionStatus;
  endReason?: EndReason;
  createdMs: number;
  changedMs: number;
  /** `events-since-subscription-start`: the number of the last event numbered for it. */
  eventCount: number;
  /** The number of the last event its endpoint took (a 2xx); events after it are still to be delivered. */
  deliveredThrough: number;
  /** The last notification of any kind that went out; heartbeats count from it. */
  lastSentMs?: number;
  /** Since when deliveries have failed without a success; absent while they get through. */
  failingSinceMs?: number;
  /** When the next attempt may be made, after a failure. */
  nextAttemptMs?: number;
  /** Failures since the last success (the backoff's step). */
  failures: number;
  /** A feed topic's position in its feed: the last entry it was checked against. */
  feedPosition?: number;
  /** When the service next has work for it (a handshake, events to deliver, a retry, a heartbeat, its end); absent: none until something changes. */
  dueMs?: number;
  /** An end being written by the one caller that claimed it (notification-deps.ts, endSubscription); absent otherwise. */
  ending?: EndingClaim;
}

/**
 * A caller's claim to end a live subscription: it alone writes the end's audit record and then the end,
 * so two instances ending it at once leave one record. Another caller may take it over from `untilMs`,
 * when the one that claimed it stopped on the way. Kept until the end is written: an end begun is
 * finished as it was begun, never dropped, since its record may stand already (a claimer that stopped
 * after writing it, an audit store that timed out on a record it then kept); it is work of its own
 * (lifecycle.ts dueOf), which a turn takes up.
 */
export interface EndingClaim {
  claim: string;
  untilMs: number;
  /** The end it writes, and since when (by the claimer's clock): what a read meanwhile shows. */
  reason: EndReason;
  atMs: number;
  /**
   * Given back, its audit record not written: any caller may try the end again from `untilMs` (the give-back),
   * a turn from this time (UNSERVED_RETRY_MS on). Absent while the claim is held, or after its claimer stopped.
   */
  retryAtMs?: number;
}

/** What happened to the focus of an event. */
export type Change = 'created' | 'updated' | 'deleted';

/** One event numbered for one subscription. */
export interface SubscriptionEvent {
  subscriptionId: string;
  /** 1, 2, 3 … per subscription, without gaps. */
  number: number;
  atMs: number;
  /** `Type/id` of the resource the event is about, as the FHIR API serves it. */
  focus: string;
  change: Change;
  /** The read the focus came from (record topics), for a re-check of `$events`. */
  read?: ReadName;
}

/** An event before it is numbered. */
export type NewEvent = Omit<SubscriptionEvent, 'subscriptionId' | 'number'>;

/** A subscription is live while the service still works for it: it may be told, or is waiting for its handshake. */
export const isLive = (s: Pick<StoredSubscription, 'status'>): boolean => s.status === 'requested' || s.status === 'active';

/**
 * At most this many subscriptions one person may keep through one app for one patient (a 409 beyond),
 * ended ones too until deleted or forgotten: a limit on live ones alone lets an app that ends its own
 * (a failing handshake) grow the store without bound.
 */
export const MAX_PER_PERSON_APP_AND_PATIENT = 10;
