/**
 * A person's subscriptions through one app (docs/notifications.md#subscribing): made only for a patient
 * they may read the topic of now (else refused as any delegation is, and nothing is kept), with what
 * exists then as the baseline never told; seen, listed, ended and asked after (`$status`, `$events`)
 * by the same person through the same app only: anyone else's is not found, as one that does not exist.
 */
import { DomainError } from '../errors.js';
import { accessDenied } from '../access/patient-access.js';
import { claimHeld, dueOf, ended } from './lifecycle.js';
import { endSubscription, type NotificationDeps } from './notification-deps.js';
import { madeUnderOf, type Right } from './right-to-read.js';
import type { RecordView } from './record-view.js';
import { fetchReads, seenRecords, stillTold } from './seen-records.js';
import {
  isLive, MAX_PER_PERSON_APP_AND_PATIENT, type Channel, type EndReason, type StoredSubscription, type Subscriber, type SubscriptionEvent,
} from './subscription.js';
import { feedOfTopic, type TopicName } from './topics.js';

/** A subscription as asked for, its FHIR form already read and its endpoint and headers already checked. */
export interface SubscriptionRequest {
  topic: TopicName;
  /** The patient of the filter, by identity number. */
  patient: string;
  channel: Channel;
  endMs?: number;
  reason?: string;
}

export interface ManageSettings {
  /** The topics offered (`proxy` only while sharing is on). */
  topics: ReadonlySet<TopicName>;
  /** SUBSCRIPTION_POLL_SECONDS in milliseconds: a new record subscription's patient is first polled this long after it is made. */
  pollMs: number;
  /** A new id per subscription: 128 random bits, hex. */
  newSubscriptionId: () => string;
}

/** `$events` answers at most this many events a call. */
export const MAX_EVENTS_PER_CALL = 100;

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'No subscription of yours through this app has this id: GET /fhir/Subscription lists yours.');

export class ManageSubscriptions {
  /** Endings under way by `current`, by subscription id: reads at once end one once, with one record. */
  private readonly ending = new Map<string, Promise<void>>();

  constructor(private readonly deps: NotificationDeps, private readonly settings: ManageSettings) {}

  /**
   * Makes a subscription. `beforeChange` runs once everything is decided and before anything is kept
   * (the attempt's audit record). Refused with ACCESS_DENIED when its person may not be told of this
   * topic of this patient now, CONFLICT past the limit of one person's subscriptions through the app for the patient.
   */
  async create(subscriber: Subscriber, asked: SubscriptionRequest, beforeChange: () => Promise<void>): Promise<StoredSubscription> {
    const { store, clock, right } = this.deps;
    if (!this.settings.topics.has(asked.topic)) throw new DomainError('INVALID_REQUEST', `The topic ${asked.topic} is not offered here: GET /fhir/metadata lists the topics.`);
    const nowMs = clock.now();
    const draft: StoredSubscription = {
      id: this.settings.newSubscriptionId(), subscriber, patient: asked.patient, topic: asked.topic, channel: asked.channel,
      ...(asked.endMs === undefined ? {} : { endMs: asked.endMs }), ...(asked.reason === undefined ? {} : { reason: asked.reason }),
      status: 'requested', createdMs: nowMs, changedMs: nowMs, eventCount: 0, deliveredThrough: 0, failures: 0,
    };
    const decided = await right.checkNew(draft);
    if (decided.kind === 'lost') throw accessDenied();
    draft.madeUnder = madeUnderOf(decided.access);
    const views: Record<string, RecordView> = {};
    if (feedOfTopic(asked.topic) === undefined) {
      const seen = seenRecords(this.deps, draft, decided, await fetchReads(decided));
      if (seen === undefined) throw accessDenied();
      for (const [read, { view }] of seen) views[read] = view;
    } else {
      draft.feedPosition = await store.feedEnd();
    }
    const subscription = { ...draft, dueMs: dueOf(draft, nowMs) ?? nowMs };
    await beforeChange();
    await store.create(subscription, views, (same) => {
      if (same.length >= MAX_PER_PERSON_APP_AND_PATIENT) {
        throw new DomainError('CONFLICT', `You can keep at most ${MAX_PER_PERSON_APP_AND_PATIENT} subscriptions for one patient through one app, ended ones included: delete one first (GET /fhir/Subscription lists them; DELETE /fhir/Subscription/<id>).`);
      }
    }, nowMs + this.settings.pollMs);
    return subscription;
  }

