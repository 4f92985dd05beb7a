import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingRedisStore } from '../../../src/adapters/rate-limit-redis/counting-store.js';
import { createRateLimitRedis, type RateLimitRedis } from '../../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { inspectionClient, pollUntil, redisUrl, skipWithoutRedis, uniqueNameSpace } from '../../support/redis.js';

type Counted = { current: number; ttl: number };

function call(store: FastifyRateLimitStore, method: 'incr' | 'read', key: string, windowMs: number, max: number): Promise<Counted> {
  return new Promise((resolve, reject) => {
    const target = store as FastifyRateLimitStore & { read: FastifyRateLimitStore['incr'] };
    target[method](key, (err, result) => (err ? reject(err) : resolve(result as Counted)), windowMs, max);
  });
}

const skip = await skipWithoutRedis();

describe.skipIf(skip)('counting Redis store (the plugin\'s Redis store, failures reported)', () => {
  const inspect = inspectionClient();
  const connections: RateLimitRedis[] = [];
  const connection = async (): Promise<RateLimitRedis> => {
    const made = createRateLimitRedis({ url: redisUrl(), onWarning: () => undefined });
    connections.push(made);
    expect(await pollUntil(() => made.health.ping(), (ok) => ok, 3000)).toBe(true);
    return made;
  };
  beforeAll(() => inspect.connect());
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    inspect.disconnect();
  });

  it('keeps one counter per key in Redis under the namespace, with the window as its lifetime, shared across connections', async () => {
    const ns = uniqueNameSpace('store');
    const errors: unknown[] = [];
    const [a, b] = [await connection(), await connection()];
    const storeA = new (countingRedisStore(a.client, ns, (e) => errors.push(e)))({});
    const storeB = new (countingRedisStore(b.client, ns, (e) => errors.push(e)))({});

    expect(await call(storeA, 'incr', 'sub:test', 2000, 5)).toEqual({ current: 1, ttl: 2000 });
    const second = await call(storeB, 'incr', 'sub:test', 2000, 5);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(2000);
    expect(await call(storeB, 'incr', 'sub:other', 2000, 5)).toEqual({ current: 1, ttl: 2000 });

    expect(await inspect.get(`${ns}sub:test`)).toBe('2');
    const pttl = await inspect.pttl(`${ns}sub:test`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(2000);

    const peek = await call(storeA, 'read', 'sub:test', 2000, 5);
    expect(peek.current).toBe(2);
    expect(await inspect.get(`${ns}sub:test`)).toBe('2');
    expect(errors).toEqual([]);
  });

  it('reports every failed count or read once, and still hands the error to the plugin', async () => {
    const made = await connection();
    await made.close();
    const errors: unknown[] = [];
    const store = new (countingRedisStore(made.client, uniqueNameSpace('closed'), (e) => errors.push(e)))({});

    const incr = call(store, 'incr', 'sub:test', 1000, 5);
    await expect(incr).rejects.toThrow('Connection is closed.');
    await expect(call(store, 'read', 'sub:test', 1000, 5)).rejects.toThrow('Connection is closed.');
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof Error && e.message === 'Connection is closed.')).toBe(true);
  });

  it('keeps reporting in route-specific child stores, and a throwing reporter never keeps the error from the plugin', async () => {
    const made = await connection();
    await made.close();
    let reported = 0;
    const Store = countingRedisStore(made.client, uniqueNameSpace('child'), () => {
      reported++;
      throw new Error('metrics broke');
    });
    const child = new Store({}).child({ routeInfo: { method: 'GET', url: '/x' } } as never);
    await expect(call(child, 'incr', 'sub:test', 1000, 5)).rejects.toThrow('Connection is closed.');
    expect(reported).toBe(1);
  });
});
