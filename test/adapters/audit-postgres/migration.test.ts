import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseUrl, dropSchema, freshName, freshSchema, databaseAvailable } from '../../support/database.js';
import { EVERY_VERSION, fullRecord } from './records.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgreSQL audit schema: migration and append-only enforcement', () => {
  const schema = freshSchema();
  const concurrentSchema = freshSchema();
  const role = freshName('audit_svc');
  let admin: pg.Pool;
  const trails: PostgresAuditTrail[] = [];
  const trail = (s = schema, url = databaseUrl()): PostgresAuditTrail => {
    const t = PostgresAuditTrail.create({ connectionString: url, schema: s, onWarning: () => undefined });
    trails.push(t);
    return t;
  };
  const refusal = (sql: string): Promise<unknown> => admin.query(sql);

  beforeAll(async () => {
    admin = adminPool();
    expect(await trail().ping()).toBe(true);
    await trail().append(fullRecord(1));
    await trail().append(fullRecord(2));
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    await dropSchema(admin, schema);
    await dropSchema(admin, concurrentSchema);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('creates a typed column for every record field, plus id and the chain, and nothing that could hold a secret', async () => {
    const { rows } = await admin.query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = 'access_log' ORDER BY ordinal_position`, [schema]);
    expect(rows.map((r) => [r.column_name, r.data_type, r.is_nullable])).toEqual([
      ['id', 'bigint', 'NO'], ['time', 'timestamp with time zone', 'NO'], ['request_id', 'text', 'NO'], ['operation', 'text', 'NO'],
      ['actor_issuer', 'text', 'YES'], ['actor_subject', 'text', 'YES'], ['actor_person_id', 'text', 'YES'], ['client_id', 'text', 'YES'],
      ['subscription', 'text', 'YES'], ['patient_id', 'text', 'YES'], ['delegation', 'text', 'YES'], ['source_address', 'text', 'YES'],
      ['outcome', 'text', 'NO'], ['status', 'smallint', 'YES'], ['prev_hash', 'text', 'NO'], ['hash', 'text', 'NO'],
      // Migration 2 (issue 12): an attempt row has no status yet; the service's own request id.
      ['phase', 'text', 'NO'], ['service_request_id', 'text', 'YES'],
      // Migration 3 (issue 14): how many items the release policy withheld, never which.
      ['withheld', 'integer', 'YES'],
      // Migration 4 (issue 34 item 10): the caller's X-Request-Id, for operators; request_id is the service's own.
      ['caller_request_id', 'text', 'YES'],
      // Migration 5 (issue 34 item 11c): on a refusalsNotAudited row, how many refusals a minute left unaudited.
      ['unaudited', 'integer', 'YES'],
      // Migration 6 (issue 44 item 6): the id of the chain key whose MAC is in hash; null on a row from before the key.
      ['key_id', 'text', 'YES'],
      // Migration 7 (issue 53): the proxy grant a row is about, and why support ended one.
      ['proxy_grant_id', 'text', 'YES'],
      ['reason', 'text', 'YES'],
      // Migration 8: what the EHR answered a write (hostile review helper-85).
      ['write_result', 'text', 'YES'],
      // Migration 9: the other reads a request made, named in the patient's access log (hostile review helper-90, F2).
      ['also_read', 'text', 'YES'],
      // Migration 10: the booking a write was about, and a payment's type (hostile review helper-127, F3).
      ['contact_id', 'text', 'YES'],
      ['payment_type', 'text', 'YES'],
    ]);
  });

  it('indexes (patient_id, time) for "who looked at patient X between A and B", and the planner uses it', async () => {
    const { rows } = await admin.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'access_log'`, [schema]);
    expect(rows.map((r) => r.indexdef)).toContainEqual(expect.stringMatching(/USING btree \(patient_id, "time"\)$/));
    const client = await admin.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(`EXPLAIN SELECT * FROM "${schema}".access_log WHERE patient_id = '201701012393'
        AND time BETWEEN '2026-01-01' AND '2026-12-31' ORDER BY time`);
      expect(JSON.stringify(plan.rows)).toMatch(/access_log_patient_time/);
    } finally {
      client.release();
    }
  });

  it('is idempotent: every later start finds each version applied once and keeps the rows', async () => {
    expect(await trail().ping()).toBe(true);
    const versions = await admin.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.rows).toEqual(EVERY_VERSION);
    const count = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".access_log`);
    expect(count.rows[0]).toEqual({ n: 2 });
  });

  it('lets several instances starting together migrate one fresh schema without a race', async () => {
    const starting = Array.from({ length: 4 }, () => trail(concurrentSchema));
    expect(await Promise.all(starting.map((t) => t.ping()))).toEqual([true, true, true, true]);
    await Promise.all(starting.map((t, i) => t.append(fullRecord(i))));
    const versions = await admin.query(`SELECT version FROM "${concurrentSchema}".schema_migrations ORDER BY version`);
    expect(versions.rows).toEqual(EVERY_VERSION);
    expect(await verifyPostgresChain(admin, concurrentSchema)).toBe(0);
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database, even for the owning superuser and for statements matching no row', async () => {
    const table = `"${schema}".access_log`;
    await expect(refusal(`UPDATE ${table} SET outcome = 'denied'`)).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/append-only: UPDATE/) });
    await expect(refusal(`UPDATE ${table} SET outcome = 'denied' WHERE false`)).rejects.toMatchObject({ code: '42501' });
    await expect(refusal(`DELETE FROM ${table} WHERE id = 1`)).rejects.toMatchObject({ message: expect.stringMatching(/append-only: DELETE/) });
    await expect(refusal(`TRUNCATE ${table}`)).rejects.toMatchObject({ message: expect.stringMatching(/append-only: TRUNCATE/) });
    const { rows } = await admin.query(`SELECT count(*)::int AS n, bool_and(outcome = 'allowed') AS unchanged FROM ${table}`);
    expect(rows[0]).toEqual({ n: 2, unchanged: true });
    expect((await admin.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0]).toEqual({ rolsuper: true });
  });

  it('leaves PUBLIC no UPDATE, DELETE or TRUNCATE privilege on the table', async () => {
    const { rows } = await admin.query(`SELECT has_table_privilege('public', $1, 'UPDATE') AS u, has_table_privilege('public', $1, 'DELETE') AS d,
      has_table_privilege('public', $1, 'TRUNCATE') AS t`, [`"${schema}".access_log`]);
    expect(rows[0]).toEqual({ u: false, d: false, t: false });
  });

  it('serves a service role granted only INSERT and SELECT, which then cannot change a row even with the trigger aside', async () => {
    const s = `"${schema}"`;
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA ${s} TO ${role}`);
    await admin.query(`GRANT SELECT ON ${s}.access_log, ${s}.schema_migrations TO ${role}`);
    await admin.query(`GRANT USAGE ON SEQUENCE ${s}.access_log_id_seq TO ${role}`);
    const url = new URL(databaseUrl());
    url.username = role;
    url.password = '';
    const service = trail(schema, url.toString());
    // Readiness means records can be written, not merely that the table can be read.
    expect(await service.ping()).toBe(false);
    await admin.query(`GRANT INSERT ON ${s}.access_log TO ${role}`);
    expect(await service.ping()).toBe(true);
    await service.append(fullRecord(3));
    expect(await verifyPostgresChain(admin, schema)).toBe(0);

    const asService = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await expect(asService.query(`UPDATE ${s}.access_log SET outcome = 'denied'`)).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/permission denied/) });
      await expect(asService.query(`ALTER TABLE ${s}.access_log DISABLE TRIGGER access_log_append_only`)).rejects.toMatchObject({ code: '42501' });
      await expect(asService.query(`DELETE FROM ${s}.access_log`)).rejects.toMatchObject({ code: '42501' });
      // Only the table's owner can drop it (issue 12 item 9): the service role is not the owner.
      await expect(asService.query(`DROP TABLE ${s}.access_log`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await asService.end();
    }
  });
});

