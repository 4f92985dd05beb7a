import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitRedis } from '../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { InProcessCoordinator } from '../../src/adapters/write-coordination/in-process-coordinator.js';
import { RedisCoordinator } from '../../src/adapters/write-coordination/redis-coordinator.js';
import { EhrError } from '../../src/domain/ehr-error.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { redisUrl, skipWithoutRedis } from '../support/redis.js';

/** A write that notes how many copies of itself run at once. */
function probe() {
  let running = 0;
  let maxConcurrent = 0;
  let calls = 0;
  const write = async (): Promise<number> => {
    calls++;
    running++;
    maxConcurrent = Math.max(maxConcurrent, running);
    await new Promise((r) => setTimeout(r, 5));
    running--;
    return calls;
  };
  return { write, stats: () => ({ maxConcurrent, calls }) };
}

describe('InProcessCoordinator', () => {
  it('runs identical keys one at a time and different keys side by side, and forgets finished keys', async () => {
    const c = new InProcessCoordinator();
    const same = probe();
    const other = probe();
    await Promise.all([
      ...Array.from({ length: 10 }, () => c.exclusive('a', same.write)),
      ...Array.from({ length: 10 }, (_, i) => c.exclusive(`b${i}`, other.write)),
    ]);
    expect(same.stats()).toEqual({ maxConcurrent: 1, calls: 10 });
    expect(other.stats().maxConcurrent).toBeGreaterThan(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(c.pending).toBe(0);
  });

  it('keeps going after a failed write', async () => {
    const c = new InProcessCoordinator();
    await expect(c.exclusive('k', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(c.exclusive('k', async () => 42)).resolves.toBe(42);
  });
});

describe.skipIf(await skipWithoutRedis())('RedisCoordinator', () => {
  let proxy: TcpProxy;
  let clients: Array<{ client: Redis; close(): Promise<void> }>;
  const unavailable: unknown[] = [];

  beforeAll(async () => {
    const url = new URL(redisUrl());
    proxy = await TcpProxy.start(url.hostname, Number(url.port || 6379));
    clients = [0, 1].map(() => createRateLimitRedis({ url: `redis://127.0.0.1:${proxy.port}`, onWarning: () => undefined }));
    await new Promise((r) => setTimeout(r, 200));
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await proxy.close();
  });

  const coordinators = () => clients.map((c) => new RedisCoordinator(c.client, { lockTtlMs: 5000, waitMs: 3000, onUnavailable: (e) => unavailable.push(e) }));

  it('serialises one key across two instances', async () => {
    const [a, b] = coordinators();
    const p = probe();
    const key = `test-${Math.random()}`;
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b)?.exclusive(key, p.write)));
    expect(p.stats()).toEqual({ maxConcurrent: 1, calls: 20 });
  });

  it('tells the caller to retry when the key stays busy past the wait', async () => {
    const [a, b] = clients.map((c) => new RedisCoordinator(c.client, { lockTtlMs: 5000, waitMs: 100, onUnavailable: () => undefined }));
    const key = `busy-${Math.random()}`;
    const slow = a?.exclusive(key, () => new Promise((r) => setTimeout(r, 600)));
    await new Promise((r) => setTimeout(r, 30));
    const err = await b?.exclusive(key, async () => 'ran').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EhrError);
    expect(err).toMatchObject({ failure: 'unavailable', retryAfterSeconds: 1 });
    await slow;
  });

  it('falls back to in-process turns while Redis is unreachable, and reports it', async () => {
    const [a] = coordinators();
    proxy.cut();
    const before = unavailable.length;
    const p = probe();
    await Promise.all(Array.from({ length: 5 }, () => a?.exclusive('down', p.write)));
    expect(p.stats()).toEqual({ maxConcurrent: 1, calls: 5 });
    expect(unavailable.length).toBeGreaterThan(before);
    proxy.restore();
  });
});
