import pg from 'pg';
import { outlivingConnections } from './bounded-client.js';

/**
 * The trail's connection pool. Every limit is on the writer's side as well as the server's, since a
 * request waits on the audit write: opening a connection is bounded, statements are bounded, and
 * a writer that vanished inside a transaction is cut off before it holds the chain lock for long.
 */
export function auditPool(options: {
  connectionString: string; poolMax?: number; connectTimeoutMs?: number; applicationName?: string;
  /** Whether a commit waits for its WAL to be flushed; false only where losing the last commits to a server crash costs nothing (the EHR read budget). */
  durableCommits?: boolean;
}): pg.Pool {
  return outlivingConnections(new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolMax ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    application_name: options.applicationName ?? 'patient-data-access-audit',
    statement_timeout: 5000,
    lock_timeout: 5000,
    idle_in_transaction_session_timeout: 5000,
    ...(options.durableCommits === false ? { options: '-c synchronous_commit=off' } : {}),
  }));
}
