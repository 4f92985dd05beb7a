import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../src/adapters/audit-file/file-audit-trail.js';
import { isAttempt, type AuditRecord } from '../../src/ports/audit-trail.port.js';
import { REFUSAL_WINDOW_MS } from '../../src/http/refusal-tally.js';
import { KEY, OTHER_KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO } from './support/oracles.js';
import { expectedAnswer, requestOf, ROUTES, urlOf, type RouteCase } from './support/routes.js';
import { expectDocumentedAnswer } from './support/shape.js';
import { assertProperty } from '../support/seeds.js';

/**
 * threat 31 of docs/threat-model.md#audit-and-logs-v16-pdl (exactly one audit record per access, whatever the outcome), threat 33 (log injection:
 * CR/LF never makes a second log line or a forged record) and threat 34 (no token, key or identity
 * number in any log line of these runs).
 */

const used = new UsedSecrets();
used.key(KEY);
used.key(OTHER_KEY);
for (const id of Object.values(DEMO)) used.identity(id);
const logs: AnyTestApp[] = [];

type Outcome = 'allowed' | 400 | 401 | 403 | 413 | 415 | 429 | 503;

interface Planned {
  app: AnyTestApp;
  options: Parameters<AnyTestApp['call']>[0];
  status: number;
  /** Which parts of the record this outcome can know. */
  knows: { subscription: boolean; actor: boolean; patient?: string; delegation?: string };
}

