import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPostgresChain } from '../../src/adapters/audit-postgres/verify-chain.js';
import { bookingInWindow } from '../support/bookings.js';
import { adminPool, databaseAvailable, dropSchema, freshSchema } from '../support/database.js';
import { startProxiedAuditApp, type AuditedTestApp, type ProxiedAuditApp } from '../support/postgres-test-app.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { expectDeadlineKept } from '../support/scheduling.js';

const available = await databaseAvailable();

const ADULT = '191212121212';
const CHILD = '201701012393';

describe.skipIf(!available)('writes while the PostgreSQL audit store is killed (issue 12 item 2, threat 36 of docs/threat-model.md#found-by-independent-review)', () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let running: ProxiedAuditApp;
  let proxy: TcpProxy;
  let t: AuditedTestApp;

  beforeAll(async () => {
    admin = adminPool();
    running = await startProxiedAuditApp(schema);
    ({ proxy, t } = running);
  });
  afterAll(async () => {
    await running?.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  const untilReady = (): Promise<void> => running.untilReady();
  const arrive = async (token: string, id: string, requestId: string) => t.call({
    method: 'PUT', url: `/patients/appointments/?id=${id}`, token, payload: { status: 'arrived' }, headers: { 'x-request-id': requestId },
  });
  const pay = async (token: string, contactId: string, requestId: string) => t.call({
    method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId, paymentType: 'CARD' }, headers: { 'x-request-id': requestId },
  });
  const rowsOf = async (requestId: string): Promise<Array<{ phase: string; status: number | null; service_request_id: string }>> =>
    (await admin.query(`SELECT phase, status, service_request_id FROM "${schema}".access_log WHERE caller_request_id = $1 ORDER BY id`, [requestId])).rows;
  const expectRefused = (res: Awaited<ReturnType<AuditedTestApp['call']>>): void => {
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/cannot record/) });
  };

  it('issue 12 item 2: audit store killed before a write → 503 and the EHR unchanged; the same write afterwards is OK, not INFO (arrival, then payment)', async () => {
    await untilReady();
    const token = await t.personToken(ADULT);
    const booking = await bookingInWindow(t, ADULT);

    proxy.cut('refuse');
    expectRefused(await arrive(token, booking.ContactId, 'arrive-down'));
    proxy.restore();
    await untilReady();
    expect((await arrive(token, booking.ContactId, 'arrive-up')).json()).toMatchObject({ ResultCode: 'OK', Any: [{ ReasonCode: 'ARRIVAL_REGISTERED' }] });

    proxy.cut('refuse');
    expectRefused(await pay(token, booking.ContactId, 'pay-down'));
    proxy.restore();
    await untilReady();
    expect((await pay(token, booking.ContactId, 'pay-up')).json()).toMatchObject([{ ResultCode: 'OK', Any: [{ ReasonCode: 'PAYMENT_REGISTERED' }] }]);

    // The refused writes left nothing (the store was down); each stored write left its attempt, then its outcome.
    expect([await rowsOf('arrive-down'), await rowsOf('pay-down')]).toEqual([[], []]);
    for (const id of ['arrive-up', 'pay-up']) {
      const rows = await rowsOf(id);
      expect(rows.map((r) => [r.phase, r.status])).toEqual([['attempt', null], ['outcome', 200]]);
      expect(rows[0]?.service_request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(rows[1]?.service_request_id).toBe(rows[0]?.service_request_id);
    }
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });

  it('issue 12 item 2: a store that stops answering (blackhole) → 503 within the deadline and the EHR unchanged', async () => {
    await untilReady();
    const token = await t.personToken(CHILD);
    const booking = await bookingInWindow(t, CHILD);
    proxy.cut('blackhole');
    const started = performance.now();
    expectRefused(await arrive(token, booking.ContactId, 'hang-down'));
    expectDeadlineKept(performance.now() - started, 0, 'refused');
    proxy.restore();
    await untilReady();
    expect((await arrive(token, booking.ContactId, 'hang-up')).json()).toMatchObject({ ResultCode: 'OK' });
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });
});
