import type { ClientBase } from 'pg';
import { lockKey, quotedSchema } from './sql-names.js';

interface Migration {
  version: number;
  sql: (s: string) => string;
}

/**
 * Versioned and append-only like the data: a change to the table is a new version, never an edit
 * of an applied one, so every instance and every database end up with the same schema.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.access_log (
        id bigserial PRIMARY KEY,
        time timestamptz NOT NULL,
        request_id text NOT NULL,
        operation text NOT NULL,
        actor_issuer text,
        actor_subject text,
        actor_person_id text,
        client_id text,
        subscription text,
        patient_id text,
        delegation text,
        source_address text,
        outcome text NOT NULL CHECK (outcome IN ('allowed', 'denied', 'failed')),
        status smallint NOT NULL CHECK (status BETWEEN 100 AND 599),
        prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
        hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
      );
      COMMENT ON TABLE ${s}.access_log IS
        'One row per request that read or changed patient data, or was refused. Append-only; hash-chained in id order.';
      -- "Who looked at patient X between A and B", the question a patient may ask under the law.
      CREATE INDEX access_log_patient_time ON ${s}.access_log (patient_id, time);
      -- The row of one request, when a caller or an operator quotes its request id.
      CREATE INDEX access_log_request_id ON ${s}.access_log (request_id);
      CREATE FUNCTION ${s}.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
          USING ERRCODE = 'insufficient_privilege';
      END
      $fn$;
      -- Statement level, so it fires even for the owner, a superuser, and statements that match no row.
      CREATE TRIGGER access_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${s}.access_log
        FOR EACH STATEMENT EXECUTE FUNCTION ${s}.refuse_change();
      REVOKE UPDATE, DELETE, TRUNCATE ON ${s}.access_log FROM PUBLIC;`,
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

async function appliedVersion(client: ClientBase, s: string): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [`${s}.schema_migrations`]);
  if (!rows[0]?.exists) return 0;
  const result = await client.query<{ v: number }>(`SELECT coalesce(max(version), 0)::int AS v FROM ${s}.schema_migrations`);
  return result.rows[0]?.v ?? 0;
}

/**
 * Brings the schema to the latest version in one transaction. An up-to-date schema is only read,
 * so a service role granted no more than INSERT and SELECT starts against a schema its DBA created.
 * Instances starting together queue on an advisory lock and the later ones find nothing to do.
 */
export async function migrate(client: ClientBase, schema: string): Promise<void> {
  const s = quotedSchema(schema);
  if (await appliedVersion(client, s) >= LATEST_VERSION) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey('migrate', schema)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
      version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await appliedVersion(client, s);
    for (const m of MIGRATIONS.filter((x) => x.version > applied)) {
      await client.query(m.sql(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [m.version]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
