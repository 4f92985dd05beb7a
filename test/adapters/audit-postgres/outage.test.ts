import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { lockKey } from '../../../src/adapters/audit-postgres/sql-names.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseUrl, dropSchema, freshSchema, databaseAvailable, urlVia } from '../../support/database.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { fullRecord } from './records.js';
import { expectDeadlineKept, SCHEDULING_SLACK_MS } from '../../support/scheduling.js';

const available = await databaseAvailable();

const CONNECT_MS = 500;
const APPEND_MS = 1000;
const PASSWORD = 'never-in-a-warning-0123';

/** How long `p` took to settle, and how. */
async function timed(p: Promise<unknown>): Promise<{ ms: number; ok: boolean; error?: string }> {
  const started = Date.now();
  try {
    await p;
    return { ms: Date.now() - started, ok: true };
  } catch (err) {
    return { ms: Date.now() - started, ok: false, error: (err as Error).message };
  }
}

/** Waits until `check` holds: `withinMs` on a quiet machine, plus the scheduling slack a busy one may take. */
async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs + SCHEDULING_SLACK_MS) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not true within ${withinMs} ms`);
}

describe.skipIf(!available)('PostgresAuditTrail while PostgreSQL is unreachable', () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let proxy: TcpProxy;
  let trail: PostgresAuditTrail | undefined;
  let warnings: string[] = [];
  let n = 0;

  const through = (): PostgresAuditTrail => {
    const url = new URL(urlVia(proxy.port));
    url.password = PASSWORD;
    warnings = [];
    trail = PostgresAuditTrail.create({
      connectionString: url.toString(), schema, connectTimeoutMs: CONNECT_MS, appendTimeoutMs: APPEND_MS, onWarning: (m) => warnings.push(m),
    });
    return trail;
  };
  const stored = async (requestId: string): Promise<boolean> =>
    ((await admin.query(`SELECT 1 FROM "${schema}".access_log WHERE request_id = $1`, [requestId])).rowCount ?? 0) === 1;

  beforeAll(async () => {
    admin = adminPool();
    const { hostname, port } = new URL(databaseUrl());
    proxy = await TcpProxy.start(hostname, Number(port || 5432));
  });
  afterEach(async () => {
    proxy.restore();
    await trail?.close();
    trail = undefined;
  });
  afterAll(async () => {
    await proxy.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  describe.each(['refuse', 'blackhole'] as const)('cut in %s mode', (mode) => {
    it('starts anyway, is not ready, refuses appends within the bound, and recovers by itself', async () => {
      proxy.cut(mode);
      const t = through();
      const ping = await timed(t.ping().then((up) => expect(up).toBe(false)));
      expect(ping.ok).toBe(true);
      expectDeadlineKept(ping.ms, CONNECT_MS + APPEND_MS, 'ping');
      const requestId = `down-${mode}-${n++}`;
      const append = await timed(t.append(fullRecord(1, { requestId })));
      expect(append).toMatchObject({ ok: false, error: expect.stringMatching(/not stored in PostgreSQL/) });
      expectDeadlineKept(append.ms, APPEND_MS, 'append');

      proxy.restore();
      await eventually(() => t.ping(), 3000);
      const after = `up-${mode}-${n++}`;
      await t.append(fullRecord(2, { requestId: after }));
      expect(await stored(after)).toBe(true);
      expect(await stored(requestId)).toBe(false);
      expect(warnings).toEqual([expect.stringMatching(/unavailable, patient data is withheld/), 'PostgreSQL audit trail is available again']);
      expect(warnings.join('\n')).not.toContain(PASSWORD);
    });

    it('refuses every append while cut mid-run, bounded, and stores again after restore with the chain intact', async () => {
      const t = through();
      const before = Array.from({ length: 10 }, (_, i) => `mid-${mode}-a-${n}-${i}`);
      await Promise.all(before.map((requestId, i) => t.append(fullRecord(i, { requestId }))));
      proxy.cut(mode);
      const during = await Promise.all(Array.from({ length: 20 }, (_, i) => timed(t.append(fullRecord(i, { requestId: `mid-${mode}-b-${n}-${i}` })))));
      expect(during.filter((r) => r.ok)).toEqual([]);
      expectDeadlineKept(Math.max(...during.map((r) => r.ms)), APPEND_MS, 'every append');
      proxy.restore();
      const afterIds = Array.from({ length: 10 }, (_, i) => `mid-${mode}-c-${n}-${i}`);
      await eventually(() => t.ping(), 3000);
      await Promise.all(afterIds.map((requestId, i) => t.append(fullRecord(i, { requestId }))));
      n++;
      for (const id of [...before, ...afterIds]) expect([id, await stored(id)]).toEqual([id, true]);
      expect(await verifyPostgresChain(admin, schema)).toBe(0);
    });
  });

  it('bounds an append that the database holds up (the chain lock taken by a stuck writer) and resumes when it is let go', async () => {
    const t = through();
    await t.append(fullRecord(1, { requestId: `lock-${n++}` }));
    const holder = await admin.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [lockKey('chain', schema)]);
      const held = await timed(t.append(fullRecord(2, { requestId: `lock-held-${n}` })));
      expect(held).toMatchObject({ ok: false });
      expectDeadlineKept(held.ms, APPEND_MS, 'the held append');
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      holder.release();
    }
    const after = `lock-after-${n++}`;
    await t.append(fullRecord(3, { requestId: after }));
    expect(await stored(after)).toBe(true);
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });
});
