import { METHODS } from 'node:http';
import fc from 'fast-check';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO } from './support/oracles.js';
import { answerProblems, asAnswer } from './support/shape.js';
import {
  APP, CONSENT_PATHS, entryKeys, expectFhirAnswer, FHIR_ROUTES, FHIR_STATEMENT_TYPES, fhirAnswerProblems, formOf, issueOf, pathUrl, READABLE_TYPES,
  SUBSCRIPTION_PATHS, type FhirRouteCase,
} from './support/fhir-routes.js';
import { assertProperty } from '../support/seeds.js';

/**
 * THREATS 16 (every method on every route) on the FHIR API, as test/security/methods-and-transport.test.ts
 * does it on the COS API: every method Node's parser knows on every FHIR path of the route table —
 * discovery, each type's search, `_search` and read, both prefixes — with and without a token. The
 * methods a path serves answer as GET does (HEAD without a body); every other one is 405 with `Allow`
 * as an OperationOutcome (`not-supported`), OPTIONS and TRACE included (docs/fhir-api.md#interactions: "HEAD like GET;
 * other methods 405"), before any credential or body is looked at; nothing answers 2xx without a token
 * but discovery. Consent (the grants a person gave, served with sharing on) and Subscription (served
 * with subscriptions on) are attacked alike; the suite's token (`patient/*.read`) reaches neither, by
 * design (src/domain/fhir/consent-scopes.ts, subscription-scopes.ts), so their served methods answer
 * 403 with that token: no grant or subscription is read, made or ended.
 */

// CONNECT takes an authority, not a path; QUERY has its own test below; every other method Node knows is tried.
const ALL_METHODS = METHODS.filter((m) => m !== 'CONNECT' && m !== 'QUERY') as HTTPMethods[];
const used = new UsedSecrets();
used.key(KEY);
used.identity(DEMO.TOLVAN);

interface FhirPath {
  url: string;
  /** The methods the path serves, as its Allow names them. */
  allow: readonly string[];
  /** Open to anyone (discovery). */
  open: boolean;
  route?: FhirRouteCase;
  /** A Consent or Subscription path: a served method with the suite's token is 403 (a wildcard reaches neither), naming the type. */
  named?: 'Consent' | 'Subscription';
}

