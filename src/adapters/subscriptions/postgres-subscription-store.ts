/**
 * Subscriptions in PostgreSQL (docs/operations.md#the-notifications-schema), shared by every instance.
 * A creation is decided under a transaction lock on its patient, so two instances creating at once
 * cannot both pass the app's limit; a change is decided under the subscription's row lock and kept
 * with its events and views in one transaction; delivery and polling work is leased with
 * `FOR UPDATE SKIP LOCKED`, so two instances never lease one subscription or patient. A patient is
 * polled while a live subscription follows their records: the poll target is made and dropped under
 * the same patient lock as the subscriptions it follows.
 */
import { isLive, type StoredSubscription, type SubscriptionEvent } from '../../domain/notifications/subscription.js';
import type { FeedName } from '../../domain/notifications/topics.js';
import type { FeedEntry, StoredFeedEntry, SubscriptionChange, SubscriptionStore, Views } from '../../ports/subscription-store.port.js';
import type pg from 'pg';
import { PostgresFeedTables, pruneInBatches } from './postgres-feed-tables.js';
import { decided, NotificationsDb, type NotificationsDbOptions } from './postgres-notifications-db.js';
import { PostgresSubscriptionWork } from './postgres-subscription-work.js';
import {
  EVENT_SELECT, eventColumns, eventOf, LIVE, RECORD_TOPICS, SUBSCRIPTION_ID_PARAM, SUBSCRIPTION_PLACEHOLDERS, SUBSCRIPTION_SELECT,
  SUBSCRIPTION_SETS, subscriptionOf, subscriptionValues, type EventRow, type SubscriptionRow,
} from './postgres-subscription-rows.js';
import { checkNumbering } from './subscription-table.js';

export interface PostgresSubscriptionStoreOptions extends NotificationsDbOptions {
  /** How long a named turn (`inTurn`) is held without renewal: a crashed holder's ends this long after its last renewal. Default 30 s. */
  turnLeaseMs?: number;
}

/**
 * The most subscriptions one answer of `liveFor` or `ofSubscriber` holds: an app keeps at most 10 per
 * patient (MAX_PER_PERSON_APP_AND_PATIENT), so this is a hundred apps' worth; it bounds the statement, not a rule.
 */
export const MAX_LISTED = 1000;

const isRecordTopic = (s: StoredSubscription): boolean => RECORD_TOPICS.includes(s.topic);

export class PostgresSubscriptionStore extends PostgresSubscriptionWork implements SubscriptionStore {
  readonly kind = 'postgresql';
  private readonly feeds: PostgresFeedTables;

  private constructor(db: NotificationsDb, turnLeaseMs: number) {
    super(db);
    this.feeds = new PostgresFeedTables(db, turnLeaseMs);
  }

  /** The store over its own pool; the schema is migrated now when the database answers, else on first use (the service starts either way). */
  static async open(options: PostgresSubscriptionStoreOptions): Promise<PostgresSubscriptionStore> {
    const store = new PostgresSubscriptionStore(new NotificationsDb(options, { applicationName: 'patient-data-access-notifications' }), options.turnLeaseMs ?? 30_000);
    await store.db.ready().catch(() => undefined);
    return store;
  }

