import { METHODS } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import type { HTTPMethods } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, OTHER_KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO } from './support/oracles.js';
import { expectedAnswer, queryString, requestOf, ROUTES, type RouteCase } from './support/routes.js';
import { answerProblems, asAnswer, expectDocumentedAnswer } from './support/shape.js';
import { assertProperty } from '../support/seeds.js';

/**
 * threat 16 of docs/threat-model.md#who-may-see-whom-api1-api5 (every method on every route), threat 21 (rate-limit evasion through forwarded-address
 * headers on a real connection) and unknown or crafted paths: nothing under /patients answers 2xx
 * without both credentials.
 */

// CONNECT takes an authority, not a path; QUERY has its own test below; every other method Node knows is tried.
const ALL_METHODS = METHODS.filter((m) => m !== 'CONNECT' && m !== 'QUERY') as HTTPMethods[];
const used = new UsedSecrets();
used.key(KEY);
used.key(OTHER_KEY);
used.identity(DEMO.TOLVAN);

const PATHS = [...new Set(ROUTES.map((r) => r.path))];
/** The route a (method, path) pair reaches, if declared; HEAD is declared wherever GET is. */
function declared(method: string, path: string): RouteCase | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  // Where api-version chooses between two operations, the first of the table is the one without it.
  return ROUTES.find((r) => r.path === path && r.method === m);
}

