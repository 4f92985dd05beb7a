/**
 * Hostile review helper-127 (F1): an identical write waiting its turn was made at the EHR when the
 * turn came, though its caller had hung up long before, and audited 200 OK. Over a real connection
 * (inject never closes one): a caller that leaves while its write waits costs no EHR write, and one
 * that stays is answered as ever. A write's request has a body, which Node reads to its end before the
 * handler runs; a signal that took that end for the caller leaving would drop every write.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EhrWriteResult } from '../../src/domain/writes/write-outcomes.js';
import { KEY } from '../support/app-wiring.js';
import { pollUntil } from '../support/poll.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const MIN = 60_000;
const ARRIVED = JSON.stringify({ status: 'arrived' });

describe('identical writes waiting their turn, over a real connection', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** An arrival sent on a connection of its own; `sent` resolves once the whole request has been written. */
  function arrivalOnSocket(contactId: string, token: string) {
    const req = httpRequest({
      host: '127.0.0.1', port, method: 'PUT', path: `/patients/appointments/?id=${contactId}`,
      headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.end(ARRIVED);
    return { answer, leave: () => req.destroy() };
  }

  it('makes no write for a caller that hung up while it waited, and answers one that stayed', async () => {
    const token = await t.personToken(ADULT);
    const now = t.clock.now();
    const bookings = (await t.call({ method: 'GET', url: '/patients/appointments/', token })).json<Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>>();
    const booking = bookings.flatMap((r) => r.Booking).find((b) => {
      const start = Date.parse(b.TypedStartDateTime);
      return now >= start - 120 * MIN && now <= start + 30 * MIN;
    });
    expect(booking).toBeDefined();
    const id = booking?.ContactId ?? '';

    const ehr = t.ehr;
    const register = ehr.registerArrival.bind(ehr);
    let made = 0;
    let release = (): void => undefined;
    const first = new Promise<void>((r) => { release = r; });
    ehr.registerArrival = async (patientId, contactId, arrivable): Promise<EhrWriteResult> => {
      made++;
      if (made === 1) await first;
      return register(patientId, contactId, arrivable);
    };
    try {
      const attempts = () => t.audit.records.filter((r) => r.phase === 'attempt').length;
      const ahead = t.call({ method: 'PUT', url: `/patients/appointments/?id=${id}`, token, payload: { status: 'arrived' } });
      expect(await pollUntil(async () => made, (n) => n === 1, 5000, 10)).toBe(1);

      const before = attempts();
      const leaving = arrivalOnSocket(id, token);
      leaving.answer.catch(() => undefined);
      // Its attempt is recorded just before it joins the line behind the held write.
      expect(await pollUntil(async () => attempts(), (n) => n === before + 1, 5000, 10)).toBe(before + 1);
      await new Promise((r) => setTimeout(r, 50));
      leaving.leave();
      await new Promise((r) => setTimeout(r, 50));
      release();
      expect((await ahead).json()).toMatchObject({ ResultCode: 'OK' });

      const staying = await arrivalOnSocket(id, token).answer;
      expect(staying.status).toBe(200);
      expect(JSON.parse(staying.body)).toMatchObject({ ResultCode: 'INFO', Any: [{ ReasonCode: 'ALREADY_ARRIVED' }] });
      // The held write and the one that stayed: none for the caller that left.
      expect(made).toBe(2);
      const withdrawn = await pollUntil(async () => t.audit.records.filter((r) => r.phase !== 'attempt' && r.status === 503), (r) => r.length === 1, 5000, 10);
      expect(withdrawn.map((r) => [r.outcome, r.patientId])).toEqual([['failed', ADULT]]);
    } finally {
      ehr.registerArrival = register;
    }
  });
});
