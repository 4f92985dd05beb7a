import type pg from 'pg';
import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { ChainKey } from '../audit-chain/chain-keys.js';
import type { ChainHeadSource } from '../audit-chain/head-signer.js';
import type { ChainPoint } from '../audit-query/chain-check.js';
import { auditPool } from './audit-pool.js';
import { GENESIS, toStoredValues, type StoredValues } from './audit-row.js';
import { describePgError, withBoundedClient } from './bounded-client.js';
import { AuditChainCutError, insertChained } from './insert-chained.js';
import { migrate } from './migrations.js';
import { quotedSchema } from './sql-names.js';

export interface PostgresAuditTrailOptions {
  connectionString: string;
  /** Schema holding the trail; created by the migration. Default `audit`. */
  schema?: string;
  poolMax?: number;
  /** Bound on opening a connection, handshake included. Default 2000 ms. */
  connectTimeoutMs?: number;
  /** An append not known to be committed by then is rejected. Default 2500 ms, inside the HTTP audit deadline. */
  appendTimeoutMs?: number;
  /** The chain key (AUDIT_CHAIN_KEY_FILE); without one rows are chained with SHA-256 as before migration 6 (tests of that form). */
  key?: ChainKey;
  onWarning: (msg: string) => void;
}

interface Pending {
  values: StoredValues;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

const MAX_BATCH = 500;
const MIGRATION_DEADLINE_MS = 10_000;
// SQLSTATEs of a table or schema that vanished under a running service (dropped, or a database restored).
const SCHEMA_GONE = new Set(['42P01', '3F000']);

/**
 * The audit trail in PostgreSQL. Creating it never touches the network, so the service starts
 * while the database is down; the migration runs on first use and is retried until it succeeds.
 * Appends that arrive together share one transaction; each resolves only after that transaction
 * has committed, and rejects (its request then gets 503) if that is not known within the bound.
 */
export class PostgresAuditTrail implements AuditTrail, ChainHeadSource {
  private readonly schema: string;
  private readonly appendTimeoutMs: number;
  private migrated = false;
  /** Set once this process has seen the table: from then on it is never created anew. */
  private chainSeen = false;
  private migrating: Promise<void> | undefined;
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private available = true;
  /** The newest row this process stored: what its signed heads name, so a row cut from the table later shows. */
  private lastStored: ChainPoint | undefined;
  /** Set once that row was found gone or changed: nothing is stored over the loss until a restart (insertChained). */
  private cut: AuditChainCutError | undefined;

  private constructor(private readonly pool: pg.Pool, private readonly options: PostgresAuditTrailOptions) {
    this.schema = options.schema ?? 'audit';
    this.appendTimeoutMs = options.appendTimeoutMs ?? 2500;
  }

  static create(options: PostgresAuditTrailOptions): PostgresAuditTrail {
    quotedSchema(options.schema ?? 'audit');
    const pool = auditPool(options);
    return new PostgresAuditTrail(pool, options);
  }