overBothEhrs((variant) => {
  describe('every method on every route', () => {
    let t: AnyTestApp;
    let token: string;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      token = used.token(await t.personToken(DEMO.TOLVAN));
    });
    afterAll(() => t.close());

    it('answers declared pairs with the same checks as GET, and undeclared ones with 405 and Allow in the shape of the path: never 2xx without credentials', async () => {
      let declaredCount = 0;
      for (const path of PATHS) {
        // The table's form and the other (a slash taken off, or put on a path that ends in a grant id or step): both answer.
        for (const url of [path, path.endsWith('/') ? path.slice(0, -1) : `${path}/`]) {
          for (const method of ALL_METHODS) {
            const route = declared(method, path);
            const base = route ? requestOf(route, { url: `${url}${queryString(route.query)}` }) : { method, url };
            for (const credentials of ['none', 'key', 'both'] as const) {
              const label = `${method} ${url} with ${credentials}`;
              const res = await t.call({
                ...base, method,
                ...(credentials === 'none' ? { key: null } : {}), ...(credentials === 'both' ? { token } : {}),
              });
              // An undeclared method on a documented path is 405 with Allow, in the path's error shape (issue 22 item 3).
              const atPath = ROUTES.find((r) => r.path === path);
              const success = route === undefined ? undefined : expectedAnswer(route, { allowed: true, self: DEMO.TOLVAN });
              const problems = answerProblems(route ?? atPath, asAnswer(res), { method, allowed: success === undefined ? [405] : [success, 401] });
              expect([label, problems]).toEqual([label, []]);
              if (!route) {
                expect([label, res.headers.allow]).toEqual([label, expect.stringMatching(/^(GET|HEAD|PUT|POST|DELETE)(, (GET|HEAD|PUT|POST|DELETE))*$/)]);
                continue;
              }
              declaredCount++;
              expect([label, res.statusCode]).toEqual([label, credentials === 'both' ? success : 401]);
              if (credentials === 'key') expect(res.headers['www-authenticate']).toBe('Bearer');
              if (method === 'HEAD' && credentials === 'both') {
                const get = await t.call({ ...base, method: 'GET', token });
                expect(res.headers['content-type']).toBe(get.headers['content-type']);
                expect(res.body).toBe('');
              }
            }
          }
        }
      }
      // Each method and path of the operation table (GET with HEAD beside it), with and without the slash, three credential states.
      const pairs = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
      const withHead = [...pairs].filter((pair) => pair.startsWith('GET ')).length;
      expect(declaredCount).toBe((pairs.size + withHead) * 2 * 3);
    });

    it('answers crafted paths under /patients (traversal, encodings, case, doubled slashes) never with 2xx without credentials (property)', async () => {
      const segment = fc.constantFrom(
        'patients', 'appointments', 'patient', 'contacts', 'attentionsignals', 'videomeetings', 'medications', 'journalnotes', 'paymentnotice',
        '..', '.', '%2e%2e', '%2E%2E%2F', '..%2F', '%2F', '%5C', '', 'APPOINTMENTS', 'Patients', '%00', ';x=1', '*', '~', 'health', 'live', 'docs', 'metrics', '%20', '%C3%A5',
      );
      await assertProperty(fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.constantFrom(...ALL_METHODS), fc.constantFrom('none', 'key'), fc.boolean(),
        async (segments, method, credentials, slash) => {
          const url = `/patients/${segments.join('/')}${slash ? '/' : ''}`;
          const withCredentials = credentials === 'none' ? { key: null } : {};
          const res = await t.call({ method, url, ...withCredentials });
          const label = `${method} ${url} with ${credentials}`;
          // The injected request's URL is resolved as a client resolves it (WHATWG), so `..` can lead
          // out of /patients (`/patients/..` is `/`, a redirect to /docs): there the answer is the
          // resolved path's own, and the property is about the API's paths only.
          const resolved = new URL(url, 'http://127.0.0.1').pathname;
          if (!resolved.startsWith('/patients/')) {
            const direct = await t.call({ method, url: resolved, ...withCredentials });
            expect([label, res.statusCode]).toEqual([label, direct.statusCode]);
            return;
          }
          expect([label, res.statusCode >= 200 && res.statusCode < 300]).toEqual([label, false]);
          expect([label, [400, 401, 404, 405].includes(res.statusCode)]).toEqual([label, true]);
          // Shape 1, or shape 2 where the path reached operation 6, 7 or 8.
          const shape1 = answerProblems(undefined, asAnswer(res), { method, allowed: [400, 401, 404, 405] });
          const shape2 = answerProblems(ROUTES.find((r) => r.errorShape === 'error'), asAnswer(res), { method, allowed: [400, 401, 404, 405] });
          expect([label, shape1.length === 0 || shape2.length === 0 ? [] : shape1]).toEqual([label, []]);
        }), { seeds: [4531, 4532, 4533], numRuns: runsOver(variant, 300) });
    });

    it('answers QUERY (a method with a body that Node knows) on an API path like any other undeclared method: 404/405', async () => {
      for (const path of PATHS) {
        for (const credentials of ['none', 'both'] as const) {
          const res = await t.call({ method: 'QUERY' as HTTPMethods, url: path, ...(credentials === 'none' ? { key: null } : { token }) });
          expect([path, credentials, [404, 405].includes(res.statusCode)]).toEqual([path, credentials, true]);
        }
      }
    });

    it('answers a path with a malformed percent-encoding in shape 1 with a fixed text, echoing nothing of the path', async () => {
      const paths = ['/patients/%ZZ', '/patients/appointments/%E0%A4%A', `/patients/${DEMO.TOLVAN}/%ZZ`, '/patients/contacts/%', '/nowhere/%G1'];
      for (const url of paths) {
        const res = await t.call({ method: 'GET', url, token });
        expect([url, res.statusCode]).toEqual([url, 400]);
        expect([url, answerProblems(undefined, asAnswer(res), { allowed: [400] })]).toEqual([url, []]);
        expect(res.body).not.toContain(url.split('/')[2] ?? url);
        expect(res.body).not.toContain(DEMO.TOLVAN);
      }
    });

    // Hostile review (2026-11-27): these 400s, answered by the router's error handler before any hook,
    // came with neither the API's security headers nor X-Request-Id, and left no line in the request log.
    it('answers a URL the router refuses (a malformed percent-encoding, a path segment over 100 characters) with the API\'s headers, a request id and a log line', async () => {
      const paths = ['/%E0%A4%A', '/patients/contacts/%E0?api-version=v2', `/fhir/Observation/${'a'.repeat(120)}`];
      for (const url of paths) {
        const res = await t.call({ method: 'GET', url, token });
        expect([url, res.statusCode]).toEqual([url, 400]);
        expect([url, res.headers['x-frame-options'], res.headers['content-security-policy'], res.headers['referrer-policy'], res.headers['x-content-type-options']])
          .toEqual([url, 'DENY', "default-src 'none';frame-ancestors 'none'", 'no-referrer', 'nosniff']);
        const id = res.headers['x-request-id'];
        expect([url, typeof id]).toEqual([url, 'string']);
        const logged = t.logLines.map((l) => JSON.parse(l) as { msg?: string; reqId?: string; res?: { statusCode?: number } })
          .filter((l) => l.msg === 'request completed' && l.reqId === id);
        expect([url, logged.map((l) => l.res?.statusCode)]).toEqual([url, [400]]);
      }
    });

    it('keeps its logs one JSON line per entry, with no token or key', () => {
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

overBothEhrs((variant) => {
  describe('rate-limit evasion through forwarded-address headers, on a real connection', () => {
    let t: AnyTestApp;
    let base: string;
    beforeAll(async () => {
      t = await startTestAppOn(variant, { ...STEADY, rateLimitMax: 3, rateLimitWindowMs: 60_000 });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(() => t.close());

    it('counts per subscription key whatever X-Forwarded-For, X-Real-IP or Forwarded say, and audits the socket address', async () => {
      const token = used.token(await t.personToken(DEMO.TOLVAN));
      const get = async (i: number, key = KEY) => {
        const forged = `10.${i}.${i}.${i}`;
        const res = await request(`${base}/patients/attentionsignals/`, {
          headers: {
            'ocp-apim-subscription-key': key, authorization: `Bearer ${token}`,
            'x-forwarded-for': `${forged}, 203.0.113.${i}`, 'x-real-ip': forged, forwarded: `for=${forged};proto=https`, 'x-client-ip': forged,
          },
        });
        const body = await res.body.text();
        expectDocumentedAnswer(ROUTES.find((r) => r.operation === 'getAttentionSignals'), { statusCode: res.statusCode, headers: res.headers, body }, `request ${i}`);
        return res;
      };
      const statuses: number[] = [];
      const retryAfter: string[] = [];
      for (let i = 1; i <= 8; i++) {
        const res = await get(i);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) retryAfter.push(String(res.headers['retry-after']));
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      expect(retryAfter.every((s) => /^[1-9]\d*$/.test(s))).toBe(true);
      expect((await get(9, OTHER_KEY)).statusCode).toBe(200);
      const addresses = new Set(t.audit.records.map((r) => r.sourceAddress));
      expect([...addresses]).toEqual(['127.0.0.1']);
      expect(used.foundIn(t.logLines)).toEqual([]);
      expect(t.logLines.join('')).not.toContain('10.5.5.5');
    });
  });
});

overBothEhrs((variant) => {
  describe('requests refused before they reach the app (Node\'s HTTP parser)', () => {
    let t: AnyTestApp;
    let base: string;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(() => t.close());

    it('answers a request Node\'s HTTP parser refuses (a control byte in a header) in shape 1, and keeps serving', async () => {
      const { port } = new URL(base);
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        let received = '';
        socket.on('data', (d) => { received += d.toString('latin1'); });
        socket.on('close', () => resolve(received));
        socket.on('error', () => resolve(received));
        socket.write('GET /patients/appointments/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0001b\r\nConnection: close\r\n\r\n');
      });
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      const after = await request(`${base}/health/live`);
      expect(after.statusCode).toBe(200);
      await after.body.dump();
      // docs/contract.md#errors: every error body outside operations 6–8 is shape 1 {statusCode, message}.
      expect(JSON.parse(body)).toEqual({ statusCode: 400, message: expect.any(String) });
    });

  });
});
