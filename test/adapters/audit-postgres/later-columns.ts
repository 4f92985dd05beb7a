/**
 * What the tests of a column a migration added (withheld, unaudited) share: a schema of their own,
 * brought to the version before the column, rows inserted as the table would refuse them, and an
 * edit behind the append-only trigger's back.
 */
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { GENESIS } from '../../../src/adapters/audit-postgres/audit-row.js';
import { migrate } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
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