  append(record: AuditRecord): Promise<void> {
    if (this.closing) return Promise.reject(new Error('audit trail closed'));
    let values: StoredValues;
    try {
      values = toStoredValues(record);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return new Promise<void>((resolve, reject) => {
      const p: Pending = { values, resolve, reject, timer: undefined, settled: false };
      p.timer = setTimeout(() => this.expire(p), this.appendTimeoutMs);
      this.queue.push(p);
      this.flushing ??= this.flush();
    });
  }

  /**
   * The newest row this instance stored; before it has stored any, the table's newest row. Rows other
   * instances store after it are theirs to name.
   */
  async head(): Promise<ChainPoint> {
    if (this.lastStored !== undefined) return this.lastStored;
    await this.ensureMigrated();
    // The text form gets another name: ORDER BY names an output column before a table's, and `id`
    // for id::text sorted as text, so 9 came after 10 (issue 52 item 9).
    const { rows } = await withBoundedClient(this.pool, this.appendTimeoutMs, (c) => c.query<{ id_text: string; hash: string; time_utc: string }>(
      `SELECT id::text AS id_text, hash, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time_utc
         FROM ${quotedSchema(this.schema)}.access_log ORDER BY id DESC LIMIT 1`));
    const row = rows[0];
    return row === undefined ? { id: 0, hash: GENESIS } : { id: Number(row.id_text), hash: row.hash, time: row.time_utc };
  }

  async ping(): Promise<boolean> {
    if (this.closing || this.cut !== undefined) return false;
    try {
      await this.ensureMigrated();
      // A standby after a failover, or a role without INSERT, answers reads but takes no record.
      const { rows } = await withBoundedClient(this.pool, this.appendTimeoutMs, (c) => c.query<{ writable: boolean }>(
        `SELECT current_setting('transaction_read_only') = 'off' AND has_table_privilege($1, 'INSERT') AS writable`,
        [`${quotedSchema(this.schema)}.access_log`]));
      if (rows[0]?.writable !== true) throw new Error('the audit table cannot be written (read-only server or no INSERT privilege)');
      this.noteSuccess();
      return true;
    } catch (err) {
      this.noteFailure(err);
      return false;
    }
  }

  /** Stops taking appends, waits for those in flight (each is bounded), then closes the pool. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.flushing;
      await this.migrating?.catch(() => undefined);
      await this.pool.end();
    })();
    return this.closing;
  }

  private ensureMigrated(): Promise<void> {
    if (this.migrated) return Promise.resolve();
    this.migrating ??= withBoundedClient(this.pool, MIGRATION_DEADLINE_MS, (c) => migrate(c, this.schema, this.chainSeen))
      .then(() => { this.migrated = true; this.chainSeen = true; })
      .finally(() => { this.migrating = undefined; });
    return this.migrating;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.ensureMigrated();
        const stored = this.lastStored;
        this.lastStored = await withBoundedClient(this.pool, this.appendTimeoutMs, (c) => insertChained(c, this.schema, batch.map((p) => p.values), this.options.key, stored));
        this.noteSuccess();
        for (const p of batch) this.settle(p);
      } catch (err) {
        this.noteFailure(err);
        const failure = new Error(`audit record not stored in PostgreSQL: ${describePgError(err)}`);
        for (const p of batch) this.settle(p, failure);
      }
    }
    this.flushing = undefined;
  }

  /** Past the bound, the caller is told "not stored"; a row still in flight may yet commit, which over-records, never under-records. */
  private expire(p: Pending): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) this.queue.splice(queued, 1);
    this.settle(p, new Error(`audit record not stored in PostgreSQL within ${this.appendTimeoutMs} ms`));
  }

  private settle(p: Pending, err?: Error): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (err) p.reject(err);
    else p.resolve();
  }

  private noteSuccess(): void {
    if (!this.available) this.options.onWarning('PostgreSQL audit trail is available again');
    this.available = true;
  }

  private noteFailure(err: unknown): void {
    if (err instanceof AuditChainCutError) {
      if (this.cut === undefined) {
        this.options.onWarning(`PostgreSQL audit chain cut back or rewritten under the running service: ${err.message}. Nothing is stored over `
          + 'the loss and patient data is withheld until the service is restarted. Find out who changed the table, and check the chain with its '
          + 'signed heads (npm run audit -- --verify --head <the service log>).');
      }
      this.cut = err;
      this.available = false;
      return;
    }
    if (this.migrated && SCHEMA_GONE.has(String((err as { code?: unknown }).code))) {
      this.migrated = false;
      this.options.onWarning('PostgreSQL audit table disappeared while the service ran; it is not created again (a new hash chain would hide the loss) and patient data is withheld until it is restored. Find out who removed it.');
    }
    if (this.available) this.options.onWarning(`PostgreSQL audit trail unavailable, patient data is withheld until it returns: ${describePgError(err)}`);
    this.available = false;
  }
}
