import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPostgresChain } from '../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, dropSchema, freshSchema, databaseAvailable } from '../support/database.js';
import { startProxiedAuditApp, type AuditedTestApp, type ProxiedAuditApp } from '../support/postgres-test-app.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const available = await databaseAvailable();

const ADULT = '191212121212';
const READ = '/patients/patient/?api-version=v2';
// The HTTP audit plugin's deadline; the adapter's own bound is shorter, so this is the outer limit.
const AUDIT_DEADLINE_MS = 3000;
const MARGIN_MS = 1000;
const REQUESTS = 60;
const WORKERS = 4;

interface Outcome {
  requestId: string;
  status: number;
  startedAt: number;
  endedAt: number;
  retryAfter: string | undefined;
  body: string;
}

describe.skipIf(!available)('the service with a PostgreSQL audit trail that goes away mid-run', () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let running: ProxiedAuditApp;
  let proxy: TcpProxy;
  let t: AuditedTestApp;
  let token: string;
  let familyName: string;

  beforeAll(async () => {
    admin = adminPool();
    // Down from the very start: the app must still build (docs/contract.md#what-never-happens).
    running = await startProxiedAuditApp(schema, 'refuse');
    ({ proxy, t } = running);
    token = await t.personToken(ADULT);
  });
  afterAll(async () => {
    await running?.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  const ready = async (): Promise<number> => (await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode;
  const read = (requestId: string): ReturnType<AuditedTestApp['call']> =>
    t.call({ method: 'GET', url: READ, token, headers: { 'x-request-id': requestId } });
  const untilReady = (): Promise<void> => running.untilReady();
  // Rows by the X-Request-Id each read was sent with: the caller's id, kept beside the service's own (issue 34 item 10).
  const rowsFor = async (prefix: string): Promise<Map<string, { status: number; outcome: string; patient_id: string }>> => {
    const { rows } = await admin.query<{ request_id: string; status: number; outcome: string; patient_id: string }>(
      `SELECT caller_request_id AS request_id, status, outcome, patient_id FROM "${schema}".access_log WHERE caller_request_id LIKE $1`, [`${prefix}%`]);
    return new Map(rows.map((r) => [r.request_id, r]));
  };

  it('starts while PostgreSQL is down: not ready, 503 without data, then ready and serving once it returns', async () => {
    expect(await ready()).toBe(503);
    const down = await read('start-down-1');
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).not.toContain(ADULT);
    proxy.restore();
    await untilReady();
    const up = await read('start-up-1');
    expect(up.statusCode).toBe(200);
    type PatientV2 = { patientEHRExtract: { patient?: { patientName?: { familyName?: string } } }[] }[];
    familyName = (up.json() as PatientV2)[0]?.patientEHRExtract[0]?.patient?.patientName?.familyName ?? '';
    expect(familyName.length).toBeGreaterThan(1);
    expect(up.body).toContain(ADULT);
    expect((await rowsFor('start-')).get('start-up-1')).toEqual({ request_id: 'start-up-1', status: 200, outcome: 'allowed', patient_id: ADULT });
  });

  describe.each(['refuse', 'blackhole'] as const)('cut in %s mode', (mode) => {
    it(`serves no unaudited data across ${REQUESTS} reads while the store is cut midway, and serves again once it returns`, async () => {
      proxy.restore();
      await untilReady();
      const prefix = `loop-${mode}-`;
      const outcomes: Outcome[] = [];
      const at = { cut: Infinity, restored: Infinity, ready: Infinity };
      let next = 0;
      let gate: Promise<void> = Promise.resolve();
      const worker = async (): Promise<void> => {
        for (let i = next++; i < REQUESTS; i = next++) {
          // Cut a third of the way in, with other reads in flight; restore at two thirds and hold
          // new reads (as a load balancer would) until the service says it is ready again.
          if (i === REQUESTS / 3) { proxy.cut(mode); at.cut = performance.now(); }
          if (i === (2 * REQUESTS) / 3) {
            proxy.restore();
            at.restored = performance.now();
            gate = untilReady().then(() => { at.ready = performance.now(); });
          }
          await gate;
          const startedAt = performance.now();
          const res = await read(`${prefix}${i}`);
          outcomes.push({
            requestId: `${prefix}${i}`, status: res.statusCode, startedAt, endedAt: performance.now(),
            retryAfter: res.headers['retry-after'] as string | undefined, body: res.body,
          });
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      expect(outcomes).toHaveLength(REQUESTS);

      const rows = await rowsFor(prefix);
      for (const o of outcomes) {
        expect([o.requestId, o.status]).toEqual([o.requestId, expect.toBeOneOf([200, 503])]);
        expect([o.requestId, o.endedAt - o.startedAt < AUDIT_DEADLINE_MS + MARGIN_MS]).toEqual([o.requestId, true]);
        if (o.status === 200) {
          expect([o.requestId, rows.get(o.requestId)]).toEqual([o.requestId, { request_id: o.requestId, status: 200, outcome: 'allowed', patient_id: ADULT }]);
        } else {
          expect([o.requestId, o.retryAfter]).toEqual([o.requestId, '5']);
          expect(JSON.parse(o.body)).toEqual({ statusCode: 503, message: expect.stringMatching(/cannot record/) });
          expect(o.body).not.toContain(ADULT);
          expect(o.body).not.toContain(familyName);
        }
      }
      // Reads that straddle a cut or a restore may go either way; the rest may not. (performance.now:
      // with whole milliseconds, a read and a cut in the same millisecond could not be ordered.)
      const statuses = (keep: (o: Outcome) => boolean): number[] => outcomes.filter(keep).map((o) => o.status);
      const before = statuses((o) => o.endedAt < at.cut);
      const down = statuses((o) => o.startedAt >= at.cut && o.endedAt < at.restored);
      const after = statuses((o) => o.startedAt >= at.ready);
      expect(before.length).toBeGreaterThanOrEqual(REQUESTS / 3 - WORKERS);
      expect(before).toEqual(before.map(() => 200));
      expect(down.length).toBeGreaterThanOrEqual(REQUESTS / 3 - WORKERS);
      expect(down).toEqual(down.map(() => 503));
      expect(after.length).toBeGreaterThanOrEqual(REQUESTS / 3 - WORKERS);
      expect(after).toEqual(after.map(() => 200));
      expect(await verifyPostgresChain(admin, schema)).toBe(0);
    });
  });
});
