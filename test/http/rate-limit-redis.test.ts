import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitRedis, type RateLimitRedis } from '../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { deleteNameSpace, inspectionClient, pollUntil, redisUrl, skipWithoutRedis, uniqueNameSpace } from '../support/redis.js';
import { StallingProxy } from '../adapters/rate-limit-redis/stalling-proxy.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { OTHER_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectDeadlineKept } from '../support/scheduling.js';

const PERSON = '191212121212';
const COMMAND_TIMEOUT_MS = 250;
const MESSAGE = /^Rate limit is exceeded\. Try again in (\d+) seconds\.$/;

const skip = await skipWithoutRedis();
const target = new URL(redisUrl());

interface Instance {
  t: TestApp;
  redis: RateLimitRedis;
  warnings: string[];
  infos: string[];
  get(url?: string, headers?: Record<string, string>, key?: string): Promise<LightMyRequestResponse>;
}

describe.skipIf(skip)('rate limit per subscription key, shared through Redis', () => {
  const inspect = inspectionClient();
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(() => inspect.connect());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(() => inspect.disconnect());

  /** One service instance with its own Redis connection, as the composition root wires it. */
  async function instance(options: { nameSpace: string; max: number; windowMs: number; url?: string; appMax?: number }): Promise<Instance> {
    const warnings: string[] = [];
    const infos: string[] = [];
    const redis = createRateLimitRedis({ url: options.url ?? redisUrl(), onWarning: (m) => warnings.push(m), onInfo: (m) => infos.push(m) });
    cleanups.push(() => redis.close());
    const t = await startTestApp({
      rateLimitMax: options.max, rateLimitWindowMs: options.windowMs, rateLimitNameSpace: options.nameSpace,
      ...(options.appMax === undefined ? {} : { rateLimitAppMax: options.appMax }),
      redisClient: redis.client, onRedisStoreError: redis.health.recordSkippedCheck,
    });
    cleanups.push(() => t.close());
    const token = await t.personToken(PERSON);
    return {
      t, redis, warnings, infos,
      get: (url = '/patients/appointments/', headers = {}, key = undefined) => t.call({ method: 'GET', url, token, headers, ...(key ? { key } : {}) }),
    };
  }

  async function ready(...instances: Instance[]): Promise<void> {
    for (const i of instances) expect(await pollUntil(() => i.redis.health.ping(), (ok) => ok, 3000)).toBe(true);
  }

  async function proxy(): Promise<TcpProxy> {
    const made = await TcpProxy.start(target.hostname, Number(target.port || 6379));
    cleanups.push(() => made.close());
    return made;
  }

  /** Two instances on one fresh counter namespace, both connected. */
  async function pair(label: string, max: number, windowMs: number): Promise<{ nameSpace: string; a: Instance; b: Instance }> {
    const nameSpace = uniqueNameSpace(label);
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const a = await instance({ nameSpace, max, windowMs });
    const b = await instance({ nameSpace, max, windowMs });
    await ready(a, b);
    return { nameSpace, a, b };
  }

  /** The one counter of a key's callers in Redis (issue 52 item 6): the key's own, or its person's in it. */
  async function counterOf(nameSpace: string, key: 'sub:test' | 'sub:other', of: 'key' | 'person'): Promise<string> {
    const found = await inspect.keys(of === 'person' ? `${nameSpace}${key}|person:*` : `${nameSpace}*-${key}`);
    expect(found).toHaveLength(1);
    return found[0] ?? '';
  }

  function expect429(res: LightMyRequestResponse, windowMs: number): void {
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(windowMs / 1000));
    expect(res.json()).toEqual({ statusCode: 429, message: `Rate limit is exceeded. Try again in ${retryAfter} seconds.` });
  }

  it('issue 44 item 4: a keyless app\'s ceiling is one limit over two instances; each person\'s budget is counted in Redis too', async () => {
    const nameSpace = uniqueNameSpace('app-person');
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const [a, b] = [await instance({ nameSpace, max: 2, windowMs: 60_000, appMax: 3 }), await instance({ nameSpace, max: 2, windowMs: 60_000, appMax: 3 })];
    await ready(a, b);
    // Each test app has an issuer of its own, so a token is made on the instance it is sent to.
    const token = (i: Instance, person: string) => i.t.personToken(person, { scope: 'patient/*.rs', client_id: 'app-a' });
    const fhir = async (i: Instance, person: string) => i.t.call({ method: 'GET', url: '/fhir/Patient', token: await token(i, person), key: null });
    expect([(await fhir(a, PERSON)).statusCode, (await fhir(a, PERSON)).statusCode]).toEqual([200, 200]);
    const own = await fhir(a, PERSON);
    expect([own.statusCode, own.headers['ratelimit-policy']]).toEqual([429, '"app-person";q=2;w=60']);
    // On the other instance Märta has her own budget, but the app has one left of its three.
    expect((await fhir(b, '198112189876')).statusCode).toBe(200);
    const ceiling = await fhir(b, '198112189876');
    expect([ceiling.statusCode, ceiling.headers['ratelimit-policy']]).toEqual([429, '"app";q=3;w=60']);
    const keys = await inspect.keys(`${nameSpace}*`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(keys.filter((k) => k.includes(PERSON))).toEqual([]);
  });

  it('issue 52 item 6: under one key each person\'s budget and the key\'s ceiling are counted in Redis, one limit over two instances', async () => {
    const nameSpace = uniqueNameSpace('key-person');
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const [a, b] = [await instance({ nameSpace, max: 2, windowMs: 60_000, appMax: 3 }), await instance({ nameSpace, max: 2, windowMs: 60_000, appMax: 3 })];
    await ready(a, b);
    const keyed = async (i: Instance, person: string) => i.t.call({ method: 'GET', url: '/patients/appointments/', token: await i.t.personToken(person) });
    expect([(await keyed(a, PERSON)).statusCode, (await keyed(b, PERSON)).statusCode]).toEqual([200, 200]);
    const own = await keyed(a, PERSON);
    expect([own.statusCode, own.headers['ratelimit-policy']]).toEqual([429, '"subscription-person";q=2;w=60']);
    // Märta holds the same key (before the fix its budget was spent: 429); the key has one left of its three.
    expect((await keyed(b, '198112189876')).statusCode).toBe(200);
    const ceiling = await keyed(a, '198112189876');
    expect([ceiling.statusCode, ceiling.headers['ratelimit-policy']]).toEqual([429, '"subscription";q=3;w=60']);
    // Three requests let through and the one the ceiling refused; each person's own count (Märta's two, Tolvan's three).
    expect(await inspect.get(await counterOf(nameSpace, 'sub:test', 'key'))).toBe('4');
    const keys = await inspect.keys(`${nameSpace}sub:test|person:*`);
    expect((await Promise.all(keys.map((k) => inspect.get(k)))).sort()).toEqual(['2', '3']);
    expect((await inspect.keys(`${nameSpace}*`)).filter((k) => k.includes(PERSON))).toEqual([]);
  });

  it('holds one combined limit for two instances: N requests over both pass, the next is 429 on either', async () => {
    const { nameSpace, a, b } = await pair('two', 4, 10_000);

    const passed = [await a.get(), await b.get(), await a.get(), await b.get()];
    expect(passed.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(passed.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0']);

    expect429(await b.get(), 10_000);
    expect429(await a.get(), 10_000);
    const contacts = await a.get('/patients/contacts/');
    expect(contacts.statusCode).toBe(429);
    expect(contacts.json()).toEqual({ status: 429, error: expect.stringMatching(MESSAGE), path: '/patients/contacts/', timestamp: expect.any(Number) });
    expect((await b.get('/patients/contacts/')).statusCode).toBe(429);

    // Another key has its own allowance on both instances.
    expect((await a.get('/patients/appointments/', {}, OTHER_KEY)).statusCode).toBe(200);
    expect((await b.get('/patients/appointments/', {}, OTHER_KEY)).headers['x-ratelimit-remaining']).toBe('2');

    // The counter is the one in Redis, not two in-process ones.
    expect(await inspect.get(await counterOf(nameSpace, 'sub:test', 'person'))).toBe('8');
    expect(await inspect.get(await counterOf(nameSpace, 'sub:other', 'person'))).toBe('2');
    expect(a.redis.health.skippedChecks + b.redis.health.skippedChecks).toBe(0);
    expect([...a.warnings, ...b.warnings]).toEqual([]);
  });

  it('issue 15: gives RateLimit-Policy and RateLimit from the shared counters, per key and (issue 12 item 4) per source address without a valid key', async () => {
    const { nameSpace, a, b } = await pair('fields', 2, 10_000);

    const keyed = [await a.get(), await b.get(), await a.get()];
    expect(keyed.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    for (const r of keyed) expect(r.headers['ratelimit-policy']).toBe('"subscription-person";q=2;w=10');
    expect(keyed.map((r) => /^"subscription-person";r=(\d+);t=(\d+)$/.exec(String(r.headers.ratelimit))?.[1])).toEqual(['1', '0', '0']);
    expect(keyed[2]?.headers.ratelimit).toBe(`"subscription-person";r=0;t=${String(keyed[2]?.headers['retry-after'])}`);

    const keyless = [
      await a.t.call({ method: 'GET', url: '/patients/contacts/', key: null }),
      await b.t.call({ method: 'GET', url: '/patients/contacts/', key: 'not-a-key-not-a-key-0000' }),
      await a.t.call({ method: 'GET', url: '/patients/contacts/', key: null }),
    ];
    expect(keyless.map((r) => r.statusCode)).toEqual([401, 401, 429]);
    expect(keyless[2]?.json()).toMatchObject({ status: 429, error: expect.stringMatching(MESSAGE) });
    for (const r of keyless) expect(r.headers['ratelimit-policy']).toBe('"address";q=2;w=10');
    expect(keyless.map((r) => /^"address";r=(\d+);t=\d+$/.exec(String(r.headers.ratelimit))?.[1])).toEqual(['1', '0', '0']);
    expect(await inspect.get(`${nameSpace}addr:127.0.0.1`)).toBe('3');
  });

  it('lets exactly N of a concurrent burst over both instances through', async () => {
    const { a, b } = await pair('burst', 6, 10_000);

    const burst = await Promise.all(Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? a : b).get()));
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
  });

  it('starts a new window when the old one expires', async () => {
    const { nameSpace, a, b } = await pair('window', 2, 1200);

    expect((await a.get()).statusCode).toBe(200);
    expect((await b.get()).statusCode).toBe(200);
    const over = await a.get();
    expect429(over, 1200);
    const left = await inspect.pttl(await counterOf(nameSpace, 'sub:test', 'person'));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1200);
    // A caller who waits as told is let in again.
    expect(Number(over.headers['retry-after']) * 1000).toBeGreaterThanOrEqual(left);

    await new Promise((resolve) => setTimeout(resolve, left + 50));
    const fresh = await b.get();
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('1');
  });

  /** A way for Redis to fail: the TcpProxy's two cuts, and a stall that keeps the connection open. */
  async function outage(mode: 'refuse' | 'blackhole' | 'stall'): Promise<{ port: number; cut(): void; restore(): void }> {
    if (mode !== 'stall') {
      const link = await proxy();
      return { port: link.port, cut: () => link.cut(mode), restore: () => link.restore() };
    }
    const link = await StallingProxy.start(target.hostname, Number(target.port || 6379));
    cleanups.push(() => link.close());
    return { port: link.port, cut: () => link.stall(), restore: () => link.resume() };
  }

  it.each(['refuse', 'blackhole', 'stall'] as const)('keeps answering without limits while Redis is cut (%s), counts and warns once, and enforces again by itself', async (mode) => {
    const nameSpace = uniqueNameSpace(`cut-${mode}`);
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const link = await outage(mode);
    const a = await instance({ nameSpace, max: 2, windowMs: 30_000, url: `redis://127.0.0.1:${link.port}` });
    await ready(a);
    expect((await a.get()).statusCode).toBe(200);
    expect((await a.get()).statusCode).toBe(200);
    expect429(await a.get(), 30_000);
    let attempts = 0;
    a.redis.client.on('connect', () => attempts++);
    // Only what the outage says counts: on a loaded machine the first connect can outlast its 500 ms and
    // be retried, which warns and then reports Redis back before the cut (one full run here in many).
    const warnedBefore = a.warnings.length;
    const toldBefore = a.infos.length;
    const warnings = () => a.warnings.slice(warnedBefore);

    link.cut();
    const took: number[] = [];
    // Spread over 1.6 s, so the requests also meet the reconnect attempts made into the outage.
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const res = await a.get();
      took.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
      // Nothing was counted: no RateLimit fields promise a quota that is not enforced (issue 15).
      expect([res.headers['ratelimit-policy'], res.headers.ratelimit]).toEqual([undefined, undefined]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expectDeadlineKept(Math.max(...took), COMMAND_TIMEOUT_MS, 'every request');
    if (mode === 'stall') expect(took[0]).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 20);
    if (mode !== 'refuse') expect(attempts).toBeGreaterThanOrEqual(1);
    expect(a.redis.health.skippedChecks).toBe(8);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/^Redis for rate limits is unavailable \(.+\): limits are not enforced; skipped checks: \d since the previous warning, \d in all$/);

    link.restore();
    const enforced = await pollUntil(() => a.get(), (res) => res.statusCode === 429, 6000);
    expect429(enforced, 30_000);
    expect(a.infos.slice(toldBefore)).toHaveLength(1);
    expect(a.infos.at(-1)).toMatch(/^Redis for rate limits is reachable again: limits are enforced; skipped checks: \d+ since the previous warning, \d+ in all$/);
    expect(warnings()).toHaveLength(1);
  });

  it('builds and answers while Redis is down at start, then limits once Redis comes', async () => {
    const nameSpace = uniqueNameSpace('down-at-start');
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const link = await proxy();
    link.cut('refuse');
    const a = await instance({ nameSpace, max: 2, windowMs: 30_000, url: `redis://127.0.0.1:${link.port}` });

    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.get()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(a.redis.health.skippedChecks).toBe(4);
    expect(await a.redis.health.ping()).toBe(false);

    link.restore();
    expect(await pollUntil(() => a.redis.health.ping(), (ok) => ok, 5000)).toBe(true);
    expect((await a.get()).statusCode).toBe(200);
    expect((await a.get()).statusCode).toBe(200);
    expect429(await a.get(), 30_000);
    expect(await inspect.get(await counterOf(nameSpace, 'sub:test', 'person'))).toBe('3');
  });

  it('keys on the subscription key alone: a forged X-Forwarded-For neither escapes the limit nor makes a key of its own', async () => {
    const nameSpace = uniqueNameSpace('xff');
    cleanups.push(() => deleteNameSpace(inspect, nameSpace));
    const a = await instance({ nameSpace, max: 2, windowMs: 10_000 });
    await ready(a);

    expect((await a.get('/patients/appointments/', { 'x-forwarded-for': '10.0.0.1' })).statusCode).toBe(200);
    expect((await a.get('/patients/appointments/', { 'x-forwarded-for': '10.0.0.2' })).statusCode).toBe(200);
    expect429(await a.get('/patients/appointments/', { 'x-forwarded-for': '10.0.0.3, 192.0.2.1' }), 10_000);
    expect429(await a.get(), 10_000);

    const [, keys] = await inspect.scan('0', 'MATCH', `${nameSpace}*`, 'COUNT', 1000);
    // The person's counter under the key and the key's ceiling, nothing of the forwarded addresses.
    expect(keys.sort()).toEqual([await counterOf(nameSpace, 'sub:test', 'key'), await counterOf(nameSpace, 'sub:test', 'person')].sort());
  });
});