overBothEhrs((variant) => {
  describe('every method on every FHIR path', () => {
    let t: AnyTestApp;
    let token: string;
    let grantId: string;
    let grantStatus: string;
    let subscriptionId: string;
    const paths: FhirPath[] = [];

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      token = used.token(await t.personToken(DEMO.TOLVAN, { client_id: APP, scope: 'patient/*.read' }));
      const ids = new Map<string, string>();
      for (const type of READABLE_TYPES) {
        const [first] = entryKeys(await t.call({ method: 'GET', url: `/fhir/${type}?_count=1`, token, key: null }));
        if (first !== undefined) ids.set(type, first.slice(type.length + 1));
      }
      for (const prefix of ['/fhir', '/api/open/fhir']) {
        paths.push({ url: `${prefix}/metadata`, allow: ['GET', 'HEAD'], open: true }, { url: `${prefix}/.well-known/smart-configuration`, allow: ['GET', 'HEAD'], open: true });
      }
      // A real grant of the token's person, so that a Consent read or delete names one that exists.
      const given = await t.proxyGrants?.give(DEMO.TOLVAN, { grantee: DEMO.MARTA, categories: ['*'] }, async () => undefined);
      if (given === undefined) throw new Error('the security apps run with PROXY_GRANTS on (runs.ts STEADY)');
      grantId = given.id;
      grantStatus = given.status;
      for (const consent of CONSENT_PATHS) paths.push({ url: pathUrl(consent, grantId), allow: consent.allow, open: false, named: 'Consent' });
      // A real subscription of the token's person and app, so that a read, an operation or a delete names one that exists.
      const subscriptions = t.subscriptions;
      if (subscriptions === undefined) throw new Error('the security apps run with SUBSCRIPTIONS on (runs.ts STEADY)');
      const subscriber = { issuer: 'https://issuer.example', subject: 'sub', personId: DEMO.TOLVAN, clientId: APP };
      const channel = { endpoint: 'https://hooks.test.example/notify', headers: [], payload: 'id-only', timeoutSeconds: 10 } as const;
      subscriptionId = (await subscriptions.door.manage.create(subscriber, { topic: 'access', patient: DEMO.TOLVAN, channel }, async () => undefined)).id;
      for (const path of SUBSCRIPTION_PATHS) paths.push({ url: pathUrl(path, subscriptionId), allow: path.allow, open: false, named: 'Subscription' });
      for (const route of FHIR_ROUTES) {
        if (route.interaction === 'search') paths.push({ url: route.path, allow: ['GET', 'HEAD'], open: false, route });
        if (route.interaction === 'search-post') paths.push({ url: route.path, allow: ['POST'], open: false, route });
        if (route.interaction === 'read' && ids.has(route.type)) paths.push({ url: `${route.path}${ids.get(route.type) ?? ''}`, allow: ['GET', 'HEAD'], open: false, route });
      }
    }, 60_000);
    afterAll(() => t.close());

    it('covers every type the CapabilityStatement declares, and the table declares no type the statement lacks', async () => {
      const statement = JSON.parse((await t.call({ method: 'GET', url: '/fhir/metadata', key: null })).body) as { rest: Array<{ resource: Array<{ type: string }> }> };
      expect(statement.rest[0]?.resource.map((r) => r.type).sort()).toEqual([...FHIR_STATEMENT_TYPES].sort());
    });

    it('answers the methods a path serves as GET does, and every other method with 405, Allow and an OperationOutcome, with and without a token', async () => {
      let served = 0;
      let expectedServed = 0;
      // The GET answer of each path and caller, kept for its HEAD: the same request (GET precedes HEAD in Node's METHODS),
      // where it was asked a second time for each HEAD, a real search or read behind each.
      const gets = new Map<string, LightMyRequestResponse>();
      for (const [p, path] of paths.entries()) {
        // A served method with a token is a real search or read: over fhir-r4 (a FHIR server behind each) every third path has one.
        const withToken = variant !== 'fhir-r4' || p % 3 === 0 || path.named !== undefined;
        expectedServed += path.allow.length * (withToken ? 2 : 1);
        for (const method of ALL_METHODS) {
          for (const credentials of ['none', 'token'] as const) {
            if (credentials === 'token' && path.allow.includes(method) && !withToken) continue;
            const label = `${method} ${path.url} with ${credentials}`;
            const serves = path.allow.includes(method);
            // A served POST gets its own kind of body: a `_search` a form, a create (a Consent, a Subscription) FHIR JSON.
            const body = method !== 'POST' || !serves ? {}
              : path.url.endsWith('/_search') ? { payload: formOf([['_count', '1']]), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
                : { payload: '{}', headers: { 'content-type': 'application/fhir+json' } };
            const res = await t.call({ method, url: path.url, key: null, ...body, ...(credentials === 'token' ? { token } : {}) });
            if (!serves) {
              expectFhirAnswer(undefined, res, label, { allowed: [405], method });
              // HEAD carries no body; its 405 is the GET's without one.
              if (method !== 'HEAD') expect([label, issueOf(res).code]).toEqual([label, 'not-supported']);
              expect([label, String(res.headers.allow ?? '')]).toEqual([label, path.allow.join(', ')]);
              continue;
            }
            served++;
            if (method === 'GET') gets.set(`${credentials} ${path.url}`, res);
            const expected = path.open ? 200 : credentials === 'none' ? 401 : path.named !== undefined ? 403 : 200;
            expect([label, fhirAnswerProblems(path.route, asAnswer(res), { allowed: [expected], method })]).toEqual([label, []]);
            if (expected === 403 && method !== 'HEAD') expect([label, issueOf(res).diagnostics]).toEqual([label, expect.stringContaining(path.named ?? '')]);
            if (method === 'HEAD' && expected === 200) {
              const get = gets.get(`${credentials} ${path.url}`) ?? await t.call({ method: 'GET', url: path.url, key: null, ...(credentials === 'token' ? { token } : {}) });
              expect([label, res.headers['content-type'], res.body]).toEqual([label, get.headers['content-type'], '']);
            }
          }
        }
      }
      expect(served).toBe(expectedServed);
    });

    it('leaves the grant and the subscription the paths name untouched, and makes no other: every DELETE and POST was refused', async () => {
      expect((await t.proxyGrants?.get(DEMO.TOLVAN, grantId))?.status).toBe(grantStatus);
      expect((await t.subscriptions?.store.ofSubscriber(DEMO.TOLVAN, APP))?.map((s) => [s.id, s.status])).toEqual([[subscriptionId, 'requested']]);
    });

    // Issue 45 item 6: docs/fhir-api.md#interactions lists read for AuditEvent; an id not in the caller's own log is 404, as any other.
    it('answers a read by id of an AuditEvent not in the caller\'s log with 404 not-found once the token is verified', async () => {
      for (const prefix of ['/fhir', '/api/open/fhir']) {
        const res = await t.call({ method: 'GET', url: `${prefix}/AuditEvent/some-id`, token, key: null });
        expectFhirAnswer(undefined, res, `GET ${prefix}/AuditEvent/some-id`, { allowed: [404] });
        expect(issueOf(res).code).toBe('not-found');
        expect((await t.call({ method: 'GET', url: `${prefix}/AuditEvent/some-id`, key: null })).statusCode).toBe(401);
      }
    });

    it('answers a FHIR create, update or patch with its resource body as 405, never a complaint about the body or a change', async () => {
      const resource = JSON.stringify({ resourceType: 'Observation', status: 'final', code: { text: 'x' } });
      for (const route of FHIR_ROUTES.filter((r) => r.interaction !== 'search-post')) {
        const url = route.interaction === 'read' ? `${route.path}some-id` : route.path;
        for (const [method, type] of [['POST', 'application/fhir+json'], ['PUT', 'application/fhir+json'], ['PATCH', 'application/json-patch+json'], ['DELETE', 'application/fhir+json']] as const) {
          const res = await t.call({ method, url, token, key: null, payload: resource, headers: { 'content-type': type } });
          expectFhirAnswer(route, res, `${method} ${url}`, { allowed: [405] });
        }
      }
    });

    it('answers a Consent or Subscription update or patch, a create on one and a delete of the list as 405 naming what the path serves', async () => {
      for (const [consent, id] of [...CONSENT_PATHS.map((p) => [p, grantId] as const), ...SUBSCRIPTION_PATHS.map((p) => [p, subscriptionId] as const)]) {
        const resource = JSON.stringify({ resourceType: consent.path.includes('Consent') ? 'Consent' : 'Subscription', status: 'active' });
        const url = pathUrl(consent, id);
        for (const [method, type] of [['POST', 'application/fhir+json'], ['PUT', 'application/fhir+json'], ['PATCH', 'application/json-patch+json'], ['DELETE', 'application/fhir+json']] as const) {
          if (consent.allow.includes(method)) continue;
          const res = await t.call({ method, url, token, key: null, payload: resource, headers: { 'content-type': type } });
          expectFhirAnswer(undefined, res, `${method} ${url}`, { allowed: [405] });
          expect([method, url, res.headers.allow]).toEqual([method, url, consent.allow.join(', ')]);
        }
      }
    });

    it('answers QUERY (a method with a body that Node knows) on a FHIR path like another method it does not serve', async () => {
      for (const path of paths) {
        for (const credentials of ['none', 'token'] as const) {
          const res = await t.call({ method: 'QUERY' as HTTPMethods, url: path.url, key: null, ...(credentials === 'token' ? { token } : {}) });
          expect([path.url, credentials, [404, 405].includes(res.statusCode)]).toEqual([path.url, credentials, true]);
        }
      }
    });

    it('answers crafted paths under /fhir (traversal, encodings, case, doubled slashes) never with 2xx without a token, in FHIR\'s shape (property)', async () => {
      const segment = fc.constantFrom(
        'fhir', 'Observation', 'Patient', 'observation', 'PATIENT', 'metadata', '_search', '_history', '$everything', '.well-known', 'smart-configuration', 'AuditEvent',
        '..', '.', '%2e%2e', '%2E%2E%2F', '..%2F', '%2F', '%5C', '', '%00', ';x=1', '*', '~', '%20', '%C3%A5', 'api', 'open', '191212121212',
      );
      await assertProperty(fc.asyncProperty(fc.constantFrom('/fhir', '/api/open/fhir'), fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom(...ALL_METHODS), fc.boolean(),
        async (prefix, segments, method, slash) => {
          const url = `${prefix}/${segments.join('/')}${slash ? '/' : ''}`;
          const res = await t.call({ method, url, key: null });
          const label = `${method} ${url}`;
          // The URL is resolved as a client resolves it, so `..` may lead out of the FHIR API: there the answer is the resolved path's own.
          const resolved = new URL(url, 'http://127.0.0.1').pathname;
          if (!/^\/(api\/open\/)?fhir\//.test(resolved)) {
            const direct = await t.call({ method, url: resolved, key: null });
            expect([label, res.statusCode]).toEqual([label, direct.statusCode]);
            return;
          }
          const discovery = /^\/(api\/open\/)?fhir\/(metadata|\.well-known\/smart-configuration)\/?$/.test(resolved) && ['GET', 'HEAD'].includes(method);
          if (discovery) return;
          expect([label, res.statusCode >= 200 && res.statusCode < 300]).toEqual([label, false]);
          // A malformed percent-encoding is refused before routing, in shape 1 (as on the COS API); anything else is FHIR's.
          const fhir = fhirAnswerProblems(undefined, asAnswer(res), { allowed: [400, 401, 404, 405], method });
          const plain = res.statusCode === 400 ? answerProblems(undefined, asAnswer(res), { allowed: [400], method }) : ['not a 400'];
          expect([label, fhir.length === 0 || plain.length === 0 ? [] : fhir]).toEqual([label, []]);
        }), { seeds: [4501, 4502, 4503], numRuns: runsOver(variant, 300) });
    });

    it('keeps its logs one JSON line per entry, with no token or identity number', () => {
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

overBothEhrs((variant) => {
  describe('OPTIONS where CORS origins are set: a preflight on a FHIR path answers as on a COS path', () => {
    let t: AnyTestApp;
    beforeAll(async () => {
      t = await startTestAppOn(variant, { protection: { ...STEADY.protection, corsOrigins: ['https://app.example'] } });
    });
    afterAll(() => t.close());

    it('a browser app\'s preflight for a search with a token passes; a bare OPTIONS is refused as the COS API refuses it', async () => {
      const preflight = { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' };
      const cos = await t.call({ method: 'OPTIONS', url: '/patients/appointments/', key: null, headers: preflight });
      for (const url of ['/fhir/Observation', '/api/open/fhir/Patient/some-id', '/fhir/Observation/_search']) {
        const res = await t.call({ method: 'OPTIONS', url, key: null, headers: preflight });
        expect([url, res.statusCode, res.headers['access-control-allow-origin'], res.headers['access-control-allow-headers']])
          .toEqual([url, cos.statusCode, 'https://app.example', cos.headers['access-control-allow-headers']]);
        const bare = await t.call({ method: 'OPTIONS', url, key: null });
        const cosBare = await t.call({ method: 'OPTIONS', url: '/patients/appointments/', key: null });
        expect([url, bare.statusCode]).toEqual([url, cosBare.statusCode]);
      }
      expect(cos.statusCode).toBe(204);
    });
  });
});
