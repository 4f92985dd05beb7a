/**
 * What the tests of a column a migration added (withheld, unaudited) share: a schema of their own,
 * brought to the version before the column, rows inserted as the table would refuse them, and an
 * edit behind the append-only trigger's back.
 */
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import { GENESIS, toStoredValues, type StoredValues } from '../../../src/adapters/audit-postgres/audit-row.js';
import { migrate } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { adminPool, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';

export interface ColumnSchema {
  schema: string;
  admin(): pg.Pool;
  /** A trail writing to the schema, closed after the tests. */
  trail(): PostgresAuditTrail;
  /** The schema as a service of `version` left it. */
  migrateTo(version: number): Promise<void>;
  /** Inserts a bare row with `column` set, as the table's checks see it. */
  insertWith(column: string, value: number, phase: string, status: number | null): Promise<unknown>;
  /** Runs `sql` with the append-only trigger off: an edit the chain must show. */
  tamper(sql: string): Promise<void>;
}

/** For one describe block: a fresh schema and an admin pool, dropped and closed after its tests. */
export function columnSchema(): ColumnSchema {
  const schema = freshSchema();
  const trails: PostgresAuditTrail[] = [];
  let admin: pg.Pool;
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    await dropSchema(admin, schema);
    await admin.end();
  });
  return {
    schema,
    admin: () => admin,
    trail: () => {
      const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
      trails.push(trail);
      return trail;
    },
    migrateTo: async (version) => {
      const client = await admin.connect();
      try {
        await migrate(client, schema, false, version);
      } finally {
        client.release();
      }
    },
    insertWith: (column, value, phase, status) => admin.query(
      `INSERT INTO "${schema}".access_log (time, request_id, operation, outcome, status, phase, ${column}, prev_hash, hash)
        VALUES (now(), 'x', 'y', 'allowed', $1, $2, $3, $4, $4)`, [status, phase, value, GENESIS]),
    tamper: async (sql) => {
      await admin.query(`ALTER TABLE "${schema}".access_log DISABLE TRIGGER access_log_append_only`);
      await admin.query(sql);
      await admin.query(`ALTER TABLE "${schema}".access_log ENABLE TRIGGER access_log_append_only`);
    },
  };
}

/** The canonical forms a version of the table chained its rows with, before a later migration changed them. */
export interface OlderForms {
  hash(values: StoredValues, prev: string): string;
  mac(values: StoredValues, prev: string, key: ChainKey): string;
}

/**
 * Rows chained with `forms` into a table of that version, as its service did: every column up to
 * `hash`, then `later` (the newer columns that version already had: `proxy_grant_id` and `reason` of
 * version 7, `write_result` of 8, `also_read` of 9), unkeyed without `key`.
 */
export async function insertChainedAsOlder(client: pg.ClientBase, schema: string, records: readonly OutcomeRecord[], key: ChainKey | undefined,
  forms: OlderForms, later: ReadonlyArray<'proxy_grant_id' | 'reason' | 'write_result' | 'also_read'> = []): Promise<void> {
  const { rows } = await client.query<{ hash: string }>(`SELECT hash FROM "${schema}".access_log ORDER BY id DESC LIMIT 1`);
  let prev = rows[0]?.hash ?? GENESIS;
  const columns = ['time', 'request_id', 'operation', 'actor_issuer', 'actor_subject', 'actor_person_id', 'client_id', 'subscription', 'patient_id',
    'delegation', 'source_address', 'outcome', 'status', 'phase', 'service_request_id', 'withheld', 'caller_request_id', 'unaudited', 'key_id', 'prev_hash',
    'hash', ...later];
  for (const record of records) {
    const v = toStoredValues(record);
    const hash = key === undefined ? forms.hash(v, prev) : forms.mac(v, prev, key);
    const laterValues = later.map((column) => ({ reason: v.reason, proxy_grant_id: v.proxyGrantId, write_result: v.writeResult, also_read: v.alsoRead })[column]);
    await client.query(`INSERT INTO "${schema}".access_log (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      [v.time, ...v.text, v.status, v.phase, v.serviceRequestId, v.withheld, v.callerRequestId, v.unaudited, key?.id ?? null, prev, hash, ...laterValues]);
    prev = hash;
  }
}
