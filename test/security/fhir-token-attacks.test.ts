import { createHmac, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { base64url, exportJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAttempt } from '../../src/ports/audit-trail.port.js';
import { REFUSAL_WINDOW_MS } from '../../src/http/refusal-tally.js';
import { KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { TEST_CLIENT_ID } from '../support/test-issuer.js';
import { overBothEhrs, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO } from './support/oracles.js';
import { notAPersonNorAClient } from './support/token-kinds.js';
import {
  APP, entryKeys, expectFhirAnswer, FHIR_ROUTES, fhirRequest, formOf, issueOf, pid, READABLE_TYPES, type FhirRouteCase,
} from './support/fhir-routes.js';

/**
 * THREATS 1–9 (RFC 8725, RFC 6750) on the FHIR API: every route of the FHIR route table (every type,
 * search, `_search` and read, both prefixes) refuses a forged, expired or misdirected token, a token
 * naming no app, one that is neither a person's nor a listed client's, and a token sent anywhere but
 * the Authorization header, as the COS API does (test/security/token-attacks.test.ts): 401 `login`
 * (400 `invalid` for a token in the URL or body) as an OperationOutcome, with nothing of the patient's,
 * and audited or tallied as the COS API's refusals before authentication are.
 */

const SELF = DEMO.TOLVAN;
const OTHER = DEMO.MARTA;
/** RFC 6750 §3: the error code and a description of the fault, which never holds a double quote or backslash. */
const INVALID_TOKEN = expect.stringMatching(/^Bearer error="invalid_token", error_description="[^"\\]+"$/) as string;
const SCOPE = 'patient/*.read';
const json = (o: object): string => base64url.encode(JSON.stringify(o));
const used = new UsedSecrets();
used.key(KEY);
used.identity(SELF);
used.identity(OTHER);
const logs: string[] = [];

overBothEhrs((variant) => {
  describe('forged, misdirected and misplaced tokens on every FHIR route', () => {
    let t: AnyTestApp;
    let genuine: string;
    /** An id of each type the genuine caller reads, for the read routes. */
    const ids = new Map<string, string>();
    const forged: Array<[string, string]> = [];
    const call = (route: FhirRouteCase, token: string | undefined, extra: Partial<Parameters<AnyTestApp['call']>[0]> = {}): Promise<LightMyRequestResponse> =>
      t.call({ ...fhirRequest(route, route.interaction === 'read' ? { id: ids.get(route.type) ?? 'none' } : {}), key: null, ...(token === undefined ? {} : { token }), ...extra });
    /** The read routes of types the caller has a resource of (HealthcareService may have none), and every search route. */
    const routes = (): FhirRouteCase[] => FHIR_ROUTES.filter((r) => r.interaction !== 'read' || ids.has(r.type));
    /** Nothing of the patient's: no resource, no Bundle, no Patient id, no identity number. */
    const noData = (res: LightMyRequestResponse): boolean => !res.body.includes(pid(SELF)) && !res.body.includes(SELF) && !res.body.includes('"Bundle"');

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      genuine = used.token(await t.personToken(SELF, { client_id: APP, scope: SCOPE }));
      for (const type of READABLE_TYPES) {
        const [first] = entryKeys(await t.call({ method: 'GET', url: `/fhir/${type}?_count=1`, token: genuine, key: null }));
        if (first !== undefined) ids.set(type, first.slice(type.length + 1));
      }
      const second = used.token(await t.personToken(SELF, { client_id: APP, scope: SCOPE, jti: 'second' }));
      const [h = '', p = '', s = ''] = genuine.split('.');
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      const jwk = t.issuer.publicJwk();
      const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' });
      const hs = (alg: 'HS256' | 'HS512', secret: string | Buffer): string => {
        const input = `${json({ alg, kid: jwk.kid, typ: 'at+jwt' })}.${p}`;
        return `${input}.${createHmac(`sha${alg.slice(2)}`, secret).update(input).digest('base64url')}`;
      };
      const flip = (sig: string): string => `${sig.slice(0, 20)}${sig[20] === 'A' ? 'B' : 'A'}${sig.slice(21)}`;
      const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const nowS = Math.floor(t.clock.now() / 1000);
      const person = (claims: Record<string, unknown>): Promise<string> => t.personToken(SELF, { client_id: APP, scope: SCOPE, ...claims });
      forged.push(
        ['alg none without a signature', `${json({ alg: 'none', typ: 'JWT' })}.${p}.`],
        ['alg nOnE keeping the signature', `${json({ alg: 'nOnE', kid: jwk.kid })}.${p}.${s}`],
        ['HS256 keyed with the JWK as JSON', hs('HS256', JSON.stringify(jwk))],
        ['HS512 keyed with the PEM public key', hs('HS512', publicKey.export({ type: 'spki', format: 'pem' }))],
        ['RS256 with an empty signature', `${h}.${p}.`],
        ['RS256 with the signature of another token', `${h}.${p}.${second.split('.')[2] ?? ''}`],
        ['RS256 with one signature character changed', `${h}.${p}.${flip(s)}`],
        ['a payload naming another patient under the original signature', `${h}.${json({ ...payload, patient: OTHER })}.${s}`],
        ['a payload adding smart_patient under the original signature', `${h}.${json({ ...payload, smart_patient: pid(OTHER) })}.${s}`],
        ['a payload widening the scope under the original signature', `${h}.${json({ ...payload, scope: 'user/*.read system/*.read' })}.${s}`],
        ['a key the JWKS does not publish, under a published kid', await t.issuer.signWithForeignKey({ patient: SELF, client_id: APP, scope: SCOPE })],
        ['the attacker key embedded as a jwk header', await new SignJWT({ ...payload, jti: 'jwk' })
          .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', jwk: await exportJWK(attacker.publicKey) }).sign(attacker.privateKey)],
        ['not a JWT', 'not.a.jwt'],
        ['expired beyond the skew', await person({ exp: nowS - 61 })],
        ['not yet valid beyond the skew', await person({ nbf: nowS + 61 })],
        ['exp as a string', await person({ exp: String(nowS + 600) })],
        ['for another audience', await person({ aud: 'another-api' })],
        ['from another issuer', await person({ iss: 'http://127.0.0.1:1/other' })],
        ['an id token typ', await t.issuer.sign({ patient: SELF, client_id: APP, scope: SCOPE }, { typ: 'id_token+jwt' })],
        ['a signed token over 8 KiB', await person({ pad: 'x'.repeat(9000) })],
      );
      for (const [, token] of forged) used.token(token);
    }, 60_000);
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
    });

    it('answers every route with 200 for the genuine token (the table is live: every type, both prefixes)', async () => {
      expect(ids.size).toBeGreaterThan(12);
      for (const route of routes()) {
        const res = await call(route, genuine);
        expectFhirAnswer(route, res, `genuine on ${route.label}`, { allowed: [200] });
      }
    });

    it('answers each forged, expired or misdirected token with 401 login, an invalid_token challenge and nothing of the patient, on every route', async () => {
      for (const route of routes()) {
        for (const [label, token] of forged) {
          const res = await call(route, token);
          const what = `${route.label} with ${label}`;
          expectFhirAnswer(route, res, what, { allowed: [401] });
          expect([what, res.headers['www-authenticate'], issueOf(res).code, noData(res)]).toEqual([what, INVALID_TOKEN, 'login', true]);
          // The diagnostics say why, as the challenge does, in words a person can act on (newcomer walk-through helper-193, F4:
          // only the header said it, and the body "Invalid access token." alone).
          const why = /error_description="([^"]+)"/.exec(String(res.headers['www-authenticate']))?.[1] ?? '';
          expect([what, issueOf(res).diagnostics]).toEqual([what, `Invalid access token. ${why}`]);
        }
      }
    });

    it('answers a missing Authorization with the bare Bearer challenge and a malformed one with invalid_token, on every route', async () => {
      const headers: Array<string | undefined> = [
        undefined, '', 'Bearer', 'Bearer ', `Bearer  ${genuine}`, `Bearer ${genuine} extra`, `Basic ${Buffer.from('u:p').toString('base64')}`, `Token ${genuine}`, `Bearer "${genuine}"`,
      ];
      for (const route of routes()) {
        for (const authorization of headers) {
          const base = fhirRequest(route, route.interaction === 'read' ? { id: ids.get(route.type) as string } : {});
          const res = await t.call({ ...base, key: null, headers: { ...base.headers, ...(authorization === undefined ? {} : { authorization }) } });
          const what = `${route.label} with Authorization ${String(authorization).slice(0, 16)}`;
          expectFhirAnswer(route, res, what, { allowed: [401] });
          expect([what, res.headers['www-authenticate'], noData(res)]).toEqual([what, authorization === undefined || authorization === '' ? 'Bearer' : INVALID_TOKEN, true]);
        }
      }
    });

    it('answers a token that is neither a person\'s nor a listed client\'s with 401 on every route, and a person token naming no app without a key with 401', async () => {
      const cases = notAPersonNorAClient(SELF).map(([label, claims]) => [label, { scope: 'patient/*.read system/*.read', sub: 'kind-case', ...claims }] as const);
      for (const [label, claims] of cases) {
        const token = used.token(await t.issuer.sign(claims));
        for (const route of routes()) {
          const res = await call(route, token);
          expectFhirAnswer(route, res, `${label} on ${route.label}`, { allowed: [401] });
          expect([label, route.label, noData(res)]).toEqual([label, route.label, true]);
        }
      }
      // SMART apps send no key: the token's client_id (or azp) names the app, and without one it is refused (§7 The app).
      const anonymous = used.token(await t.issuer.sign({ patient: SELF, scope: SCOPE, sub: 'no-app' }));
      for (const [i, route] of routes().entries()) {
        const keyless = await call(route, anonymous);
        expectFhirAnswer(route, keyless, `no app on ${route.label}`, { allowed: [401] });
        expect([route.label, issueOf(keyless).code, noData(keyless)]).toEqual([route.label, 'login', true]);
        // With the app's key the same token is served (a real search: over fhir-r4 on every third route).
        if (variant === 'fhir-r4' && i % 3 !== 0) continue;
        const keyed = await call(route, anonymous, { key: KEY });
        expect([route.label, keyed.statusCode]).toEqual([route.label, 200]);
      }
      // The listed client itself, for a patient it names: the control that the cases above failed on their fault alone.
      const kiosk = used.token(await t.clientToken({ client_id: TEST_CLIENT_ID, scope: 'system/*.read' }));
      const res = await t.call({ method: 'GET', url: `/fhir/Observation?patient=${pid(SELF)}`, token: kiosk, key: null });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a token in the query string with 400 invalid on every route, with or without the header, before anything is read, and logs none of it', async () => {
      for (const route of routes()) {
        for (const value of [genuine, '']) {
          for (const header of [genuine, undefined]) {
            const base = fhirRequest(route, { ...(route.interaction === 'read' ? { id: ids.get(route.type) as string } : {}), query: [['access_token', value]] });
            const res = await t.call({ ...base, key: null, ...(header === undefined ? {} : { token: header }) });
            const what = `${route.label} ?access_token=${value === '' ? '' : '<token>'} ${header === undefined ? 'alone' : 'beside the header'}`;
            expectFhirAnswer(route, res, what, { allowed: [400] });
            expect([what, issueOf(res).code, issueOf(res).diagnostics, noData(res)]).toEqual([what, 'invalid', 'Access tokens are accepted only in the Authorization header.', true]);
          }
        }
      }
      expect(t.logLines.join('')).not.toContain(genuine.split('.')[2] as string);
    });

    it('refuses a token in a _search form body with 400 invalid, as the contract refuses one in any body (§2), on every _search route', async () => {
      for (const route of routes().filter((r) => r.interaction === 'search-post')) {
        for (const params of [[['access_token', genuine]], [['_count', '1'], ['access_token', genuine]], [['access_token', '']]] as Array<Array<[string, string]>>) {
          const res = await t.call({ ...fhirRequest(route, { params }), token: genuine, key: null });
          const what = `${route.label} body ${formOf(params.map(([k, v]) => [k, v === genuine ? '<token>' : v]))}`;
          expectFhirAnswer(route, res, what, { allowed: [400] });
          expect([what, issueOf(res).diagnostics, noData(res)]).toEqual([what, 'Access tokens are accepted only in the Authorization header.', true]);
        }
      }
    });

    it('refuses any body on a GET route with 400 invalid (a token in it too, with or without the header), before the credentials, and logs none of it', async () => {
      const bodies: Array<[string, string]> = [
        [`access_token=${genuine}`, 'application/x-www-form-urlencoded'], [JSON.stringify({ access_token: genuine }), 'application/json'], ['_count=1', 'text/plain'],
      ];
      for (const route of routes().filter((r) => r.interaction !== 'search-post')) {
        for (const [payload, type] of bodies) {
          for (const header of [genuine, undefined]) {
            const res = await call(route, header, { payload, headers: { 'content-type': type } });
            const what = `${route.label} GET with a ${type} body ${header === undefined ? 'alone' : 'beside the header'}`;
            expectFhirAnswer(route, res, what, { allowed: [400] });
            expect([what, issueOf(res).code, issueOf(res).diagnostics, noData(res)]).toEqual([what, 'invalid', expect.stringMatching(/^A GET request takes no body: send none, and the access token in the Authorization header\.$/), true]);
          }
        }
      }
      expect(t.logLines.join('')).not.toContain(genuine.split('.')[2] as string);
    });
  });
});

