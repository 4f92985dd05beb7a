/**
 * Where subscriptions, their numbered events, what each subscriber was last shown of a record topic,
 * and the service's own feeds are kept (docs/notifications.md#where-it-is-kept): PostgreSQL shared by
 * every instance, or a file in DATA_DIR. Every change of a subscription is one step across instances
 * (`update`), decided by the domain under the subscription's lock; leases let one instance at a time
 * poll a patient and deliver a subscription's notifications.
 */
import type { RecordView } from '../domain/notifications/record-view.js';
import type { Change, StoredSubscription, SubscriptionEvent } from '../domain/notifications/subscription.js';
import type { FeedName } from '../domain/notifications/topics.js';

/** The views of a record subscription, one per read of its topic. */
export type Views = Readonly<Record<string, RecordView>>;

/** A subscription's new state, whole, with the events numbered since and the views that replace its own. */
export interface SubscriptionChange {
  subscription: StoredSubscription;
  /** Numbered from the old `eventCount` + 1 without a gap; the new state's `eventCount` is the last. */
  events?: readonly SubscriptionEvent[];
  views?: Views;
}

/** One entry of a feed the service keeps: a change about a patient, recorded when it happened. */
export interface FeedEntry {
  feed: FeedName;
  /** The patient it is about (grantor or grantee for a grant's event: one entry each). */
  patient: string;
  /** `Type/id` of what changed: the AuditEvent of an access, the Consent of a grant. */
  focus: string;
  atMs: number;
  /** The identity number of the person who acted, when a person did. */
  actor?: string;
  /** What it came from, once: a second entry with the same `sourceId` is not kept. */
  sourceId: string;
  /**
   * What became of the focus, as a notification tells it: `updated` for a grant accepted, declined or ended
   * (its Consent stays, another status); `created`, when absent, for a new access-log entry or a new grant.
   */
  change?: Change;
}

export interface StoredFeedEntry extends FeedEntry {
  /** The store's order, across feeds. */
  seq: number;
}

export interface SubscriptionStore {
  /** Names the store (`postgresql`, `file`, `memory`) for the start-up log. */
  readonly kind: string;

  /**
   * Keeps a new subscription with its first views (what already exists: never told), unless `admit`,
   * given every subscription kept of the same person, app and patient (ended ones too, until deleted
   * or forgotten), throws: decided and kept as one step, so two at once cannot both pass a limit. Its
   * patient is polled from `firstPollMs` when it follows records.
   */
  create(subscription: StoredSubscription, views: Views, admit: (same: readonly StoredSubscription[]) => void, firstPollMs: number): Promise<void>;
  byId(id: string): Promise<StoredSubscription | undefined>;
  /** The views kept for `id` now, read without waiting for a change of it to end; `{}` when it has none or is gone. */
  views(id: string): Promise<Views>;
  /** Every subscription kept of one person through one app, oldest first. */
  ofSubscriber(personId: string, clientId: string): Promise<StoredSubscription[]>;
  /** The live subscriptions (requested or active) following `patient`, oldest first. */
  liveFor(patient: string): Promise<StoredSubscription[]>;
  /**
   * Runs `decide` on the subscription's current state (and its views, when `withViews`) while no other
   * change of it can run, and keeps what it returns as one step; undefined, nothing kept, when the
   * subscription is gone or `decide` returns undefined. `decide` must not wait on anything.
   */
  update(id: string, decide: (current: StoredSubscription, views: Views) => SubscriptionChange | undefined, withViews?: boolean): Promise<SubscriptionChange | undefined>;
  /** Forgets a subscription, its events and views (a DELETE: then 404). */
  remove(id: string): Promise<void>;
  /** Its events numbered `from` to `to` (inclusive), in order, at most `limit`. */
  events(id: string, from: number, to: number, limit: number): Promise<SubscriptionEvent[]>;
  /** Forgets events older than `beforeMs`; how many went. */
  pruneEvents(beforeMs: number): Promise<number>;
  /** Forgets subscriptions that ended (`off`, `error`) before `beforeMs`, with their events and views; how many went. */
  pruneEnded(beforeMs: number): Promise<number>;
  /** How many subscriptions are kept in each status. */
  countByStatus(): Promise<Record<string, number>>;

  /**
   * Leases subscriptions whose `dueMs` has come to `owner` until `nowMs + leaseMs`, at most `limit`,
   * most overdue first, none of the apps in `skipApps` (those with all they may have served); one leased
   * by another owner is not given until its lease ends. A live one with an end begun (`ending`) and no
   * `dueMs` is due when that claim lapses (`ending.untilMs`): a build before this one could leave it so.
   * Those, rare, come first, oldest first, so that due ones filling the limit never keep them out.
   */
  claimDue(nowMs: number, owner: string, leaseMs: number, limit: number, skipApps?: readonly string[]): Promise<StoredSubscription[]>;
  /** Ends `owner`'s lease of a subscription (its `dueMs` says when it is next due). */
  releaseClaim(id: string, owner: string): Promise<void>;

  /** Leases patients with a live subscription to a record topic whose poll is due, most overdue first. */
  claimPolls(nowMs: number, owner: string, leaseMs: number, limit: number): Promise<{ patient: string; dueMs: number }[]>;
  /** Ends `owner`'s lease of a patient's poll and says when it is next due. */
  releasePoll(patient: string, owner: string, nextDueMs: number): Promise<void>;
  /** Brings a patient's next poll forward to `atMs` (a write changed their records), if they are polled at all. */
  pollSoon(patient: string, atMs: number): Promise<void>;
  /** The earliest due time of a poll not yet made at `nowMs` (the lag is `nowMs` less it); undefined when none is due. */
  oldestDuePoll(nowMs: number): Promise<number | undefined>;

  /** Those of `patients` who are followed by a live subscription of a topic of `feed`. */
  feedFollowers(patients: readonly string[], feed: FeedName): Promise<Set<string>>;
  /** Keeps feed entries, each once by its `sourceId`, in the order given. */
  appendFeed(entries: readonly FeedEntry[]): Promise<void>;
  /** A patient's entries of one feed after `afterSeq`, in order, at most `limit`. */
  feedAfter(patient: string, feed: FeedName, afterSeq: number, limit: number): Promise<StoredFeedEntry[]>;
  /** The last `seq` kept (0 when none): a new feed subscription starts after it. */
  feedEnd(): Promise<number>;
  /** Forgets feed entries older than `beforeMs`. */
  pruneFeed(beforeMs: number): Promise<number>;

  /** A named position of the service's own (how far a feed's source was read), opaque to the store. */
  cursor(name: string): Promise<string | undefined>;
  setCursor(name: string, value: string): Promise<void>;
  /**
   * Runs `work` while no other instance runs work under the same name (following a feed's source, so
   * each entry is read once); undefined, without running it, when another instance holds the turn.
   */
  inTurn<T>(name: string, work: () => Promise<T>): Promise<T | undefined>;

  close(): Promise<void>;
}

/** The store cannot be read or written right now: a request gets 503; the workers try again. */
export class SubscriptionStoreUnavailableError extends Error {
  override name = 'SubscriptionStoreUnavailableError';
}
