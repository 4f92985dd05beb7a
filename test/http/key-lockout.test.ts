import { describe, expect, it } from 'vitest';
import { createRateLimitRedis } from '../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { deleteNameSpace, inspectionClient, pollUntil, redisUrl, skipWithoutRedis, uniqueNameSpace } from '../support/redis.js';
import { KEY, OTHER_KEY, startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

const PERSON = '191212121212';
const KEY_MAX = 10;
const ADDRESS_MAX = 20;
const URL = '/patients/appointments/';

/** Requests that carry the app's valid key and no valid token, as anyone holding the key can send them. */
async function badTokens(t: TestApp): Promise<Array<{ name: string; authorization?: string }>> {
  const now = Math.floor(t.clock.now() / 1000);
  const good = await t.personToken(PERSON);
  const expired = await t.personToken(PERSON, { iat: now - 7200, exp: now - 3600 });
  const [head, body, signature = ''] = good.split('.');
  const badSignature = `${head}.${body}.${signature.slice(0, -4)}${signature.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  return [
    { name: 'garbage', authorization: 'Bearer garbage' },
    { name: 'missing' },
    { name: 'expired', authorization: `Bearer ${expired}` },
    { name: 'bad signature', authorization: `Bearer ${badSignature}` },
    { name: 'basic scheme', authorization: 'Basic dXNlcjpwYXNz' },
  ];
}

/**
 * Issue 20 item 3 (threat 44): 100 requests with the app's key and a bad token, then a real user
 * of the app. Before the fix the bad requests spent the key's budget and the user got 429.
 */
async function lockoutScenario(options: TestAppOptions): Promise<void> {
  const t = await startTestApp({ rateLimitMax: KEY_MAX, rateLimitNoKeyMax: ADDRESS_MAX, rateLimitWindowMs: 60_000, ...options });
  try {
    const kinds = await badTokens(t);
    const statuses = new Map<number, number>();
    const policies = new Set<unknown>();
    for (let i = 0; i < 100; i++) {
      const kind = kinds[i % kinds.length];
      const res = await t.app.inject({
        method: 'GET', url: URL, remoteAddress: '127.0.0.9',
        headers: { 'ocp-apim-subscription-key': KEY, ...(kind?.authorization ? { authorization: kind.authorization } : {}) },
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 401) policies.add(res.headers['ratelimit-policy']);
    }
    // Limited per source address: the address's own budget, then 429.
    expect(Object.fromEntries(statuses)).toEqual({ 401: ADDRESS_MAX, 429: 100 - ADDRESS_MAX });
    expect([...policies]).toEqual([`"address";q=${ADDRESS_MAX};w=60`]);
    // The key's budget is whole: a real user of the app, from that very address too, gets every request.
    const token = await t.personToken(PERSON);
    const real: number[] = [];
    for (let i = 0; i < KEY_MAX; i++) real.push((await t.call({ method: 'GET', url: URL, token, remoteAddress: i % 2 === 0 ? '127.0.0.9' : '127.0.0.1' })).statusCode);
    expect(real).toEqual(Array<number>(KEY_MAX).fill(200));
    // ... and the key's own limit still holds for authenticated requests.
    expect((await t.call({ method: 'GET', url: URL, token })).statusCode).toBe(429);
    // Another address with a bad token has its own budget.
    expect((await t.call({ method: 'GET', url: URL, token: 'garbage', remoteAddress: '127.0.0.10' })).statusCode).toBe(401);
  } finally {
    await t.close();
  }
}

describe('issue 20 item 3: a valid subscription key without a valid token never spends the key\'s budget (in-process counters)', () => {
  it('issue 20 item 3: 100 requests with the app\'s key and garbage, missing, expired or badly signed tokens are limited per source address; the app\'s users keep the key\'s whole budget', async () => {
    await lockoutScenario({});
  });
});

const skip = await skipWithoutRedis();

describe.skipIf(skip)('issue 20 item 3: the same, with the counters in Redis', () => {
  it('issue 20 item 3: 100 bad-token requests with the app\'s key, counted in Redis, leave the key\'s budget whole', async () => {
    const nameSpace = uniqueNameSpace('key-lockout');
    const inspect = inspectionClient();
    await inspect.connect();
    // The counts are what is tested here, not failing fast: the service's 250 ms command deadline let one check
    // time out on a loaded CI run (a check skipped counts nothing, so 21 answers of 401 where 20 were allowed).
    const redis = createRateLimitRedis({ url: redisUrl(), onWarning: () => undefined, commandTimeoutMs: 5_000 });
    try {
      expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 3000)).toBe(true);
      const skipped: unknown[] = [];
      await lockoutScenario({ redisClient: redis.client, rateLimitNameSpace: nameSpace, onRedisStoreError: (err) => skipped.push(err) });
      // Every check reached Redis: the limits held there, not by failing open.
      expect(skipped).toEqual([]);
      const keys = await inspect.keys(`${nameSpace}*`);
      expect(keys.some((k) => k.includes('addr:'))).toBe(true);
      expect(keys.some((k) => k.includes('sub:'))).toBe(true);
    } finally {
      await redis.close();
      await deleteNameSpace(inspect, nameSpace);
      inspect.disconnect();
    }
  });
});

/**
 * Issue 52 item 6: anyone signed in can send the public key of an app (the patient app's ships
 * inside it) with their own valid token. The key's budget was one counter for all its users, so
 * one person's flood got every other user of the app 429. Now each person (the token's issuer and
 * subject; a client token is its own caller) has RATE_LIMIT_MAX under the key, and the key all its
 * callers together RATE_LIMIT_APP_MAX, as an app without a key (issue 44 item 4).
 */
describe('issue 52 item 6: under one subscription key each person has a budget of their own, under the key\'s ceiling', () => {
  const MAX = 3;
  const KEY_CEILING = 7;
  const MARTA = '198112189876';
  const LILLA = '201701012393';

  it('issue 52 item 6: one person exhausting their budget under the key gets 429; another person with the key is still served; the key\'s ceiling holds across people', async () => {
    // A window far longer than the test: no count is reset while it runs (no timed assertion).
    const t = await startTestApp({ rateLimitMax: MAX, rateLimitAppMax: KEY_CEILING, rateLimitWindowMs: 600_000 });
    try {
      const tolvan = await t.personToken(PERSON);
      const marta = await t.personToken(MARTA);
      const statuses = async (token: string, n: number): Promise<number[]> => {
        const got: number[] = [];
        for (let i = 0; i < n; i++) got.push((await t.call({ method: 'GET', url: URL, token })).statusCode);
        return got;
      };
      expect(await statuses(tolvan, MAX)).toEqual([200, 200, 200]);
      const own = await t.call({ method: 'GET', url: URL, token: tolvan });
      expect([own.statusCode, own.headers['ratelimit-policy']]).toEqual([429, `"subscription-person";q=${MAX};w=600`]);
      expect(Number(own.headers['retry-after'])).toBeGreaterThan(0);

      // Märta holds the same key: before the fix the key's budget was spent and she got 429.
      expect(await statuses(marta, MAX)).toEqual([200, 200, 200]);
      expect((await t.call({ method: 'GET', url: URL, token: marta })).statusCode).toBe(429);

      // A client token under the key is a caller of its own; with it the key's ceiling (7) is reached.
      const kiosk = await t.clientToken();
      expect((await t.call({ method: 'GET', url: URL, token: kiosk, patient: PERSON })).statusCode).toBe(200);
      const ceiling = await t.call({ method: 'GET', url: URL, token: kiosk, patient: PERSON });
      expect([ceiling.statusCode, ceiling.headers['ratelimit-policy']]).toEqual([429, `"subscription";q=${KEY_CEILING};w=600`]);
      // A third person, with a budget untouched, meets the key's ceiling; another key has its own.
      const third = await t.call({ method: 'GET', url: URL, token: await t.personToken(LILLA) });
      expect([third.statusCode, third.headers['ratelimit-policy']]).toEqual([429, `"subscription";q=${KEY_CEILING};w=600`]);
      expect((await t.call({ method: 'GET', url: URL, token: tolvan, key: OTHER_KEY })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
