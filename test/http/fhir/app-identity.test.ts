/**
 * docs/fhir-api.md, "The app": SMART apps send no custom headers, so on /fhir the subscription key is
 * optional. Sent, it must be valid and its budget is spent; absent, the token's client_id (or azp)
 * names the app, whose rate budget (RATE_LIMIT_MAX) it spends, and a token naming no app is 401.
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

describe('FHIR API: the rate budget of an app without a key is its client_id\'s', () => {
  const MAX = 3;
  let t: TestApp;
  // A window far longer than the test: no count is reset while it runs (no timed assertion).
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, rateLimitMax: MAX, rateLimitWindowMs: 10 * 60_000 });
  }, 60_000);
  afterAll(async () => t.close());

  it('the app\'s MAX requests pass, the next is 429 throttled with Retry-After, for every user of the app; another app and the key keep theirs', async () => {
    const tolvanInA = await t.personToken(TOLVAN, { scope: SCOPE, client_id: 'app-a' });
    const martaInA = await t.personToken(MARTA, { scope: SCOPE, client_id: 'app-a' });
    for (let i = 0; i < MAX; i++) expect((await get(t, '/fhir/Patient', i % 2 === 0 ? tolvanInA : martaInA)).statusCode).toBe(200);

    const throttled = await get(t, '/fhir/Patient', tolvanInA);
    const issue = outcomeOf(throttled, 429);
    expect(issue.code).toBe('throttled');
    expect(issue.diagnostics).toMatch(/^Rate limit is exceeded\. Try again in \d+ seconds\.$/);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // The budget is the app's, not the person's: another user of app-a is refused too.
    expect(outcomeOf(await get(t, '/fhir/Patient', martaInA), 429).code).toBe('throttled');

    // app-b has a budget of its own, whoever uses it.
    const lillaInB = await t.personToken(LILLA, { scope: SCOPE, client_id: 'app-b' });
    for (let i = 0; i < MAX; i++) expect((await get(t, '/fhir/Patient', lillaInB)).statusCode).toBe(200);
    expect(outcomeOf(await get(t, '/fhir/Patient', lillaInB), 429).code).toBe('throttled');

    // app-a's token with the subscription key spends the key's budget, not the exhausted app's.
    const withKey = await t.call({ method: 'GET', url: '/fhir/Patient', key: KEY, token: tolvanInA });
    expect(withKey.statusCode).toBe(200);
  });
});