overBothEhrs((variant) => {
  describe('exactly one audit record per request, over route × outcome (property)', () => {
    let main: AnyTestApp;
    let limited: AnyTestApp;
    let pressured: AnyTestApp;
    let person: string;
    let kiosk: string;
    let readOnly: string;

    beforeAll(async () => {
      main = await startTestAppOn(variant, STEADY);
      limited = await startTestAppOn(variant, { ...STEADY, rateLimitMax: 1, rateLimitWindowMs: 120_000 });
      pressured = await startTestAppOn(variant, { protection: { pressureMaxEventLoopDelayMs: 0, pressureMaxHeapUsedMb: 1 } });
      logs.push(main, limited, pressured);
      person = used.token(await main.personToken(DEMO.TOLVAN));
      kiosk = used.token(await main.clientToken());
      readOnly = used.token(await main.personToken(DEMO.TOLVAN, { scope: 'openid' }));
      // Spend the one request of the limited app's window, and wait until the pressured app sheds.
      expect((await limited.call({ ...requestOf(ROUTES[2] as RouteCase), token: used.token(await limited.personToken(DEMO.TOLVAN)) })).statusCode).toBe(200);
      const probe = used.token(await pressured.personToken(DEMO.TOLVAN));
      for (let i = 0; i < 40 && (await pressured.call({ ...requestOf(ROUTES[2] as RouteCase), token: probe })).statusCode !== 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    afterAll(async () => {
      await Promise.all([main.close(), limited.close(), pressured.close()]);
    });

    async function plan(route: RouteCase, outcome: Outcome, variant: number): Promise<Planned> {
      const base = requestOf(route);
      switch (outcome) {
        case 'allowed':
          // Sharing is the person's own (a client token is refused): their list, an unknown grant's 404, a new grant.
          return variant % 2 === 0 || route.proxy
            ? { app: main, options: { ...base, token: person }, status: expectedAnswer(route, { allowed: true, self: DEMO.TOLVAN }), knows: { subscription: true, actor: true, patient: DEMO.TOLVAN, delegation: 'self' } }
            : { app: main, options: { ...base, token: kiosk, patient: DEMO.LILLA }, status: 200, knows: { subscription: true, actor: true, patient: DEMO.LILLA, delegation: 'client' } };
        case 400:
          return variant % 2 === 0
            ? { app: main, options: { ...base, token: person, patient: '19121212-121' }, status: 400, knows: { subscription: true, actor: true } }
            : route.declaredQuery
              ? { app: main, options: { ...requestOf(route, { url: urlOf(route, [['unexpected', '1']]) }), token: person }, status: 400, knows: { subscription: true, actor: true } }
              : { app: main, options: { ...requestOf(route, { body: { ...route.body, status: 'UNPAID' } }), token: person }, status: 400, knows: { subscription: true, actor: true } };
        case 401:
          return [
            { app: main, options: { ...base, token: person, key: null }, status: 401, knows: { subscription: false, actor: false } },
            { app: main, options: { ...base, token: `${person.slice(0, -4)}AAAA` }, status: 401, knows: { subscription: true, actor: false } },
            { app: main, options: { ...base }, status: 401, knows: { subscription: true, actor: false } },
          ][variant % 3] as Planned;
        case 403:
          return variant % 2 === 0
            ? { app: main, options: { ...base, token: person, patient: DEMO.MARTA }, status: 403, knows: { subscription: true, actor: true, patient: DEMO.MARTA } }
            : { app: main, options: { ...base, token: readOnly }, status: 403, knows: { subscription: true, actor: true } };
        case 413:
          return { app: main, options: { ...base, token: person, payload: JSON.stringify({ ...route.body, pad: 'x'.repeat(17_000) }) }, status: 413, knows: { subscription: true, actor: true } };
        case 415:
          return { app: main, options: { ...base, token: person, headers: { 'content-type': 'text/plain' } }, status: 415, knows: { subscription: true, actor: true } };
        case 429:
          // The token is verified before the limit counts (issue 20 item 3), so the record names the caller.
          return { app: limited, options: { ...base, token: used.token(await limited.personToken(DEMO.TOLVAN)) }, status: 429, knows: { subscription: true, actor: true } };
        default:
          return { app: pressured, options: { ...base, token: used.token(await pressured.personToken(DEMO.TOLVAN)) }, status: 503, knows: { subscription: false, actor: false } };
      }
    }

    it('writes one record with who, client, subscription, for whom, basis, operation, UTC time, address, outcome and request id', async () => {
      const outcomes: Outcome[] = ['allowed', 400, 401, 403, 429, 503];
      const seen = new Set<string>();
      const keyless = new Set<string>();
      await assertProperty(fc.asyncProperty(
        // A caller's id with nothing to scrub (digits only in short runs between letters, one case): kept as sent (issue 34 item 10).
        fc.constantFrom(...ROUTES), fc.constantFrom(...outcomes, 413, 415), fc.nat({ max: 5 }), fc.stringMatching(/^[a-z][a-z._:-]{0,7}(?:[0-9]{1,4}[a-z]{1,8}){0,5}$/),
        async (route, picked, variant, requestId) => {
          const outcome: Outcome = (picked === 413 || picked === 415) && !route.write ? 400 : picked;
          const { app, options, status, knows } = await plan(route, outcome, variant);
          const before = app.audit.records.length;
          const res = await app.call({ ...options, headers: { ...options.headers, 'x-request-id': requestId } });
          const label = `${route.operation} ${outcome}/${variant}`;
          expectDocumentedAnswer(route, res, label);
          expect([label, res.statusCode]).toEqual([label, status]);
          // One outcome record per request; a change made (a write, a sharing change) stores its attempt record first (issue 12 item 2).
          const all = app.audit.records.slice(before);
          const records = all.filter((r) => !isAttempt(r));
          // Refused before authentication (no valid key, or no valid token): the first of its key, operation and
          // status in a minute is audited (issue 12 item 4, issue 20 item 4); so is a refusal by the rate limit, per
          // caller too (issue 44 item 4: here always Tolvan's token on one key).
          const kind = (!knows.actor && status < 500) || status === 429 ? `${route.operation} ${status} ${String(knows.subscription)}` : undefined;
          const tallied = kind !== undefined && keyless.has(kind);
          if (kind !== undefined) keyless.add(kind);
          expect([label, records.length]).toEqual([label, tallied ? 0 : 1]);
          if (tallied) return;
          const record = records[0] as AuditRecord;
          const attempts = all.filter(isAttempt);
          expect([label, attempts.length]).toEqual([label, route.changes && status < 400 ? 1 : 0]);
          if (attempts[0]) expect([label, all.indexOf(attempts[0]), attempts[0].serviceRequestId]).toEqual([label, 0, record.serviceRequestId]);
          // The service's own id, answered and recorded; the caller's kept beside it (issue 34 item 10).
          expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
          expect([record.requestId, record.serviceRequestId, record.callerRequestId]).toEqual([res.headers['x-request-id'], res.headers['x-request-id'], requestId]);
          // getPatientV2 shares its route with getPatient; refused before the handler it is named by the route (finding F6, own test).
          expect([label, route.operation === 'getPatientV2' ? ['getPatient', 'getPatientV2'].includes(record.operation) : record.operation === route.operation]).toEqual([label, true]);
          expect(record.status).toBe(status);
          expect(record.outcome).toBe(status < 400 ? 'allowed' : status >= 500 ? 'failed' : 'denied');
          expect(record.time).toBe(new Date(app.clock.now()).toISOString());
          expect(record.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          expect(record.sourceAddress).toBe('127.0.0.1');
          expect([label, record.subscription]).toEqual([label, knows.subscription ? 'test' : undefined]);
          if (knows.actor) {
            expect([label, record.actor?.issuer, typeof record.actor?.subject]).toEqual([label, app.issuer.issuer, 'string']);
          } else {
            expect([label, record.actor]).toEqual([label, undefined]);
          }
          if (knows.patient !== undefined) expect([label, record.patientId]).toEqual([label, knows.patient]);
          if (knows.delegation !== undefined) expect([label, record.delegation]).toEqual([label, knows.delegation]);
          if (options.token === kiosk && status < 400) expect(record.clientId).toBe('kiosk-1');
          const text = JSON.stringify(record);
          for (const secret of [KEY, OTHER_KEY, ...(options.token ? options.token.split('.') : [])]) expect(text).not.toContain(secret);
          seen.add(`${String(outcome)}`);
        },
      ), {
        seeds: [4491, 4492, 4493], numRuns: runsOver(variant, 150),
        // Each outcome once on every seed: over fhir-r4 a fuzz seed's 38 runs saw five of the six (PDAS_FUZZ_SEED=770208475),
        // and the check below failed with nothing wrong; the rest stays drawn.
        examples: outcomes.map((outcome): [RouteCase, Outcome | 413 | 415, number, string] => [ROUTES[0] as RouteCase, outcome, 0, 'seen-each']),
      });
      expect(seen.size).toBeGreaterThanOrEqual(6);
    });

    it('names getPatientV2 in the record of a v2 read refused before its handler runs (401, 403 scope, 429, 503)', async () => {
      const v2 = ROUTES.find((r) => r.operation === 'getPatientV2') as RouteCase;
      for (const outcome of [401, 403, 429, 503] as const) {
        const { app, options } = await plan(v2, outcome, 1);
        // A new minute: the first refusal of its kind is audited even if the property above sent one.
        app.clock.advance(REFUSAL_WINDOW_MS);
        const before = app.audit.records.length;
        await app.call(options);
        expect([outcome, app.audit.records.slice(before).map((r) => r.operation)]).toEqual([outcome, ['getPatientV2']]);
      }
    });
  });
});

overBothEhrs((variant) => {
  describe('log injection (CR/LF in every place a caller controls)', () => {
    let t: AnyTestApp;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      logs.push(t);
    });
    afterAll(() => t.close());

    const FORGED = '\r\n{"level":60,"msg":"forged","reqId":"forged"}\n';

    it('never makes a second log line, a forged entry or a forged request id, and the audit record keeps its own id', async () => {
      const token = used.token(await t.personToken(DEMO.TOLVAN));
      const evilToken = used.token(await t.issuer.sign({ sub: `evil${FORGED}`, client_id: `app${FORGED}`, patient: DEMO.TOLVAN, scope: 'user/Appointment-read user/Appointment-write' }));
      const before = t.audit.records.length;
      const attempts: Array<Parameters<AnyTestApp['call']>[0]> = [
        { method: 'GET', url: '/patients/appointments/', token, headers: { 'x-request-id': `id${FORGED}` } },
        { method: 'GET', url: '/patients/appointments/', token, headers: { 'user-agent': `ua${FORGED}`, referer: `r${FORGED}` } },
        { method: 'GET', url: '/patients/appointments/', token, patient: `1${FORGED}` },
        { method: 'GET', url: `/patients/appointments/?fromDateTime=${encodeURIComponent(FORGED)}`, token },
        { method: 'GET', url: `/patients/appointments${encodeURIComponent(FORGED)}/`, token },
        { method: 'GET', url: `/patients/${encodeURIComponent(FORGED)}`, token },
        { method: 'PUT', url: '/patients/appointments/?id=1', token, payload: `{"status":"arrived",${JSON.stringify(FORGED)}:1}`, headers: { 'content-type': 'application/json' } },
        { method: 'PUT', url: '/patients/appointments/?id=1', token, payload: `{"status":"arrived"}`, headers: { 'content-type': `application/json${FORGED}` } },
        { method: 'GET', url: '/patients/appointments/', token: evilToken },
      ];
      for (const options of attempts) {
        let status: number;
        try {
          status = (await t.call(options)).statusCode;
        } catch {
          continue; // not valid HTTP: refused before it was a request
        }
        expect([200, 400, 404, 415]).toContain(status);
      }
      expect(malformedLogLines(t.logLines)).toEqual([]);
      const entries = t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.filter((e) => e.msg === 'forged' || e.reqId === 'forged' || e.level === 60)).toEqual([]);
      for (const e of entries) if (e.reqId !== undefined) expect(String(e.reqId)).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
      for (const r of t.audit.records.slice(before)) {
        expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/);
        expect(r.callerRequestId ?? '').toMatch(/^[\x20-\x7e]{0,128}$/);
      }
      expect(t.audit.records.slice(before).some((r) => r.callerRequestId?.startsWith('id??{'))).toBe(true);
    });

    it('stores a record whose token fields hold CR/LF as one line of the embedded trail, chained to the one before', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'pdas-audit-inject-'));
      try {
        const file = path.join(dir, 'audit.jsonl');
        const trail = await FileAuditTrail.open(file);
        const base: AuditRecord = { time: new Date().toISOString(), requestId: 'r1', operation: 'getAppointments', sourceAddress: '127.0.0.1', outcome: 'allowed', status: 200 };
        await trail.append({ ...base, actor: { issuer: 'http://i', subject: `evil${FORGED}` }, clientId: `app\r\n${FORGED}` });
        await trail.append({ ...base, requestId: 'r2' });
        await trail.close();
        const lines = (await readFile(file, 'utf8')).split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(2);
        const [first, second] = lines.map((l) => JSON.parse(l) as { hash: string; prev: string; actor?: { subject: string } });
        expect(first?.actor?.subject).toBe(`evil${FORGED}`);
        expect(second?.prev).toBe(first?.hash);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('secrets in the logs of every request of this file', () => {
  it('finds no token, token part, subscription key or identity number, in any form', () => {
    const lines = logs.flatMap((t) => t.logLines);
    expect(lines.filter((l) => l.includes('request completed')).length).toBeGreaterThan(100);
    expect(malformedLogLines(lines)).toEqual([]);
    expect(used.foundIn(lines)).toEqual([]);
  });
});
