/**
 * The notifications schema's connections (docs/operations.md#the-notifications-schema): the audit
 * trail's bounded pool (connecting, each statement, a lock wait and an abandoned transaction all
 * bounded), the schema migrated once on first use, a database failure turned into
 * SubscriptionStoreUnavailableError, and what the domain decided inside a transaction (a refusal of
 * the app's limit, a change that numbers wrongly) handed back as it was thrown.
 */
import type pg from 'pg';
import { SubscriptionStoreUnavailableError } from '../../ports/subscription-store.port.js';
import { auditPool } from '../audit-postgres/audit-pool.js';
import { describePgError, pooledTransaction } from '../audit-postgres/bounded-client.js';
import { advisoryKey, quotedSchema } from '../audit-postgres/sql-names.js';
import { migrateNotifications, NOTIFICATIONS_SCHEMA } from './postgres-subscription-schema.js';

export interface NotificationsDbOptions {
  connectionString: string;
  /** Default `notifications`; tests use schemas of their own. */
  schema?: string;
  poolMax?: number;
  connectTimeoutMs?: number;
}

/** How this pool's commits are made: durable unless losing the last ones to a server crash costs nothing. */
export interface PoolKind {
  applicationName: string;
  durableCommits?: boolean;
}

/** A throw of the domain's own code inside a transaction: rolled back, then rethrown to the caller as it was. */
class Decided extends Error {
  constructor(readonly thrown: unknown) {
    super('decided by the caller');
  }
}

/** Runs the caller's `decide`; what it throws leaves the transaction as its own, not as the store's failure. */
export function decided<T>(decide: () => T): T {
  try {
    return decide();
  } catch (err) {
    throw new Decided(err);
  }
}

export class NotificationsDb {
  /** The quoted schema, for statement text (only a plain lower-case name passes quotedSchema). */
  readonly s: string;
  readonly schema: string;
  readonly pool: pg.Pool;
  private migrated: Promise<void> | undefined;

  constructor(options: NotificationsDbOptions, kind: PoolKind) {
    this.schema = options.schema ?? NOTIFICATIONS_SCHEMA;
    this.s = quotedSchema(this.schema);
    this.pool = auditPool({ ...options, ...kind });
  }

  /** A lock key of this schema: instances sharing it contend, tests on other schemas do not. */
  key(...parts: string[]): string {
    return advisoryKey('notifications', this.schema, ...parts);
  }

  /** Migrates once; a failure is forgotten, so the next use tries again. */
  ready(): Promise<void> {
    this.migrated ??= migrateNotifications(this.pool, this.schema).then(() => undefined, (err: unknown) => {
      this.migrated = undefined;
      throw err;
    });
    return this.migrated;
  }

  /** `work` with the schema ready; a database failure becomes SubscriptionStoreUnavailableError, a decision passes as it was thrown. */
  async guarded<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      await this.ready();
      return await work();
    } catch (err) {
      if (err instanceof Decided) throw err.thrown;
      if (err instanceof SubscriptionStoreUnavailableError) throw err;
      throw new SubscriptionStoreUnavailableError(`the notifications cannot be ${what} (${describePgError(err)})`, { cause: err });
    }
  }

  /** `work` in one transaction on one connection; a connection that failed is dropped, not reused (a decision rolled back leaves it sound). */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return pooledTransaction(this.pool, work, (err) => err instanceof Decided);
  }

  async close(): Promise<void> {
    await this.migrated?.catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}
