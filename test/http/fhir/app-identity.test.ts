/**
 * docs/fhir-api.md, "The app": SMART apps send no custom headers, so on /fhir the subscription key is
 * optional. Sent, it must be valid and its budget is spent; absent, the token's client_id (or azp)
 * names the app, and each person's rate budget in it is RATE_LIMIT_MAX under the app's ceiling
 * RATE_LIMIT_APP_MAX (issue 44 item 4); a token naming no app is 401.
 * A throttled request is an OperationOutcome `throttled` with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, OTHER_KEY, startTestApp, type TestApp } from '../../support/test-app.js';
import { APP, bundleOf, get, LILLA, MARTA, NOW, outcomeOf, TOLVAN } from './fhir-calls.js';

const SCOPE = 'patient/*.rs';

describe('FHIR API: which app is asking', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('no key and a token with client_id: 200', async () => {
    const res = await get(t, '/fhir/Patient', await t.personToken(TOLVAN, { scope: SCOPE, client_id: APP }));
    expect(bundleOf(res).total).toBe(1);
  });

  it('no key and a token with azp instead of client_id: 200', async () => {
    const res = await get(t, '/fhir/Patient', await t.personToken(TOLVAN, { scope: SCOPE, azp: APP }));
    expect(bundleOf(res).total).toBe(1);
  });

  it('no key and a token naming no app (no client_id, no azp): 401 login, the challenge says invalid_token', async () => {
    const res = await get(t, '/fhir/Patient', await t.personToken(TOLVAN, { scope: SCOPE }));
    expect(outcomeOf(res, 401).code).toBe('login');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });

  it('a client_id that is not a string names no app: 401', async () => {
    const res = await get(t, '/fhir/Patient', await t.personToken(TOLVAN, { scope: SCOPE, client_id: 42 }));
    expect(outcomeOf(res, 401).code).toBe('login');
  });

  it('an invalid key is 401 with the key\'s message even with a good token, in the header or the subscription-key parameter', async () => {
    const token = await t.personToken(TOLVAN, { scope: SCOPE, client_id: APP });
    const header = await t.call({ method: 'GET', url: '/fhir/Patient', key: 'not-a-key', token });
    expect(outcomeOf(header, 401)).toMatchObject({ code: 'login', diagnostics: 'Access denied due to missing or invalid subscription key.' });
    // Was "Invalid access token." with a bare Bearer challenge: the parameter was taken out of the
    // query before /fhir looked for a key, so the key seemed absent and the (good) token unsent.
    const query = await t.call({ method: 'GET', url: '/fhir/Patient?subscription-key=not-a-key', key: null, token });
    expect(outcomeOf(query, 401)).toMatchObject({ code: 'login', diagnostics: 'Access denied due to missing or invalid subscription key.' });
  });

  it('a key sent twice (parameter repeated, or header and parameter differing) is a key sent and not valid: 401, never the keyless path', async () => {
    const token = await t.personToken(TOLVAN, { scope: SCOPE, client_id: APP });
    // The repeated parameter was taken as no key at all, and the app's client_id let it through (200).
    const repeated = await t.call({ method: 'GET', url: `/fhir/Patient?subscription-key=${KEY}&subscription-key=${KEY}`, key: null, token });
    expect(outcomeOf(repeated, 401).diagnostics).toBe('Access denied due to missing or invalid subscription key.');
    const differing = await t.call({ method: 'GET', url: `/fhir/Patient?subscription-key=${OTHER_KEY}`, key: KEY, token });
    expect(outcomeOf(differing, 401).diagnostics).toBe('Access denied due to missing or invalid subscription key.');
    // The valid key in the parameter alone is taken.
    expect(bundleOf(await t.call({ method: 'GET', url: `/fhir/Patient?subscription-key=${KEY}`, key: null, token })).total).toBe(1);
  });

  it('a valid key: 200, with or without client_id in the token', async () => {
    for (const token of [await t.personToken(TOLVAN, { scope: SCOPE }), await t.personToken(TOLVAN, { scope: SCOPE, client_id: APP })]) {
      const res = await t.call({ method: 'GET', url: '/fhir/Patient', key: KEY, token });
      expect(bundleOf(res).total).toBe(1);
    }
  });
});

describe('issue 44 item 4 (threat 58): without a key the rate budget is each person\'s in the app, under the app\'s ceiling', () => {
  const MAX = 3;
  const APP_MAX = 8;
  const FLOOD = 40;
  let t: TestApp;
  // A window far longer than the test: no count is reset while it runs (no timed assertion).
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, rateLimitMax: MAX, rateLimitAppMax: APP_MAX, rateLimitWindowMs: 10 * 60_000 });
  }, 60_000);
  afterAll(async () => t.close());

  const refusedOf = (subject: string) => t.audit.records.filter((r) => r.status === 429 && r.actor?.subject === subject);

  it('issue 44 item 4: one person flooding an app is refused on their own budget; another user of the app is still served, and the flood leaves one audit record, not one per refusal', async () => {
    const tolvanInA = await t.personToken(TOLVAN, { scope: SCOPE, client_id: 'app-a' });
    const martaInA = await t.personToken(MARTA, { scope: SCOPE, client_id: 'app-a' });
    const records = t.audit.records.length;

    const flood = await Promise.all(Array.from({ length: MAX + FLOOD }, () => get(t, '/fhir/Patient', tolvanInA)));
    expect(flood.filter((r) => r.statusCode === 200)).toHaveLength(MAX);
    const throttled = flood.filter((r) => r.statusCode === 429);
    expect(throttled).toHaveLength(FLOOD);
    const issue = outcomeOf(throttled[0]!, 429);
    expect(issue.code).toBe('throttled');
    expect(issue.diagnostics).toMatch(/^Rate limit is exceeded\. Try again in \d+ seconds\.$/);
    expect(Number(throttled[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled[0]!.headers['ratelimit-policy']).toBe(`"app-person";q=${MAX};w=600`);

    // Märta, another user of app-a, keeps her whole budget (before the fix the app's was spent: 429).
    for (let i = 0; i < MAX; i++) expect((await get(t, '/fhir/Patient', martaInA)).statusCode).toBe(200);
    expect((await get(t, '/fhir/Patient', martaInA)).statusCode).toBe(429);

    // The flood's refusals: the first audited, naming who asked, the rest counted (before the fix one record each).
    const tolvanSubject = t.audit.records.find((r) => r.status === 200 && r.actor?.personId === TOLVAN)?.actor?.subject;
    expect(tolvanSubject).toBeDefined();
    expect(refusedOf(tolvanSubject!)).toHaveLength(1);
    expect(refusedOf(tolvanSubject!)[0]).toMatchObject({ outcome: 'denied', clientId: 'app-a', patientId: TOLVAN });
    expect(t.audit.records.length - records).toBe(MAX + 1 + MAX + 1);
  });

  it('issue 44 item 4: the app\'s users together stop at the app\'s ceiling; another app and the key keep theirs', async () => {
    const lillaInA = await t.personToken(LILLA, { scope: SCOPE, client_id: 'app-a' });
    // Tolvan's and Märta's MAX each are spent in app-a (the test above): APP_MAX - 2 MAX are left for Lilla.
    for (let i = 0; i < APP_MAX - 2 * MAX; i++) expect((await get(t, '/fhir/Patient', lillaInA)).statusCode).toBe(200);
    const ceiling = await get(t, '/fhir/Patient', lillaInA);
    expect(outcomeOf(ceiling, 429).code).toBe('throttled');
    expect(ceiling.headers['ratelimit-policy']).toBe(`"app";q=${APP_MAX};w=600`);

    // app-b has a budget of its own, whoever uses it.
    const lillaInB = await t.personToken(LILLA, { scope: SCOPE, client_id: 'app-b' });
    for (let i = 0; i < MAX; i++) expect((await get(t, '/fhir/Patient', lillaInB)).statusCode).toBe(200);
    expect(outcomeOf(await get(t, '/fhir/Patient', lillaInB), 429).code).toBe('throttled');

    // app-a's token with the subscription key spends the key's budget, not the exhausted app's.
    const tolvanInA = await t.personToken(TOLVAN, { scope: SCOPE, client_id: 'app-a' });
    const withKey = await t.call({ method: 'GET', url: '/fhir/Patient', key: KEY, token: tolvanInA });
    expect(withKey.statusCode).toBe(200);
  });
});