  /** Serialises, across instances, what decides on all of a patient's subscriptions: the app's limit and whether the patient is polled. */
  private async lockPatient(client: pg.PoolClient, patient: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [this.db.key('patient', patient)]);
  }

  /** Stops polling `patient` when no live subscription follows their records any more (inside the transaction that ended one). */
  private async unpollIfUnfollowed(client: pg.PoolClient, patient: string): Promise<void> {
    await this.lockPatient(client, patient);
    await client.query(`DELETE FROM ${this.db.s}.poll_targets WHERE patient = $1
      AND NOT EXISTS (SELECT 1 FROM ${this.db.s}.subscriptions WHERE patient = $1 AND ${LIVE} AND topic = ANY($2::text[]))`, [patient, RECORD_TOPICS]);
  }

  create(s: StoredSubscription, views: Views, admit: (same: readonly StoredSubscription[]) => void, firstPollMs: number): Promise<void> {
    return this.db.guarded('kept', () => this.db.transaction(async (client) => {
      await this.lockPatient(client, s.patient);
      const { rows } = await client.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_SELECT} FROM ${this.db.s}.subscriptions
        WHERE patient = $1 AND client_id = $2 AND person_id = $3 ORDER BY created, id LIMIT $4`, [s.patient, s.subscriber.clientId, s.subscriber.personId, MAX_LISTED]);
      decided(() => admit(rows.map(subscriptionOf)));
      await client.query(`INSERT INTO ${this.db.s}.subscriptions (${SUBSCRIPTION_SELECT}) VALUES (${SUBSCRIPTION_PLACEHOLDERS})`, subscriptionValues(s));
      await this.keepViews(client, s.id, views, new Map());
      if (isLive(s) && isRecordTopic(s)) {
        await client.query(`INSERT INTO ${this.db.s}.poll_targets (patient, due) VALUES ($1, $2) ON CONFLICT (patient) DO NOTHING`, [s.patient, new Date(firstPollMs)]);
      }
    }));
  }

  byId(id: string): Promise<StoredSubscription | undefined> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_SELECT} FROM ${this.db.s}.subscriptions WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : subscriptionOf(rows[0]);
    });
  }

  views(id: string): Promise<Views> {
    return this.db.guarded('read', async () => viewsOf(await this.viewTexts(this.db.pool, id)));
  }

  ofSubscriber(personId: string, clientId: string): Promise<StoredSubscription[]> {
    return this.listed(`person_id = $1 AND client_id = $2`, [personId, clientId]);
  }

  liveFor(patient: string): Promise<StoredSubscription[]> {
    return this.listed(`patient = $1 AND ${LIVE}`, [patient]);
  }

  private listed(where: string, values: unknown[]): Promise<StoredSubscription[]> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<SubscriptionRow>(
        `SELECT ${SUBSCRIPTION_SELECT} FROM ${this.db.s}.subscriptions WHERE ${where} ORDER BY created, id LIMIT ${MAX_LISTED}`, values);
      return rows.map(subscriptionOf);
    });
  }

  update(id: string, decide: (current: StoredSubscription, views: Views) => SubscriptionChange | undefined, withViews = false): Promise<SubscriptionChange | undefined> {
    return this.db.guarded('changed', () => this.db.transaction(async (client) => {
      const { rows } = await client.query<SubscriptionRow>(`SELECT ${SUBSCRIPTION_SELECT} FROM ${this.db.s}.subscriptions WHERE id = $1 FOR UPDATE`, [id]);
      if (rows[0] === undefined) return undefined;
      const before = subscriptionOf(rows[0]);
      const kept = withViews ? await this.viewTexts(client, id) : undefined;
      const views = viewsOf(kept ?? new Map());
      const change = decided(() => {
        const made = decide(before, views);
        if (made !== undefined) checkNumbering(before, made);
        return made;
      });
      if (change === undefined) return undefined;
      await client.query(`UPDATE ${this.db.s}.subscriptions SET ${SUBSCRIPTION_SETS} WHERE id = ${SUBSCRIPTION_ID_PARAM}`, subscriptionValues(change.subscription));
      if (change.events !== undefined && change.events.length > 0) {
        await client.query(`INSERT INTO ${this.db.s}.subscription_events (${EVENT_SELECT})
          SELECT * FROM unnest($1::text[], $2::integer[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])`, eventColumns(change.events));
      }
      if (change.views !== undefined) await this.keepViews(client, id, change.views, kept);
      if (isLive(before) && !isLive(change.subscription) && isRecordTopic(before)) await this.unpollIfUnfollowed(client, before.patient);
      return change;
    }));
  }

  /** The views kept for `id`, each read's as the JSON text stored. */
  private async viewTexts(client: pg.Pool | pg.PoolClient, id: string): Promise<Map<string, string>> {
    const { rows } = await client.query<{ read: string; view: string }>(`SELECT read, view::text AS view FROM ${this.db.s}.subscription_views WHERE subscription_id = $1`, [id]);
    return new Map(rows.map((r) => [r.read, r.view]));
  }

  /** Replaces the views of `id` with `views`; a read whose view is as `kept` holds it is not written again. */
  private async keepViews(client: pg.PoolClient, id: string, views: Views, kept: ReadonlyMap<string, string> | undefined): Promise<void> {
    const reads = Object.keys(views);
    if (kept === undefined || [...kept.keys()].some((read) => !Object.hasOwn(views, read))) {
      await client.query(`DELETE FROM ${this.db.s}.subscription_views WHERE subscription_id = $1 AND NOT (read = ANY($2::text[]))`, [id, reads]);
    }
    const changed = reads.map((read) => [read, JSON.stringify(views[read])] as const).filter(([read, text]) => kept?.get(read) !== text);
    if (changed.length === 0) return;
    await client.query(`INSERT INTO ${this.db.s}.subscription_views (subscription_id, read, view)
      SELECT $1, u.read, u.view::json FROM unnest($2::text[], $3::text[]) AS u(read, view)
      ON CONFLICT (subscription_id, read) DO UPDATE SET view = EXCLUDED.view`, [id, changed.map(([read]) => read), changed.map(([, text]) => text)]);
  }

  remove(id: string): Promise<void> {
    return this.db.guarded('removed', () => this.db.transaction(async (client) => {
      // Its events and views go with it (ON DELETE CASCADE).
      const { rows } = await client.query<SubscriptionRow>(`DELETE FROM ${this.db.s}.subscriptions WHERE id = $1 RETURNING ${SUBSCRIPTION_SELECT}`, [id]);
      const gone = rows[0] === undefined ? undefined : subscriptionOf(rows[0]);
      if (gone !== undefined && isLive(gone) && isRecordTopic(gone)) await this.unpollIfUnfollowed(client, gone.patient);
    }));
  }

  events(id: string, from: number, to: number, limit: number): Promise<SubscriptionEvent[]> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<EventRow>(`SELECT ${EVENT_SELECT} FROM ${this.db.s}.subscription_events
        WHERE subscription_id = $1 AND number BETWEEN $2 AND $3 ORDER BY number LIMIT $4`, [id, from, to, limit]);
      return rows.map(eventOf);
    });
  }

  pruneEvents(beforeMs: number): Promise<number> {
    return this.db.guarded('pruned', () => pruneInBatches(this.db, 'subscription_events', 'subscription_id, number',
      `SELECT subscription_id, number FROM ${this.db.s}.subscription_events WHERE at < $1 LIMIT $2`, beforeMs));
  }

  /** Ended ones are no longer polled: nothing to take out of the poll targets. */
  pruneEnded(beforeMs: number): Promise<number> {
    return this.db.guarded('pruned', async () => {
      const { rowCount } = await this.db.pool.query(`DELETE FROM ${this.db.s}.subscriptions WHERE status IN ('off', 'error') AND changed < $1`, [new Date(beforeMs)]);
      return rowCount ?? 0;
    });
  }

  countByStatus(): Promise<Record<string, number>> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM ${this.db.s}.subscriptions GROUP BY status`);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    });
  }

  feedFollowers(patients: readonly string[], feed: FeedName): Promise<Set<string>> {
    return this.feeds.feedFollowers(patients, feed);
  }

  appendFeed(entries: readonly FeedEntry[]): Promise<void> {
    return this.feeds.appendFeed(entries);
  }

  feedAfter(patient: string, feed: FeedName, afterSeq: number, limit: number): Promise<StoredFeedEntry[]> {
    return this.feeds.feedAfter(patient, feed, afterSeq, limit);
  }

  feedEnd(): Promise<number> {
    return this.feeds.feedEnd();
  }

  pruneFeed(beforeMs: number): Promise<number> {
    return this.feeds.pruneFeed(beforeMs);
  }

  cursor(name: string): Promise<string | undefined> {
    return this.feeds.cursor(name);
  }

  setCursor(name: string, value: string): Promise<void> {
    return this.feeds.setCursor(name, value);
  }

  inTurn<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
    return this.feeds.inTurn(name, work);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

const viewsOf = (texts: ReadonlyMap<string, string>): Views => Object.fromEntries([...texts].map(([read, text]) => [read, JSON.parse(text) as Views[string]]));
