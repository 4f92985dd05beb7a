import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inCi, noteSkip } from './requirements.js';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The PostgreSQL the adapter tests use: `DATABASE_URL`, else the local test database. */
export function databaseUrl(): string {
  const v = process.env.DATABASE_URL?.trim();
  return v === undefined || v === '' ? DEFAULT_URL : v;
}

/** The URL without its password, for messages. */
export function redactedUrl(url = databaseUrl()): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

/** `url` with its host and port replaced, e.g. to go through a TcpProxy. */
export function urlVia(port: number, url = databaseUrl(), host = '127.0.0.1'): string {
  const u = new URL(url);
  u.hostname = host;
  u.port = String(port);
  return u.toString();
}

/**
 * Whether the real PostgreSQL answers. In CI (`CI=true`) an unreachable server is a failure, not a
 * skip, so a broken pipeline cannot pass by testing nothing; elsewhere the suite skips and says why.
 */
export async function databaseAvailable(): Promise<boolean> {
  // 15 s, not 3: CI's soak once found a running server "unreachable (timeout expired)" in 3 s, straight
  // after the deploy tests' containers, on two busy cores. A server that is down refuses at once.
  const client = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 15_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (err) {
    const why = `PostgreSQL at ${redactedUrl()} is unreachable (${err instanceof Error ? err.message : String(err)})`;
    if (inCi()) throw new Error(`${why}; CI=true requires it. Start it or set DATABASE_URL.`);
    noteSkip('PostgreSQL', `${why}; start it or set DATABASE_URL`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `prefix` and twelve random lower-case letters: a schema or role name no other test file uses. Letters
 * only, never hex: a command's messages are scrubbed of anything shaped like an identity number
 * (src/domain/redaction/scrub-text.ts), and ten hex digits that happen to be all decimal
 * (`migrate_grp_1516707319`, about one draw in 110) came back as `migrate_grp_[REDACTED]`, failing a
 * test that looked for the name as written.
 */
export function freshName(prefix: string): string {
  return `${prefix}_${[...randomBytes(12)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;
}

/** A schema name no other test file uses (freshName). */
export function freshSchema(prefix = 'audit_test'): string {
  return freshName(prefix);
}

/** A pool as the database owner (the test user), for setup, inspection and tampering. */
export function adminPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: 3 });
  pool.on('error', () => undefined);
  return pool;
}

/** `use` with a pool of its own on the test database, ended after it whatever `use` did. */
export async function withAdminPool<T>(use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = adminPool();
  try {
    return await use(pool);
  } finally {
    await pool.end();
  }
}

export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('not a test schema name');
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Two instances' stores over one fresh schema, a third by `reopen` (as after a restart), and their cleanup. */
export interface StoresOnSchema<S> {
  schema: string;
  a: S;
  b: S;
  reopen(): Promise<S>;
  cleanup(): Promise<void>;
}

/**
 * Opens two stores over a fresh schema named from `prefix`, as two processes do (two pools); every
 * store opened is closed and the schema dropped by `cleanup`.
 */
export async function storesOnFreshSchema<S extends { close(): Promise<void> }>(prefix: string, open: (schema: string) => Promise<S>): Promise<StoresOnSchema<S>> {
  const schema = freshSchema(prefix);
  const opened: S[] = [await open(schema), await open(schema)];
  return {
    schema, a: opened[0] as S, b: opened[1] as S,
    reopen: async () => {
      const again = await open(schema);
      opened.push(again);
      return again;
    },
    cleanup: async () => {
      await Promise.all(opened.map((s) => s.close()));
      const admin = adminPool();
      await dropSchema(admin, schema);
      await admin.end();
    },
  };
}
