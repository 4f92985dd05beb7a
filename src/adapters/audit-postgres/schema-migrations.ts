// The versioned, append-only migrations of a schema of ours (the audit store's and the sign-in state's):
// one runner, so both take the same lock, keep the same version table and read it again under the lock.
import type { ClientBase, Pool } from 'pg';
import { inTransaction } from './bounded-client.js';
import type { ServicePrivilege } from './service-privileges.js';
import { lockKey, quotedRole, quotedSchema } from './sql-names.js';

/** A change is a new version, never an edit of an applied one. `sql` is given the quoted schema. */
export interface Migration {
  version: number;
  sql: (s: string) => string;
}

/** The schema's version before and after a migration; equal when there was nothing to do. */
export interface Migrated {
  from: number;
  to: number;
}

/** The newest version a list of migrations brings a schema to. */
export const latestVersion = (migrations: readonly Migration[]): number => migrations.reduce((max, m) => Math.max(max, m.version), 0);

/** The version a schema is at (`s` quoted), 0 when it was never migrated. */
export async function appliedVersion(db: ClientBase | Pool, s: string): Promise<number> {
  const { rows } = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [`${s}.schema_migrations`]);
  if (rows[0]?.present !== true) return 0;
  const result = await db.query<{ v: number }>(`SELECT coalesce(max(version), 0)::int AS v FROM ${s}.schema_migrations`);
  return result.rows[0]?.v ?? 0;
}

/**
 * Applies, inside the caller's transaction, every migration above the applied version up to `upTo`.
 * Instances starting together queue on an advisory lock; the version is read again under it, since an
 * instance starting beside this one may have migrated meanwhile.
 */
export async function applyMigrations(client: ClientBase, schema: string, migrations: readonly Migration[], upTo: number): Promise<Migrated> {
  const s = quotedSchema(schema);
  await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey('migrate', schema)]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const from = await appliedVersion(client, s);
  let to = from;
  for (const m of migrations.filter((x) => x.version > from && x.version <= upTo)) {
    await client.query(m.sql(s));
    await client.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [m.version]);
    to = m.version;
  }
  return { from, to };
}

/**
 * Brings a schema of ours beside the audit store's (the proxy grants', the notifications') to the latest
 * of `migrations` in one transaction. An up-to-date schema is only read, so a service role that may not
 * create starts too. With `serviceRole` (the owner's step) that role is granted each of `privileges`
 * (`npm run migrate` then revokes anything more).
 */
export async function migrateSchema(pool: Pool, schema: string, migrations: readonly Migration[], privileges: readonly ServicePrivilege[], serviceRole?: string): Promise<Migrated> {
  const s = quotedSchema(schema);
  const role = serviceRole === undefined ? undefined : quotedRole(serviceRole);
  const latest = latestVersion(migrations);
  const current = await appliedVersion(pool, s);
  if (current >= latest && role === undefined) return { from: current, to: current };
  const client = await pool.connect();
  try {
    return await inTransaction(client, async () => {
      const migrated = await applyMigrations(client, schema, migrations, latest);
      for (const p of role === undefined ? [] : privileges) await client.query(`GRANT ${p.privilege} ON ${p.kind.toUpperCase()} ${s}${p.object} TO ${role}`);
      return migrated;
    });
  } finally {
    client.release();
  }
}
