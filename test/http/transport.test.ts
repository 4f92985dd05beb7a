import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';

describe('transport-level abuse', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ requestTimeoutMs: 1000 });
  });
  afterAll(() => t.close());

  it.each([
    'APPLICATION/JSON', 'application/json ;charset=utf-8', 'application/json;', 'application/json; charset=latin1',
    ' application/json', 'application/jsonp', 'application/json, text/plain', 'text/json', 'multipart/form-data; boundary=x',
  ])('never hands an unvalidated body to a write (Content-Type %j)', async (contentType) => {
    const token = await t.personToken(ADULT);
    const res = await t.call({
      method: 'PUT', url: '/patients/appointments/?id=1', token, headers: { 'content-type': contentType },
      payload: '{"status":"arrived","extra":"x"}',
    });
    expect([400, 415]).toContain(res.statusCode);
  });

  it('closes a connection that trickles its request past the deadline (slowloris)', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    const socket = connect(Number(port), '127.0.0.1');
    const closed = new Promise<string>((resolve) => {
      let received = '';
      socket.on('data', (d) => { received += d.toString(); });
      socket.on('close', () => resolve(received));
    });
    socket.write('GET /patients/appointments/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X'), 200);
    const received = await Promise.race([closed, new Promise<string>((r) => setTimeout(() => r('still open'), 8000))]);
    clearInterval(trickle);
    socket.destroy();
    expect(received).not.toBe('still open');
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });
});
