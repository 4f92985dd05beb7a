import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOf, SELECT_COLUMNS, type SelectedRow } from '../../../src/adapters/audit-postgres/audit-row.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseUrl, dropSchema, freshSchema, databaseAvailable } from '../../support/database.js';
import { CHILD, fullRecord, GUARDIAN, minimalRecord } from './records.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgresAuditTrail', () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let trail: PostgresAuditTrail;
  let other: PostgresAuditTrail;
  const warnings: string[] = [];
  const create = (): PostgresAuditTrail => PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: (m) => warnings.push(m) });

  const rowsWhere = async (where: string, params: unknown[] = []): Promise<SelectedRow[]> =>
    (await admin.query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${schema}".access_log WHERE ${where} ORDER BY id`, params)).rows;

  beforeAll(() => {
    admin = adminPool();
    trail = create();
    other = create();
  });
  afterAll(async () => {
    await trail.close();
    await other.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('stores every field of a record in its typed column and reads it back unchanged', async () => {
    const full = fullRecord(1);
    await trail.append(full);
    const [row] = await rowsWhere('request_id = $1', ['req-1']);
    expect(row).toMatchObject({
      time_utc: '2026-11-21T09:00:01.123000Z', request_id: 'req-1', operation: 'getJournalNotes',
      actor_issuer: 'https://idp.example.test', actor_subject: 'märta', actor_person_id: GUARDIAN, client_id: 'patient-app',
      subscription: 'test', patient_id: CHILD, delegation: 'guardian', source_address: '127.0.0.1', outcome: 'allowed', status: 200,
    });
    expect(recordOf(row as SelectedRow)).toEqual(full);
    const typed = await admin.query(`SELECT time, status FROM "${schema}".access_log WHERE request_id = 'req-1'`);
    expect(typed.rows[0]).toEqual({ time: new Date(full.time), status: 200 });
  });

  it('stores absent fields as NULL', async () => {
    await trail.append(minimalRecord(1));
    const [row] = await rowsWhere('request_id = $1', ['min-1']);
    expect(row).toMatchObject({
      actor_issuer: null, actor_subject: null, actor_person_id: null, client_id: null, subscription: null,
      patient_id: null, delegation: null, source_address: '::1', outcome: 'denied', status: 401,
    });
    expect(recordOf(row as SelectedRow)).toEqual(minimalRecord(1));
  });

  it('stores a time given with an offset as the same instant in UTC', async () => {
    await trail.append(fullRecord(2, { requestId: 'offset-1', time: '2026-11-21T10:00:00.5+01:00' }));
    const [row] = await rowsWhere('request_id = $1', ['offset-1']);
    expect(row?.time_utc).toBe('2026-11-21T09:00:00.500000Z');
  });

  it('refuses a record it could not store faithfully alone, while the records queued with it are stored', async () => {
    const good = Array.from({ length: 5 }, (_, i) => trail.append(fullRecord(100 + i)));
    const nul = trail.append(fullRecord(200, { actor: { issuer: 'i', subject: 'a\u0000b' } }));
    const surrogate = trail.append(fullRecord(201, { clientId: 'x\ud800' }));
    const status = trail.append(fullRecord(202, { status: 42 }));
    const time = trail.append(fullRecord(203, { time: 'yesterday' }));
    const outcome = trail.append(fullRecord(204, { outcome: 'maybe' as 'allowed' }));
    await expect(nul).rejects.toThrow(/actor.subject cannot be stored/);
    await expect(surrogate).rejects.toThrow(/clientId cannot be stored/);
    await expect(status).rejects.toThrow(/status/);
    await expect(time).rejects.toThrow(/time/);
    await expect(outcome).rejects.toThrow(/outcome/);
    await Promise.all(good);
    expect((await rowsWhere(`request_id LIKE 'req-10_'`)).map((r) => r.request_id)).toEqual(['req-100', 'req-101', 'req-102', 'req-103', 'req-104']);
    expect(await rowsWhere(`request_id LIKE 'req-20_'`)).toEqual([]);
  });

  it('stores 200 concurrent appends, batched, each resolved only once its row is there, in one unbroken chain', async () => {
    const resolvedBeforeRow: string[] = [];
    await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      await trail.append(fullRecord(1000 + i));
      const found = await admin.query(`SELECT 1 FROM "${schema}".access_log WHERE request_id = $1`, [`req-${1000 + i}`]);
      if (found.rowCount !== 1) resolvedBeforeRow.push(`req-${1000 + i}`);
    }));
    expect(resolvedBeforeRow).toEqual([]);
    const rows = await rowsWhere(`request_id LIKE 'req-1___'`);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(200);
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });

  /** Appends from two instances spread over many small batches, so their transactions overlap again and again. */
  const interleave = async (a: PostgresAuditTrail, b: PostgresAuditTrail, base: number): Promise<void> => {
    const pending: Array<Promise<void>> = [];
    for (let i = 0; i < 150; i++) {
      pending.push(a.append(fullRecord(base + i)), b.append(fullRecord(base + 1000 + i, { patientId: GUARDIAN })));
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(pending);
  };

  it('keeps one chain when two instances append at the same time', async () => {
    await interleave(trail, other, 2000);
    expect(await rowsWhere(`request_id LIKE 'req-2___' OR request_id LIKE 'req-3___'`)).toHaveLength(300);
    const chain = await admin.query<{ n: number; linked: number }>(`SELECT count(*)::int AS n,
        count(*) FILTER (WHERE prev_hash = (SELECT hash FROM "${schema}".access_log p WHERE p.id < a.id ORDER BY p.id DESC LIMIT 1))::int AS linked
      FROM "${schema}".access_log a`);
    expect(chain.rows[0]?.linked).toBe((chain.rows[0]?.n ?? 0) - 1);
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });

  it('keeps one chain where the server defaults to REPEATABLE READ (its snapshot would predate the chain lock)', async () => {
    const url = new URL(databaseUrl());
    url.searchParams.set('options', '-c default_transaction_isolation=repeatable\\ read');
    const strict = (): PostgresAuditTrail => PostgresAuditTrail.create({ connectionString: url.toString(), schema, onWarning: (m) => warnings.push(m) });
    const [a, b] = [strict(), strict()];
    try {
      await interleave(a, b, 4000);
      expect(await rowsWhere(`request_id LIKE 'req-4___' OR request_id LIKE 'req-5___'`)).toHaveLength(300);
      expect(await verifyPostgresChain(admin, schema)).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets the verifier find a row edited behind the trigger, and a removed row', async () => {
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
    const [target] = await rowsWhere(`request_id = 'req-1050'`);
    const [next] = await rowsWhere(`id = (SELECT min(id) FROM "${schema}".access_log WHERE id > $1)`, [target?.id]);
    const table = `"${schema}".access_log`;
    const tamper = async (sql: string): Promise<void> => {
      const client = await admin.connect();
      try {
        await client.query('BEGIN');
        await client.query(`ALTER TABLE ${table} DISABLE TRIGGER access_log_append_only`);
        await client.query(sql, [target?.id]);
        await client.query(`ALTER TABLE ${table} ENABLE TRIGGER access_log_append_only`);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    await tamper(`UPDATE ${table} SET outcome = 'denied', status = 403 WHERE id = $1`);
    expect(await verifyPostgresChain(admin, schema)).toBe(Number(target?.id));
    await tamper(`UPDATE ${table} SET outcome = 'allowed', status = 200 WHERE id = $1`);
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
    await tamper(`UPDATE ${table} SET time = time + interval '1 microsecond' WHERE id = $1`);
    expect(await verifyPostgresChain(admin, schema)).toBe(Number(target?.id));
    await tamper(`DELETE FROM ${table} WHERE id = $1`);
    expect(await verifyPostgresChain(admin, schema)).toBe(Number(next?.id));
    await expect(admin.query(`DELETE FROM ${table} WHERE id = $1`, [next?.id])).rejects.toThrow(/append-only/);
  });

  it('has said nothing is wrong while the database was up', () => {
    expect(warnings).toEqual([]);
  });

  it('is not ready and stores nothing on a server that only reads (a standby after failover)', async () => {
    const url = new URL(databaseUrl());
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    const seen: string[] = [];
    const readOnly = PostgresAuditTrail.create({ connectionString: url.toString(), schema, onWarning: (m) => seen.push(m) });
    try {
      expect(await readOnly.ping()).toBe(false);
      await expect(readOnly.append(fullRecord(8000))).rejects.toThrow(/25006|read-only/);
      expect(await rowsWhere(`request_id = 'req-8000'`)).toEqual([]);
      expect(seen).toEqual([expect.stringMatching(/unavailable.*cannot be written/)]);
    } finally {
      await readOnly.close();
    }
  });

  // A table that disappears under a running service is not created again (issue 12 item 9): audit-fidelity.test.ts.

  it('refuses appends after close, and reports not ready', async () => {
    const closing = create();
    await closing.append(fullRecord(9000));
    await closing.close();
    await expect(closing.append(fullRecord(9001))).rejects.toThrow(/closed/);
    expect(await closing.ping()).toBe(false);
  });

  it('issue 52 item 9: names the newest row by id at start, 10 after 9, not the greatest id as text', async () => {
    const ownSchema = freshSchema();
    const trailOf = (): PostgresAuditTrail => PostgresAuditTrail.create({ connectionString: databaseUrl(), schema: ownSchema, onWarning: (m) => warnings.push(m) });
    const writer = trailOf();
    const started = trailOf();
    try {
      for (let i = 1; i <= 10; i++) await writer.append(minimalRecord(i));
      const { rows } = await admin.query<{ hash: string }>(`SELECT hash FROM "${ownSchema}".access_log WHERE id = 10`);
      // A fresh instance has stored nothing: its head is the table's newest row.
      expect(await started.head()).toMatchObject({ id: 10, hash: rows[0]?.hash });
    } finally {
      await writer.close();
      await started.close();
      await dropSchema(admin, ownSchema);
    }
  });
});
