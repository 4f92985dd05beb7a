import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';

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

// Hostile review (helper-78, F7): a GET announcing a body with `Expect: 100-continue` got
// `100 Continue` before its 400, inviting the body (perhaps a token) it is then refused for.
describe('Expect: 100-continue', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  afterAll(() => t.close());

  /** What the service writes before the body is sent: the first response line, once the first line has come. */
  const firstLine = (head: string): Promise<string> => new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString();
      if (received.includes('\r\n')) {
        socket.destroy();
        resolve(received.slice(0, received.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
    socket.write(head);
  });

  /** Everything the service writes on one connection after `bytes`, until it closes it. */
  const untilClosed = (bytes: string): Promise<string> => new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => { text += d.toString(); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });

  it('is refused on a GET or HEAD without the 100 that would invite the body; a PUT still gets its 100', async () => {
    const token = await t.personToken(ADULT);
    const headers = (method: string) => `${method} /patients/appointments/${method === 'PUT' ? '?id=1' : ''} HTTP/1.1\r\nHost: 127.0.0.1\r\n`
      + `Authorization: Bearer ${token}\r\nOcp-Apim-Subscription-Key: ${KEY}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 20\r\n\r\n`;
    expect(await firstLine(headers('GET'))).toBe('HTTP/1.1 400 Bad Request');
    expect(await firstLine(headers('HEAD'))).toBe('HTTP/1.1 400 Bad Request');
    expect(await firstLine(headers('PUT'))).toBe('HTTP/1.1 100 Continue');
  });

  // Hostile review (helper-79, 1): a GET with a body that no API route refused (a health check, a 404)
  // was answered keep-alive, and the next request on that connection, anyone's, was refused.
  it('closes the connection of a GET with a body whatever answered it, so none after it is refused on a reused one', async () => {
    const answer = await untilClosed('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello');
    expect(answer.slice(0, answer.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });

  // Hostile review (helper-78, F6): a request pipelined behind a refused GET with a body was still read
  // from the EHR and audited as allowed, while the closed connection never carried its answer.
  it('refuses what is pipelined behind a GET with a body too, reading nothing for it, and answers only the first', async () => {
    const token = await t.personToken(ADULT);
    const before = t.audit.records.length;
    const get = (body: string) => `GET /patients/journalnotes/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n`
      + `Ocp-Apim-Subscription-Key: ${KEY}\r\n${body === '' ? '' : `Content-Length: ${body.length}\r\n`}\r\n${body}`;
    const received = await untilClosed(get('abc') + get(''));
    expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 400']);
    await expect.poll(() => t.audit.records.length - before).toBe(2);
    expect(t.audit.records.slice(before).map((r) => [r.status, r.outcome])).toEqual([[400, 'denied'], [400, 'denied']]);
  });
});
