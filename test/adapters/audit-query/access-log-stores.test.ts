import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { FileAccessLog } from '../../../src/adapters/audit-query/file-access-log.js';
import { pageSql, PostgresAccessLog } from '../../../src/adapters/audit-query/postgres-access-log.js';
import { AccessLogUnavailableError } from '../../../src/ports/access-log.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { allPages, CHILD, expectedLog, GUARDIAN, OTHER, T0, trailRecords } from './access-log-records.js';

const available = await databaseAvailable();
const records = trailRecords(1200);

describe.skipIf(!available)('issue 14 access log: the file and PostgreSQL stores', () => {
  const schema = freshSchema('access_log');
  let dir: string;
  let admin: pg.Pool;
  let file: FileAccessLog;
  let postgres: PostgresAccessLog;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-access-log-'));
    admin = adminPool();
    const fileTrail = await FileAuditTrail.open(path.join(dir, 'audit-trail.jsonl'));
    const pgTrail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    // Appended as the service appends: each store keeps the order of the calls.
    await Promise.all(records.map((r) => fileTrail.append(r)));
    await Promise.all(records.map((r) => pgTrail.append(r)));
    await fileTrail.close();
    await pgTrail.close();
    file = new FileAccessLog(path.join(dir, 'audit-trail.jsonl'));
    postgres = PostgresAccessLog.create({ connectionString: databaseUrl(), schema });
  });
  afterAll(async () => {
    await postgres.close();
    await dropSchema(admin, schema);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('issue 14: both stores give the same entries, every record exactly once over ≥ 300 records, whatever the page size', async () => {
    const expected = expectedLog(records, CHILD);
    expect(expected.length).toBeGreaterThanOrEqual(300);
    for (const limit of [1, 13, 100, 501]) {
      expect(await allPages(file, { patientId: CHILD, limit })).toEqual(expected);
      expect(await allPages(postgres, { patientId: CHILD, limit })).toEqual(expected);
    }
    expect(await allPages(postgres, { patientId: OTHER, limit: 50 })).toEqual(expectedLog(records, OTHER));
    expect(await allPages(file, { patientId: GUARDIAN, limit: 50 })).toEqual([]);
  });

  it('issue 14: both stores apply the same inclusive interval, across pages', async () => {
    const fromMs = T0 + 40_000;
    const toMs = T0 + 180_005;
    const expected = expectedLog(records, CHILD, fromMs, toMs);
    expect(expected.length).toBeGreaterThan(100);
    expect(await allPages(file, { patientId: CHILD, fromMs, toMs, limit: 37 })).toEqual(expected);
    expect(await allPages(postgres, { patientId: CHILD, fromMs, toMs, limit: 37 })).toEqual(expected);
  });

  it('issue 14: neither store reads a source address, a token subject or an issuer into the log; issue 34 item 10: nor the request id a caller gave', async () => {
    for (const reader of [file, postgres]) {
      const text = JSON.stringify(await reader.page({ patientId: CHILD, limit: 500 }));
      for (const secret of ['10.1.2.3', 'sub-', 'idp.example.test', '"req-']) expect(text).not.toContain(secret);
      expect(text).toContain('"svc-');
    }
  });

  it('issue 14: an unreadable store is unavailable (503), never an empty log', async () => {
    await expect(new FileAccessLog(path.join(dir, 'absent.jsonl')).page({ patientId: CHILD, limit: 5 })).rejects.toBeInstanceOf(AccessLogUnavailableError);
    const missing = PostgresAccessLog.create({ connectionString: databaseUrl(), schema: freshSchema('absent') });
    try {
      await expect(missing.page({ patientId: CHILD, limit: 5 })).rejects.toBeInstanceOf(AccessLogUnavailableError);
    } finally {
      await missing.close();
    }
  });
});

describe.skipIf(!available)('issue 14 access log: PostgreSQL serves a page from the (patient_id, time) index', () => {
  const schema = freshSchema('access_log_plan');
  let admin: pg.Pool;
  let postgres: PostgresAccessLog;

  beforeAll(async () => {
    admin = adminPool();
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    await trail.ping();
    await trail.close();
    // 100,000 rows over 1,000 patients; the hashes are placeholders (the chain is not what is measured here).
    await admin.query(`INSERT INTO "${schema}".access_log (time, request_id, operation, patient_id, delegation, source_address, outcome, status, prev_hash, hash)
      SELECT timestamptz '2026-01-01' + g * interval '1 second', 'r' || g, 'getJournalNotes',
             '19' || lpad((g % 1000)::text, 10, '0'), 'self', '10.0.0.1', 'allowed', 200, repeat('0', 64), repeat('0', 64)
        FROM generate_series(1, 100000) AS g`);
    await admin.query(`ANALYZE "${schema}".access_log`);
    postgres = PostgresAccessLog.create({ connectionString: databaseUrl(), schema });
  }, 60_000);
  afterAll(async () => {
    await postgres.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('issue 14: EXPLAIN shows the index scan for a first page and a cursor page, with 100,000 rows present', async () => {
    const patient = `19${'42'.padStart(10, '0')}`;
    const first = await postgres.page({ patientId: patient, limit: 101 });
    expect(first).toHaveLength(100);
    const after = first[49]?.position;
    const plans: string[] = [];
    for (const values of [
      [patient, '-infinity', 'infinity', '-infinity', '0', 101],
      [patient, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', new Date(after?.timeMs ?? 0).toISOString(), after?.id ?? '0', 101],
    ]) {
      const { rows } = await admin.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${pageSql(`"${schema}"`)}`.replace(/\$(\d)/g, (_, i: string) => {
        const v = values[Number(i) - 1];
        return typeof v === 'number' ? String(v) : `'${String(v)}'`;
      }));
      plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    for (const plan of plans) {
      // A plain or bitmap index scan of (patient_id, time); never a scan of the table.
      expect(plan).toMatch(/Index Scan (using|on) access_log_patient_time/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
    const next = await postgres.page({ patientId: patient, limit: 10, ...(after ? { after } : {}) });
    expect(next.map((p) => p.access.requestId)).toEqual(first.slice(50, 60).map((p) => p.access.requestId));
  });
});
