/**
 * PostgreSQL and Redis for one soak run. The audit adapter always writes to schema `audit` (the
 * composition root names no other), so the run gets a database of its own, created here and
 * dropped afterwards; Redis keys are the run's own rate-limit counters, deleted afterwards.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

const DATABASE_NAME = /^soak_[a-z0-9]{6,32}$/;

/** `adminUrl` with another database. */
export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createDatabase(adminUrl: string, database: string): Promise<void> {
  if (!DATABASE_NAME.test(database)) throw new Error('not a soak database name');
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops the run's database even if the service still holds connections to it (PostgreSQL 13+). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  if (!DATABASE_NAME.test(database)) throw new Error('not a soak database name');
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface AuditRow {
  /** The caller's X-Request-Id the row keeps beside the service's own id: how the soak finds the requests it sent. */
  requestId: string;
  status: number;
  outcome: string;
  /** 'attempt' for the record a write stores before the EHR is asked; null for the outcome. */
  phase: string | null;
}

/** Every audit row whose caller's request id starts with `prefix` (the service answers and audits its own id beside it). */
export async function auditRows(databaseUrl: string, prefix: string): Promise<AuditRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000, statement_timeout: 60_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ caller_request_id: string; status: number | null; outcome: string; phase: string | null }>(
      'SELECT caller_request_id, status, outcome, phase FROM audit.access_log WHERE starts_with(caller_request_id, $1)', [prefix]);
    return rows.map((r) => ({ requestId: r.caller_request_id, status: Number(r.status), outcome: r.outcome, phase: r.phase }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A plain client for checks and cleanup: one attempt, bounded, no offline queue. */
export function redisClient(url: string): Redis {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, commandTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined);
  return client;
}

/** Keys matching `pattern` (bounded SCAN). */
export async function redisKeys(client: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  for (let round = 0; round < 1000; round++) {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  return found;
}
