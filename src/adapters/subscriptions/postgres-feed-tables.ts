/**
 * The notifications schema's feeds, cursors and named turns (docs/operations.md#the-notifications-schema):
 * what PostgresSubscriptionStore keeps beside the subscriptions themselves.
 *
 * A turn is a lease row (`turns`), not a session advisory lock: its end is a time on the database's
 * clock, so a holder that crashed, hangs, or sits behind a network that silently drops its packets
 * (whose session the server would keep open until TCP keepalive gives up, hours by default) loses it
 * when the lease runs out; while `work` runs the holder renews it every third of the lease.
 */
import { randomUUID } from 'node:crypto';
import type { FeedName } from '../../domain/notifications/topics.js';
import type { FeedEntry, StoredFeedEntry } from '../../ports/subscription-store.port.js';
import type { NotificationsDb } from './postgres-notifications-db.js';
import { FEED_SELECT, feedEntryOf, LIVE, topicsOfFeed, type FeedRow } from './postgres-subscription-rows.js';

/** How many rows one statement of a prune forgets; a prune repeats it until none is left. */
export const PRUNE_BATCH = 5000;

/** Forgets the rows `pick` (a SELECT of their keys, `$1` the time, `$2` the batch) names, a batch at a time; how many went. */
export async function pruneInBatches(db: NotificationsDb, table: string, keys: string, pick: string, beforeMs: number): Promise<number> {
  let gone = 0;
  for (;;) {
    const { rows } = await db.pool.query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${db.s}.${table} WHERE (${keys}) IN (${pick}) RETURNING 1) SELECT count(*)::int AS n FROM gone`, [new Date(beforeMs), PRUNE_BATCH]);
    const n = rows[0]?.n ?? 0;
    gone += n;
    if (n < PRUNE_BATCH) return gone;
  }
}

export class PostgresFeedTables {
  private readonly feedKey: string;

  constructor(private readonly db: NotificationsDb, private readonly turnLeaseMs: number) {
    this.feedKey = db.key('feed');
  }

  feedFollowers(patients: readonly string[], feed: FeedName): Promise<Set<string>> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<{ patient: string }>(
        `SELECT DISTINCT patient FROM ${this.db.s}.subscriptions WHERE patient = ANY($1::text[]) AND ${LIVE} AND topic = ANY($2::text[])`,
        [[...patients], topicsOfFeed(feed)]);
      return new Set(rows.map((r) => r.patient));
    });
  }

  /** Under a lock every appender takes, so `seq` follows commit order: a reader after seq N never misses one committed later below it. */
  appendFeed(entries: readonly FeedEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.db.guarded('kept', () => this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [this.feedKey]);
      await client.query(`INSERT INTO ${this.db.s}.feed_entries (source_id, feed, patient, focus, at, actor, change)
        SELECT u.source_id, u.feed, u.patient, u.focus, u.at, u.actor, u.change
          FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[])
               WITH ORDINALITY AS u(source_id, feed, patient, focus, at, actor, change, n)
         ORDER BY u.n
        ON CONFLICT (source_id) DO NOTHING`, [
        entries.map((e) => e.sourceId), entries.map((e) => e.feed), entries.map((e) => e.patient), entries.map((e) => e.focus),
        entries.map((e) => new Date(e.atMs)), entries.map((e) => e.actor ?? null), entries.map((e) => (e.change === 'created' ? null : e.change ?? null)),
      ]);
    }));
  }

  feedAfter(patient: string, feed: FeedName, afterSeq: number, limit: number): Promise<StoredFeedEntry[]> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<FeedRow>(
        `SELECT ${FEED_SELECT} FROM ${this.db.s}.feed_entries WHERE patient = $1 AND feed = $2 AND seq > $3 ORDER BY seq LIMIT $4`, [patient, feed, afterSeq, limit]);
      return rows.map(feedEntryOf);
    });
  }

  /** Read under the appenders' lock, so an entry being appended now is before it, never after. */
  feedEnd(): Promise<number> {
    return this.db.guarded('read', () => this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [this.feedKey]);
      const { rows } = await client.query<{ seq: string }>(`SELECT coalesce(max(seq), 0)::text AS seq FROM ${this.db.s}.feed_entries`);
      return Number(rows[0]?.seq ?? 0);
    }));
  }

  pruneFeed(beforeMs: number): Promise<number> {
    return this.db.guarded('pruned', () =>
      pruneInBatches(this.db, 'feed_entries', 'seq', `SELECT seq FROM ${this.db.s}.feed_entries WHERE at < $1 LIMIT $2`, beforeMs));
  }

  cursor(name: string): Promise<string | undefined> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<{ value: string }>(`SELECT value FROM ${this.db.s}.cursors WHERE name = $1`, [name]);
      return rows[0]?.value;
    });
  }

  setCursor(name: string, value: string): Promise<void> {
    return this.db.guarded('kept', async () => {
      await this.db.pool.query(`INSERT INTO ${this.db.s}.cursors (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, [name, value]);
    });
  }

  async inTurn<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
    const owner = randomUUID();
    const lease = this.turnLeaseMs / 1000;
    // Taken when free or when its holder's lease has run out.
    const taken = await this.db.guarded('reached', async () => (await this.db.pool.query(
      `INSERT INTO ${this.db.s}.turns (name, owner, until) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
       ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until WHERE turns.until <= clock_timestamp()`, [name, owner, lease])).rowCount === 1);
    if (!taken) return undefined;
    // Renewed while this holder still has it; a released turn (-infinity) is never taken back.
    const renew = (): void => {
      this.db.pool.query(`UPDATE ${this.db.s}.turns SET until = clock_timestamp() + make_interval(secs => $3)
        WHERE name = $1 AND owner = $2 AND until > '-infinity'`, [name, owner, lease]).catch(() => undefined);
    };
    const renewal = setInterval(renew, Math.max(1, Math.floor(this.turnLeaseMs / 3)));
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      // A release that fails leaves the turn to run out with its lease.
      await this.db.pool.query(`UPDATE ${this.db.s}.turns SET until = '-infinity' WHERE name = $1 AND owner = $2`, [name, owner]).catch(() => undefined);
    }
  }
}