overBothEhrs((variant) => {
  describe('FHIR refusals before authentication are audited as the COS API\'s: the first of a kind a minute, the rest counted', () => {
    let t: AnyTestApp;
    let badToken: string;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      const good = used.token(await t.personToken(SELF, { client_id: APP, scope: SCOPE }));
      badToken = used.token(`${good.slice(0, -6)}AAAAAA`);
    });
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
    });

    const send = (route: FhirRouteCase, key: string | null): Promise<LightMyRequestResponse> =>
      t.call({ ...fhirRequest(route, route.interaction === 'read' ? { id: 'any-id' } : {}), token: badToken, key });
    /** The operations the routes are audited under: one record per (operation, status, key) a minute. */
    const operations = [...new Set(FHIR_ROUTES.map((r) => r.operation))].sort();

    it('stores one record per operation, status and key for a minute of forged tokens on every route, then counts; a new minute stores again', async () => {
      t.clock.advance(REFUSAL_WINDOW_MS);
      for (const key of [null, KEY] as const) {
        const before = t.audit.records.length;
        for (let round = 0; round < 3; round++) {
          for (const route of FHIR_ROUTES) {
            const res = await send(route, key);
            expectFhirAnswer(route, res, `${route.label} forged, ${key === null ? 'no key' : 'key'}`, { allowed: [401] });
          }
        }
        const records = t.audit.records.slice(before);
        expect(records.filter(isAttempt)).toEqual([]);
        // Three rounds of every route: one record per operation, the first request of its kind.
        expect(records.map((r) => r.operation).sort()).toEqual(operations);
        for (const r of records) {
          expect([r.operation, r.status, r.outcome, r.actor, r.patientId, r.subscription]).toEqual([r.operation, 401, 'denied', undefined, undefined, key === null ? undefined : 'test']);
        }
      }
      // A new minute: the first refusal of each kind is stored again, and the minute before is reported as counts.
      t.clock.advance(REFUSAL_WINDOW_MS);
      const before = t.audit.records.length;
      const linesBefore = t.logLines.length;
      const [first] = FHIR_ROUTES;
      await send(first as FhirRouteCase, null);
      expect(t.audit.records.slice(before).map((r) => [r.operation, r.status])).toEqual([[first?.operation, 401]]);
      const reported = t.logLines.slice(linesBefore).map((l) => JSON.parse(l) as { msg: string; refused?: number; operation?: string });
      const counts = reported.filter((l) => l.msg === 'requests without a valid subscription key or token refused');
      expect(counts.map((l) => l.operation).sort()).toEqual(operations);
      // Every route × 3 rounds, counted against the operations they share.
      expect(counts.reduce((n, l) => n + (l.refused ?? 0), 0)).toBe(FHIR_ROUTES.length * 3);
    });

    it('audits a refusal of an authenticated caller every time (a token in the query beside a valid header), naming who asked', async () => {
      const token = used.token(await t.personToken(SELF, { client_id: APP, scope: SCOPE }));
      const route = FHIR_ROUTES.find((r) => r.type === 'Observation' && r.interaction === 'search') as FhirRouteCase;
      const before = t.audit.records.length;
      for (let i = 0; i < 3; i++) {
        const res = await t.call({ ...fhirRequest(route, { query: [['access_token', token]] }), token, key: null });
        expect(res.statusCode).toBe(400);
      }
      const records = t.audit.records.slice(before);
      expect(records.map((r) => [r.operation, r.status, r.outcome, r.actor?.personId, r.clientId])).toEqual(
        Array.from({ length: 3 }, () => [route.operation, 400, 'denied', SELF, APP]),
      );
    });
  });
});

describe('the logs of every FHIR token attack above', () => {
  it('are one JSON line each and hold no token, token part, key or identity number', () => {
    expect(logs.length).toBeGreaterThan(500);
    expect(malformedLogLines(logs)).toEqual([]);
    expect(used.foundIn(logs)).toEqual([]);
  });
});
