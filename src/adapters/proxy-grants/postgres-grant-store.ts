/**
 * Proxy grants in PostgreSQL (docs/contract.md §11 "Kept"), shared by every instance: a grant is
 * decided and kept in one transaction under a lock on its grantor, a change is a compare-and-set on
 * the state it expects, and each keeps its event in the same transaction, numbered in commit order.
 */
import type pg from 'pg';
import { auditPool } from '../audit-postgres/audit-pool.js';
import type { GrantChange, GrantEvent, ProxyGrantStore, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';
import { ProxyGrantsUnavailableError } from '../../ports/proxy-grants.port.js';
import { describePgError, pooledTransaction } from '../audit-postgres/bounded-client.js';
import { advisoryKey, quotedSchema } from '../audit-postgres/sql-names.js';
import { eventOf, GRANT_COLUMNS, grantOf, type EventRow, type GrantRow } from './postgres-grant-rows.js';
import { migrateProxyGrants, PROXY_GRANTS_SCHEMA } from './postgres-grant-schema.js';

export interface PostgresGrantStoreOptions {
  connectionString: string;
  schema?: string;
  poolMax?: number;
  connectTimeoutMs?: number;
}

/** A lock of one purpose in one schema (and one grantor): instances sharing a schema contend, tests on others do not. */
const lockKey = (schema: string, purpose: string): string => advisoryKey('proxy-grants', schema, purpose);

/**
 * The audit trail's bounded pool (connecting, each statement, a lock and an abandoned transaction all
 * bounded), since a delegated request waits on `activeReceivedBy` as a request waits on its audit record.
 */
const grantPool = (options: PostgresGrantStoreOptions): pg.Pool => auditPool({ ...options, applicationName: 'patient-data-access-proxy-grants' });

export class PostgresGrantStore implements ProxyGrantStore {
  readonly kind = 'postgresql';
  private readonly s: string;
  private readonly turnKey: string;
  /** The prepared statement of the hot path, named for its schema: one name never stands for two texts on a connection. */
  private readonly activeStatement: string;
  private migrated: Promise<void> | undefined;

  private constructor(private readonly pool: pg.Pool, private readonly schema: string) {
    this.s = quotedSchema(schema);
    this.turnKey = lockKey(schema, 'turn');
    this.activeStatement = `proxy-active-${lockKey(schema, 'active')}`;
  }

  /** The store over its own pool; the schema is migrated now when the database answers, else on first use (the service starts either way). */
  static async open(options: PostgresGrantStoreOptions): Promise<PostgresGrantStore> {
    const store = new PostgresGrantStore(grantPool(options), options.schema ?? PROXY_GRANTS_SCHEMA);
    await store.ready().catch(() => undefined);
    return store;
  }

  /** Migrates once; a failure is forgotten, so the next use tries again. */
  ready(): Promise<void> {
    this.migrated ??= migrateProxyGrants(this.pool, this.schema).then(() => undefined, (err: unknown) => {
      this.migrated = undefined;
      throw err;
    });
    return this.migrated;
  }

  /** `work` with the schema ready; a database failure becomes ProxyGrantsUnavailableError, a decision (admit's refusal) passes as it is. */
  private async guarded<T>(what: string, work: () => Promise<T>, decision?: (err: unknown) => boolean): Promise<T> {
    try {
      await this.ready();
      return await work();
    } catch (err) {
      if (decision?.(err) === true || err instanceof ProxyGrantsUnavailableError) throw err;
      throw new ProxyGrantsUnavailableError(`the proxy grants cannot be ${what} (${describePgError(err)})`, { cause: err });
    }
  }

  /** `work` in one transaction on one connection; a failed connection is dropped, not reused (a refusal of admit leaves it sound). */
  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return pooledTransaction(this.pool, work, (err) => err instanceof AdmitRefusal);
  }

  /** Keeps an event; the lock makes sequence numbers follow commit order, so a reader after seq N never misses one committed later below it. */
  private async keep(client: pg.PoolClient, event: GrantEvent): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(this.schema, 'events')]);
    await client.query(`INSERT INTO ${this.s}.grant_events (grant_id, kind, at, by, grantor, grantee) VALUES ($1, $2, $3, $4, $5, $6)`,
      [event.grantId, event.kind, new Date(event.atMs), event.by, event.grantor, event.grantee]);
  }

  create(grant: StoredGrant, admit: (given: readonly StoredGrant[]) => void): Promise<void> {
    return this.guarded('kept', () => this.transaction(async (client) => {
      // Two instances granting for one grantor at once take turns here, so both cannot pass a limit.
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(this.schema, `grantor:${grant.grantor}`)]);
      const { rows } = await client.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM ${this.s}.grants WHERE grantor = $1 ORDER BY created, id`, [grant.grantor]);
      try {
        admit(rows.map(grantOf));
      } catch (err) {
        throw new AdmitRefusal(err);
      }
      await client.query(`INSERT INTO ${this.s}.grants (id, state, grantor, grantor_name, grantee, grantee_name, categories, valid_from, valid_to, purpose, created, changed, ended_by)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
        grant.id, grant.state, grant.grantor, grant.grantorName ?? null, grant.grantee, grant.granteeName ?? null, [...grant.categories],
        new Date(grant.validFromMs), grant.validToMs === undefined ? null : new Date(grant.validToMs), grant.purpose ?? null,
        new Date(grant.createdMs), new Date(grant.changedMs), grant.endedBy ?? null,
      ]);
      await this.keep(client, { grantId: grant.id, kind: 'granted', atMs: grant.createdMs, by: 'grantor', grantor: grant.grantor, grantee: grant.grantee });
    }), (err) => err instanceof AdmitRefusal).catch((err: unknown) => {
      throw err instanceof AdmitRefusal ? err.refusal : err;
    });
  }

  byId(id: string): Promise<StoredGrant | undefined> {
    return this.guarded('read', async () => {
      const { rows } = await this.pool.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM ${this.s}.grants WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : grantOf(rows[0]);
    });
  }

  involving(personId: string): Promise<StoredGrant[]> {
    return this.guarded('read', async () => {
      const { rows } = await this.pool.query<GrantRow>(
        `SELECT ${GRANT_COLUMNS} FROM ${this.s}.grants WHERE grantor = $1 OR grantee = $1 ORDER BY created, id`, [personId]);
      return rows.map(grantOf);
    });
  }

  /** On every delegated request: one indexed query (grants_active_grantee), prepared once per connection. */
  activeReceivedBy(granteeId: string): Promise<StoredGrant[]> {
    return this.guarded('read', async () => {
      const { rows } = await this.pool.query<GrantRow>({
        name: this.activeStatement, values: [granteeId],
        text: `SELECT ${GRANT_COLUMNS} FROM ${this.s}.grants WHERE grantee = $1 AND state = 'active' ORDER BY created, id`,
      });
      return rows.map(grantOf);
    });
  }

  change(id: string, from: readonly StoredState[], change: GrantChange, event: GrantEvent): Promise<StoredGrant | undefined> {
    return this.guarded('changed', () => this.transaction(async (client) => {
      const { rows } = await client.query<GrantRow>(
        `UPDATE ${this.s}.grants SET state = $3, changed = $4, ended_by = coalesce($5, ended_by), grantee_name = coalesce($6, grantee_name)
          WHERE id = $1 AND state = ANY($2::text[]) RETURNING ${GRANT_COLUMNS}`,
        [id, [...from], change.state, new Date(change.changedMs), change.endedBy ?? null, change.granteeName ?? null]);
      if (rows[0] === undefined) return undefined;
      await this.keep(client, event);
      return grantOf(rows[0]);
    }));
  }

  due(nowMs: number, createdBy: number): Promise<StoredGrant[]> {
    return this.guarded('read', async () => {
      const { rows } = await this.pool.query<GrantRow>(
        `SELECT ${GRANT_COLUMNS} FROM ${this.s}.grants WHERE state IN ('pending', 'active')
          AND ((state = 'pending' AND created <= $2) OR valid_to < $1) ORDER BY created, id`, [new Date(nowMs), new Date(createdBy)]);
      return rows.map(grantOf);
    });
  }

  /** A session lock held on one connection while `work` runs; another instance asking meanwhile is told no at once. */
  async inTurn<T>(work: () => Promise<T>): Promise<T | undefined> {
    const client = await this.guarded('reached', () => this.pool.connect());
    let failure: Error | undefined;
    try {
      const got = await this.guarded('reached', async () =>
        (await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS got', [this.turnKey])).rows[0]?.got === true);
      if (!got) return undefined;
      try {
        return await work();
      } finally {
        // A connection that cannot unlock is dropped, and the lock with it.
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [this.turnKey]).catch((err: unknown) => {
          failure = err instanceof Error ? err : new Error(String(err));
        });
      }
    } catch (err) {
      failure ??= err instanceof ProxyGrantsUnavailableError ? err : undefined;
      throw err;
    } finally {
      client.release(failure);
    }
  }

  events(afterSeq: number, limit: number): Promise<GrantEvent[]> {
    return this.guarded('read', async () => {
      const { rows } = await this.pool.query<EventRow>(
        `SELECT seq, grant_id, kind, at, by, grantor, grantee FROM ${this.s}.grant_events WHERE seq > $1 ORDER BY seq LIMIT $2`, [afterSeq, limit]);
      return rows.map(eventOf);
    });
  }

  async close(): Promise<void> {
    await this.migrated?.catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

/** admit's refusal carried out of the transaction (which it rolls back) and handed to the caller as it was thrown. */
class AdmitRefusal extends Error {
  constructor(readonly refusal: unknown) {
    super('the grant was not admitted');
  }
}
