/**
 * What Node's HTTP parser refuses before Fastify sees a request (431 a header block over its limit, 400
 * a malformed request, 408 a request still arriving at its deadline) is answered on the socket by
 * src/http/transport-errors.ts, and still as every other answer of the API: its own X-Request-Id, the
 * API's security headers, `Cache-Control: no-store`, one log line without the path as written, and a
 * body in the shape of the path's door (an OperationOutcome under /fhir, else shape 1).
 */
import type { AddressInfo } from 'node:net';
import { answerUntilClosed as answerTo, type RawAnswer } from '../support/raw-http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Over Node's 16 KiB header limit. */
const PAD = 'x'.repeat(20_000);


const raw = (target: string, headers: Record<string, string> = {}): string =>
  `GET ${target} HTTP/1.1\r\nhost: localhost\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}connection: close\r\n\r\n`;

/** The headers an ordinary API answer carries whatever answered it: not those of its status, its body or its rate limit. */
const ANSWER_SPECIFIC = /^(date|connection|keep-alive|content-length|content-type|x-request-id|www-authenticate|vary|(x-)?ratelimit(-.*)?)$/;

describe('Node\'s parser\'s refusals answered as every answer of the API', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  /** An ordinary refusal's headers (a 401 from the credentials check), the API's own, to hold the socket's answers to. */
  let ordinary: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp({ requestTimeoutMs: 1000 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    token = await t.personToken(ADULT);
    const answer = await answerTo(port, raw('/patients/appointments/', { 'ocp-apim-subscription-key': KEY }));
    expect(answer.status).toBe(401);
    ordinary = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !ANSWER_SPECIFIC.test(name)));
    expect(ordinary).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });
  afterAll(() => t.close());

  /** The headers every answer has: its own id, and each of the ordinary answer's headers with the same value. */
  const expectEdge = (answer: RawAnswer): void => {
    expect(answer.headers['x-request-id']).toMatch(UUID);
    expect(answer.headers).toMatchObject(ordinary);
    expect(answer.headers.connection).toBe('close');
    // Failed before: no Date, which Node writes on every other answer.
    expect(Math.abs(Date.parse(answer.headers.date ?? '') - Date.now())).toBeLessThan(60_000);
  };
  const logLineOf = (reqId: string | undefined): Record<string, unknown> | undefined => t.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.reqId === reqId);

  it.each([
    ['a header block over the limit (431)', `/patients/appointments/?pad=${PAD}`, 431, 'HPE_HEADER_OVERFLOW'],
    ['a control byte in a header (400)', '/patients/appointments/', 400, 'HPE_INVALID_HEADER_TOKEN'],
  ] as const)('%s outside /fhir: shape 1, the API\'s headers, one log line without the path', async (_name, target, status, code) => {
    const headers = { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}`, patient: ADULT, ...(status === 400 ? { 'x-bad\u0001': '1' } : {}) };
    const answer = await answerTo(port, raw(target, headers));
    expect(answer.status).toBe(status);
    expectEdge(answer);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ statusCode: status, message: expect.any(String) });
    const line = logLineOf(answer.headers['x-request-id']);
    expect(line).toMatchObject({ msg: 'request completed', refusal: code, res: { statusCode: status }, req: { method: 'GET', path: '(unmatched path)' } });
  });

  it.each([
    ['a header block over the limit (431)', `/fhir/Observation?patient=${ADULT}&pad=${PAD}`, 431, 'too-long'],
    ['a control byte in a header (400)', `/fhir/Observation?patient=${ADULT}`, 400, 'invalid'],
  ] as const)('%s under /fhir: an OperationOutcome as application/fhir+json, with the API\'s headers', async (_name, target, status, code) => {
    const answer = await answerTo(port, raw(target, { authorization: `Bearer ${token}`, ...(status === 400 ? { 'x-bad\u0001': '1' } : {}) }));
    expect(answer.status).toBe(status);
    expectEdge(answer);
    expect(answer.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics: expect.any(String) }] });
    expect(logLineOf(answer.headers['x-request-id'])).toMatchObject({ refusal: expect.any(String), res: { statusCode: status }, req: { path: '(unmatched path)' } });
  });

  it.each(['/fhir/Observation', '/patients/appointments/'])('a HEAD of %s refused by the parser: the header block alone, as every answer to HEAD', async (target) => {
    // Failed before: the answer carried its OperationOutcome or shape-1 body after the header block.
    const answer = await answerTo(port, raw(target, { 'x-bad\u0001': '1' }).replace(/^GET/, 'HEAD'));
    expect(answer.status).toBe(400);
    expectEdge(answer);
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    expect(answer.body).toBe('');
  });

  it('a request still arriving at its deadline (408): shape 1 with the API\'s headers and a log line, though its path is unknown', async () => {
    const answer = await answerTo(port, 'GET /fhir/Observation HTTP/1.1\r\nhost: localhost\r\n', true);
    expect(answer.status).toBe(408);
    expectEdge(answer);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 408, message: 'The request was not received in time.' });
    expect(logLineOf(answer.headers['x-request-id'])).toMatchObject({ refusal: 'ERR_HTTP_REQUEST_TIMEOUT', res: { statusCode: 408 } });
  });

  it('logs no token or identity number of the refused requests', () => {
    const logs = t.logLines.join('');
    expect(logs).not.toContain(ADULT);
    expect(logs).not.toContain(token.split('.')[1]);
    expect(logs).not.toContain(PAD.slice(0, 100));
  });
});
