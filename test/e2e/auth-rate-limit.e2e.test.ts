/**
 * Issue 52 item 8 (docs/sign-in.md, "Limited per source address"):
 * `/auth/*` had no limit, and 600 anonymous authorization requests wrote 1,200 rows of sign-in state.
 * The service in production settings with its own authorization server on PostgreSQL and a real
 * OpenID Provider as the region's login (test/support/sign-in-service.ts).
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPool, databaseAvailable, dropSchema } from '../support/database.js';
import { ownLoopbackSource } from '../support/loopback-source.js';
import { inspectionClient, redisUrl } from '../support/redis.js';
import { DEFAULT_RATE_LIMIT_NAMESPACE } from '../../src/adapters/rate-limit-redis/counting-store.js';
import { APP_ID, APP_REDIRECT, startSignInService, type SignInService } from '../support/sign-in-service.js';

const available = await databaseAvailable();
const LIMIT = 6;
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe.skipIf(!available)('issue 52 item 8: /auth limited per source address by RATE_LIMIT_NO_KEY_MAX', () => {
  let service: SignInService;
  const admin = adminPool();
  // A window far longer than the test: no count is reset while it runs (no timed assertion).
  beforeAll(async () => {
    service = await startSignInService({ env: { RATE_LIMIT_NO_KEY_MAX: String(LIMIT), RATE_LIMIT_WINDOW_MS: '600000' } });
  }, 60_000);
  afterAll(async () => {
    await service.close();
    await dropSchema(admin, service.schema);
    await admin.end();
  });

  const rows = async (): Promise<number> => Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM "${service.schema}".oidc_model`)).rows[0]?.n);
  const authorize = (state: number, headers: Record<string, string> = {}) => request(`${service.issuer}/auth?${new URLSearchParams({
    client_id: APP_ID, response_type: 'code', redirect_uri: APP_REDIRECT, scope: 'openid launch/patient patient/*.rs', state: `s${state}`, aud: `${service.base}/fhir`,
    code_challenge: CHALLENGE, code_challenge_method: 'S256',
  }).toString()}`, { headers });
  const token = () => request(`${service.issuer}/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token', client_id: APP_ID }).toString(),
  });

  it('issue 52 item 8: the anonymous authorization request over the limit from one source is 429 with Retry-After and the service\'s page in Swedish or English, and writes no row', async () => {
    const before = await rows();
    const answered: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await authorize(i);
      answered.push(res.statusCode);
      await res.body.dump();
    }
    // oidc-provider starts an interaction for each, and a session: a redirect to its page.
    expect(answered).toEqual(Array<number>(LIMIT).fill(303));
    const written = await rows() - before;
    expect(written).toBeGreaterThan(0);

    const over = await authorize(LIMIT, { 'accept-language': 'sv' });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['content-type']).toMatch(/^text\/html/);
    const page = await over.body.text();
    expect(page).toMatch(/<html lang="sv">/);
    expect(page).toContain('För många');
    // Before the fix: 303, and another interaction's rows.
    for (let i = 1; i < 20; i++) expect((await authorize(LIMIT + i, { 'x-forwarded-for': `10.0.0.${i}` })).statusCode).toBe(429);
    expect(await rows() - before).toBe(written);
    const english = await authorize(99, { 'accept-language': 'en' });
    expect(await english.body.text()).toContain('Too many');
  });

  it('issue 52 item 8: the token endpoint keeps a budget of its own, and over it answers an OAuth error in JSON; discovery and the keys are not limited', async () => {
    // The sign-in pages' budget is spent (above); a refresh from the same source still reaches the token endpoint.
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await token();
      answers.push(res.statusCode);
      await res.body.dump();
    }
    expect(answers).toEqual(Array<number>(LIMIT).fill(400));
    const over = await token();
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['content-type']).toMatch(/^application\/json/);
    // An answer under /auth that is no page is never rendered as one or framed (docs/sign-in.md).
    expect([over.headers['x-content-type-options'], over.headers['x-frame-options'], over.headers['content-security-policy']])
      .toEqual(['nosniff', 'DENY', "default-src 'none'; frame-ancestors 'none'"]);
    expect(await over.body.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^Too many requests from this address: try again in \d+ seconds\.$/) });
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      const res = await request(`${service.issuer}${path}`);
      expect([path, res.statusCode]).toEqual([path, 200]);
      await res.body.dump();
    }
  });
});

describe.skipIf(!available)('issue 52 item 8: /auth\'s limit per source, shared by two instances through Redis', () => {
  let service: SignInService;
  const admin = adminPool();
  const redis = inspectionClient();
  // The service names its Redis counters by source address alone: this run's own loopback address
  // keeps them apart from another run's on the same Redis, and they are deleted after.
  const source = ownLoopbackSource(52);
  const dispatcher = new Agent({ localAddress: source });
  const counters = async (): Promise<string[]> => redis.keys(`${DEFAULT_RATE_LIMIT_NAMESPACE}*auth-*|addr:${source}`);
  beforeAll(async () => {
    await redis.connect();
    service = await startSignInService({ env: { RATE_LIMIT_NO_KEY_MAX: String(LIMIT), RATE_LIMIT_WINDOW_MS: '600000', REDIS_URL: redisUrl() } });
    await service.startInstance();
  }, 60_000);
  afterAll(async () => {
    const keys = await counters();
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await dispatcher.close();
    await service.close();
    await dropSchema(admin, service.schema);
    await admin.end();
  });

  it('issue 52 item 8: requests from one source to either instance spend one budget', async () => {
    const [a, b] = service.instances.map((i) => i.base);
    const ask = async (base: string | undefined, n: number): Promise<number> => {
      const res = await request(`${base ?? ''}/auth/session/end`, { dispatcher });
      await res.body.dump();
      return res.statusCode === 429 ? 429 : n;
    };
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await ask(i % 2 === 0 ? a : b, i));
    expect(answers).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    // Before the fix neither instance counted; with a counter of its own each would let LIMIT more through.
    expect([await ask(a, -1), await ask(b, -1)]).toEqual([429, 429]);
    const keys = await counters();
    expect(keys).toHaveLength(1);
    expect(await redis.get(keys[0] ?? '')).toBe(String(LIMIT + 2));
  });
});
