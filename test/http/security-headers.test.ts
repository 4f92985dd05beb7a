import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
/** A person the adult may not act for. */
const STRANGER = '198112189876';

/** The head of the answer to `request`, as the server wrote it (status line and headers, in order), over a connection of its own. */
function headOf(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.once('error', reject);
  });
}

/** Values that differ between two answers to the same request whatever the code: the date, the service's own id, the window's seconds left. */
const VOLATILE = /^(date|x-request-id|x-ratelimit-reset|ratelimit|retry-after|keep-alive): .*$/gim;
const normalised = (head: string): string => head.replace(VOLATILE, (line) => `${line.slice(0, line.indexOf(':'))}: …`);

interface Case { name: string; method: string; path: string; headers: Record<string, string> }

async function cases(t: TestApp): Promise<Case[]> {
  const auth = { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${await t.personToken(ADULT)}` };
  return [
    { name: 'a small read', method: 'GET', path: '/patients/appointments/', headers: auth },
    { name: 'a journal', method: 'GET', path: '/patients/journalnotes/', headers: auth },
    { name: 'HEAD of a read', method: 'HEAD', path: '/patients/medications/', headers: auth },
    { name: 'a FHIR search', method: 'GET', path: '/fhir/Composition', headers: auth },
    { name: 'no key (401)', method: 'GET', path: '/patients/appointments/', headers: { authorization: auth.authorization } },
    { name: 'no token (401)', method: 'GET', path: '/patients/appointments/', headers: { 'ocp-apim-subscription-key': KEY } },
    { name: 'a bad token (401)', method: 'GET', path: '/patients/appointments/', headers: { ...auth, authorization: 'Bearer a.b.c' } },
    { name: 'another patient (403)', method: 'GET', path: '/patients/appointments/', headers: { ...auth, patient: STRANGER } },
    { name: 'a bad bound (400)', method: 'GET', path: '/patients/appointments/?fromDateTime=yesterday', headers: auth },
    { name: 'an unknown path (404)', method: 'GET', path: '/patients/nothing-here/', headers: auth },
    { name: 'another method (405)', method: 'DELETE', path: '/patients/appointments/', headers: auth },
    { name: 'health', method: 'GET', path: '/health/live', headers: {} },
    { name: 'the OpenAPI document', method: 'GET', path: '/openapi.json', headers: {} },
    { name: 'the rate limit (429)', method: 'GET', path: '/patients/medications/', headers: auth },
  ];
}

const requestText = (c: Case): string =>
  `${c.method} ${c.path} HTTP/1.1\r\nhost: localhost\r\n${Object.entries(c.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}connection: close\r\n\r\n`;

/** Every case's head, then the audit store down (503), then the rate limit's refusal. */
async function headsOf(t: TestApp): Promise<string[]> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const all = await cases(t);
  const heads: string[] = [];
  for (const c of all.slice(0, -1)) heads.push(`${c.name}\n${normalised(await headOf(port, requestText(c)))}`);
  t.audit.mode = 'fail';
  heads.push(`the audit store down (503)\n${normalised(await headOf(port, requestText(all[0] as Case)))}`);
  t.audit.mode = 'ok';
  const limited = all.at(-1) as Case;
  let head = '';
  for (let i = 0; i < RATE_LIMIT + 1; i++) head = await headOf(port, requestText(limited));
  heads.push(`${limited.name}\n${normalised(head)}`);
  return heads;
}

const RATE_LIMIT = 20;

describe('issue 56 item 4: the security headers made once are helmet\'s, byte for byte', () => {
  let precomputed: TestApp;
  let eachRequest: TestApp;
  beforeAll(async () => {
    precomputed = await startTestApp({ rateLimitMax: RATE_LIMIT });
    eachRequest = await startTestApp({ rateLimitMax: RATE_LIMIT, securityHeadersEachRequest: true });
  });
  afterAll(async () => {
    await precomputed.close();
    await eachRequest.close();
  });

  it('every answer, errors included, has the same head as with helmet run for the request, in the same order', async () => {
    const optimised = await headsOf(precomputed);
    const helmetRun = await headsOf(eachRequest);
    expect(optimised).toEqual(helmetRun);
    // The comparison is of real answers: each kind of status came out, and helmet's headers are there.
    const statuses = optimised.map((h) => /HTTP\/1\.1 (\d{3})/.exec(h)?.[1]);
    expect(statuses).toEqual(['200', '200', '200', '200', '401', '401', '401', '403', '400', '404', '405', '200', '200', '503', '429']);
    // Outside the API (health, its document) helmet never ran, before or now; a path or method no route serves gets the API's headers.
    for (const head of optimised.filter((h) => !/^(health|the OpenAPI)/.test(h))) {
      expect(head).toMatch(/\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n/i);
      expect(head).toMatch(/\r\nx-frame-options: DENY(\r\n|$)/i);
    }
  });
});
