/**
 * The notifications' rows as PostgreSQL answers them, and the port's objects they are. A subscription's
 * members each have one column, named once in SUBSCRIPTION_COLUMNS (the compiler refuses a member of
 * StoredSubscription without one), and the statements and both directions of the mapping are derived
 * from it: an absent member is NULL and comes back absent, an instant is a `timestamptz` to the
 * millisecond, the channel is JSON as given.
 */
import type { Change, StoredSubscription, Subscriber, SubscriptionEvent } from '../../domain/notifications/subscription.js';
import { feedOfTopic, readsOfTopic, TOPIC_NAMES, type FeedName, type TopicName } from '../../domain/notifications/topics.js';
import type { StoredFeedEntry } from '../../ports/subscription-store.port.js';

type Kind = 'text' | 'integer' | 'bigint' | 'instant' | 'json';
type Column = readonly [name: string, kind: Kind];

const SUBSCRIBER_COLUMNS = {
  issuer: ['issuer', 'text'], subject: ['subject', 'text'], personId: ['person_id', 'text'], smartPatient: ['smart_patient', 'text'],
  clientId: ['client_id', 'text'], grantId: ['grant_id', 'text'],
} as const satisfies Record<keyof Subscriber, Column>;

const SUBSCRIPTION_COLUMNS = {
  id: ['id', 'text'], patient: ['patient', 'text'], madeUnder: ['made_under', 'json'], topic: ['topic', 'text'], channel: ['channel', 'json'], endMs: ['end_at', 'instant'],
  reason: ['reason', 'text'], status: ['status', 'text'], endReason: ['end_reason', 'text'], createdMs: ['created', 'instant'],
  changedMs: ['changed', 'instant'], eventCount: ['event_count', 'integer'], deliveredThrough: ['delivered_through', 'integer'],
  lastSentMs: ['last_sent', 'instant'], failingSinceMs: ['failing_since', 'instant'], nextAttemptMs: ['next_attempt', 'instant'],
  failures: ['failures', 'integer'], feedPosition: ['feed_position', 'bigint'], dueMs: ['due', 'instant'], ending: ['ending', 'json'],
} as const satisfies Record<Exclude<keyof StoredSubscription, 'subscriber'>, Column>;

const SUBSCRIBER_ENTRIES = Object.entries(SUBSCRIBER_COLUMNS) as [keyof Subscriber, Column][];
const SUBSCRIPTION_ENTRIES = Object.entries(SUBSCRIPTION_COLUMNS) as [Exclude<keyof StoredSubscription, 'subscriber'>, Column][];
const COLUMN_NAMES = [...SUBSCRIBER_ENTRIES, ...SUBSCRIPTION_ENTRIES].map(([, [name]]) => name);

/** Every column of a subscription, in the order `subscriptionValues` gives them. */
export const SUBSCRIPTION_SELECT = COLUMN_NAMES.join(', ');
/** `$1 … $n` for an INSERT of `subscriptionValues`. */
export const SUBSCRIPTION_PLACEHOLDERS = COLUMN_NAMES.map((_, i) => `$${i + 1}`).join(', ');
/** `col = $n` for each column but the id (at SUBSCRIPTION_ID_PARAM), for an UPDATE of `subscriptionValues`. */
export const SUBSCRIPTION_SETS = COLUMN_NAMES.flatMap((name, i) => (name === 'id' ? [] : [`${name} = $${i + 1}`])).join(', ');
export const SUBSCRIPTION_ID_PARAM = `$${COLUMN_NAMES.indexOf('id') + 1}`;

export type SubscriptionRow = Record<string, unknown>;

function toSql(kind: Kind, value: unknown): unknown {
  if (value === undefined) return null;
  if (kind === 'instant') return new Date(value as number);
  if (kind === 'json') return JSON.stringify(value);
  return value;
}

function fromSql(kind: Kind, value: unknown): unknown {
  if (kind === 'instant') return (value as Date).getTime();
  // bigint comes back as text, to be exact; a feed's position stays far below 2^53.
  if (kind === 'bigint') return Number(value);
  return value;
}

function read<K extends string>(row: SubscriptionRow, entries: readonly [K, Column][]): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const [key, [name, kind]] of entries) {
    const value = row[name];
    if (value !== null && value !== undefined) out[key] = fromSql(kind, value);
  }
  return out;
}

/** A row as the port's subscription: absent members absent, instants in milliseconds. */
export function subscriptionOf(row: SubscriptionRow): StoredSubscription {
  return { ...read(row, SUBSCRIPTION_ENTRIES), subscriber: read(row, SUBSCRIBER_ENTRIES) } as StoredSubscription;
}

/** The values of every column of `s`, in SUBSCRIPTION_SELECT's order. */
export function subscriptionValues(s: StoredSubscription): unknown[] {
  const subscriber = s.subscriber as unknown as Record<string, unknown>;
  const own = s as unknown as Record<string, unknown>;
  return [
    ...SUBSCRIBER_ENTRIES.map(([key, [, kind]]) => toSql(kind, subscriber[key])),
    ...SUBSCRIPTION_ENTRIES.map(([key, [, kind]]) => toSql(kind, own[key])),
  ];
}

/** Live as isLive (src/domain/notifications/subscription.ts) says, for a WHERE clause: the partial index subscriptions_live_patient has the same predicate. */
export const LIVE = `status IN ('requested', 'active')`;

/** The topics whose changes are found by polling records, for `topic = ANY($n)`. */
export const RECORD_TOPICS: readonly TopicName[] = TOPIC_NAMES.filter((t) => readsOfTopic(t).length > 0);
/** The topics following one of the service's feeds. */
export const topicsOfFeed = (feed: FeedName): TopicName[] => TOPIC_NAMES.filter((t) => feedOfTopic(t) === feed);

export const EVENT_SELECT = 'subscription_id, number, at, focus, change, read';

export interface EventRow {
  subscription_id: string;
  number: number;
  at: Date;
  focus: string;
  change: SubscriptionEvent['change'];
  read: SubscriptionEvent['read'] | null;
}

export function eventOf(row: EventRow): SubscriptionEvent {
  return {
    subscriptionId: row.subscription_id, number: row.number, atMs: row.at.getTime(), focus: row.focus, change: row.change,
    ...(row.read === null ? {} : { read: row.read }),
  };
}

/** The events as the columns of one `unnest` INSERT (one statement for a change's events, however many). */
export function eventColumns(events: readonly SubscriptionEvent[]): unknown[] {
  return [events.map((e) => e.subscriptionId), events.map((e) => e.number), events.map((e) => new Date(e.atMs)),
    events.map((e) => e.focus), events.map((e) => e.change), events.map((e) => e.read ?? null)];
}

export const FEED_SELECT = 'seq, source_id, feed, patient, focus, at, actor, change';

export interface FeedRow {
  /** bigint: node-postgres answers it as text. */
  seq: string;
  source_id: string;
  feed: FeedName;
  patient: string;
  focus: string;
  at: Date;
  actor: string | null;
  /** NULL for `created`, and on every entry an instance before schema version 6 kept. */
  change: Change | null;
}

export function feedEntryOf(row: FeedRow): StoredFeedEntry {
  return {
    seq: Number(row.seq), feed: row.feed, patient: row.patient, focus: row.focus, atMs: row.at.getTime(),
    ...(row.actor === null ? {} : { actor: row.actor }), sourceId: row.source_id, ...(row.change === null ? {} : { change: row.change }),
  };
}