  /** The subscriber's own subscription; NOT_FOUND for any other. */
  async get(subscriber: Subscriber, id: string): Promise<StoredSubscription> {
    const s = await this.deps.store.byId(id);
    if (s === undefined || s.subscriber.personId !== subscriber.personId || s.subscriber.clientId !== subscriber.clientId) throw notFound();
    return s;
  }

  /**
   * `s`, the subscriber's own, as it stands now: a live one past its `end`, or whose person has lost
   * the right, is ended here, audited as its turn would end it, so its read and `$status` never say `active` for one that
   * tells nothing more. Where the right cannot be decided now (the EHR does not answer), it is as last
   * kept, and the next poll decides.
   */
  async current(s: StoredSubscription): Promise<StoredSubscription> {
    if (!isLive(s)) return s;
    const underWay = this.ending.get(s.id);
    if (underWay !== undefined) await underWay;
    else {
      // Another instance is writing its end: shown so whatever the EHR could say now (hostile review helper-120, F3).
      const held = this.heldEnd(s);
      if (held !== undefined) return held;
      const reason = await this.endReasonNow(s);
      if (reason === undefined) return s;
      await this.endOnce(s, reason);
    }
    const now = await this.deps.store.byId(s.id);
    return (now === undefined ? undefined : this.heldEnd(now)) ?? now ?? s;
  }

  /** Ends `s` for `reason` once in this process however many reads ask at once: they all wait for the one end. */
  private endOnce(s: StoredSubscription, reason: EndReason): Promise<void> {
    let ending = this.ending.get(s.id);
    if (ending === undefined) {
      ending = endSubscription(this.deps, s, reason).finally(() => this.ending.delete(s.id));
      this.ending.set(s.id, ending);
    }
    return ending;
  }

  /** Live `s` as the end another caller claimed and is writing will keep it; undefined while no claim is held. */
  private heldEnd(s: StoredSubscription): StoredSubscription | undefined {
    return isLive(s) && s.ending !== undefined && claimHeld(s.ending, this.deps.clock.now()) ? ended(s, s.ending.reason, s.ending.atMs) : undefined;
  }

  /**
   * Why live `s` ends now: an end begun and not finished (finished as it was begun, endSubscription), past its
   * `end`, or its right lost; undefined while it holds, or cannot be decided now.
   */
  private async endReasonNow(s: StoredSubscription): Promise<EndReason | undefined> {
    if (s.ending !== undefined) return s.ending.reason;
    if (s.endMs !== undefined && s.endMs <= this.deps.clock.now()) return 'ended';
    let right: Right;
    try {
      right = await this.deps.right.check(s);
    } catch {
      return undefined;
    }
    return right.kind === 'lost' ? right.reason : undefined;
  }

  /** Every subscription the person keeps through this app, oldest first. */
  list(subscriber: Subscriber): Promise<StoredSubscription[]> {
    return this.deps.store.ofSubscriber(subscriber.personId, subscriber.clientId);
  }

  /** Ends and forgets the subscriber's own subscription; `beforeChange` runs with it first (its audit). */
  async remove(subscriber: Subscriber, id: string, beforeChange: (s: StoredSubscription) => Promise<void>): Promise<StoredSubscription> {
    const s = await this.get(subscriber, id);
    await beforeChange(s);
    await this.deps.store.remove(id);
    return s;
  }

  /**
   * The kept events of `subscription` (the subscriber's own, as `current` gives it: so it never says
   * `active` where the read and `$status` would not) numbered `since` to `until` (inclusive, at most
   * MAX_EVENTS_PER_CALL), re-checked as at sending: none when its person may no longer be told; of a
   * record topic, only those whose focus they may still see (a deleted one while it is still gone).
   */
  async events(subscription: StoredSubscription, since: number, until: number): Promise<{ subscription: StoredSubscription; events: SubscriptionEvent[] }> {
    const id = subscription.id;
    const last = Math.min(until, subscription.eventCount, since + MAX_EVENTS_PER_CALL - 1);
    const kept = since > last ? [] : await this.deps.store.events(id, since, last, MAX_EVENTS_PER_CALL);
    const right = await this.deps.right.check(subscription);
    if (right.kind === 'lost' || kept.length === 0) return { subscription, events: [] };
    return { subscription, events: await stillTold(this.deps, subscription, right, kept) };
  }
}
