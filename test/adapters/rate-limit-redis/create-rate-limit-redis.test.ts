import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimitRedis, reconnectDelay, type RateLimitRedis } from '../../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { pollUntil, redisUrl, skipWithoutRedis, uniqueNameSpace } from '../../support/redis.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { expectDeadlineKept } from '../../support/scheduling.js';
import { StallingProxy } from './stalling-proxy.js';

const COMMAND_TIMEOUT_MS = 250;

const skip = await skipWithoutRedis();
const target = new URL(redisUrl());
const [host, port] = [target.hostname, Number(target.port || 6379)];

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skip)('rate-limit Redis connection', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function open(url: string) {
    const warnings: string[] = [];
    const infos: string[] = [];
    const redis: RateLimitRedis = createRateLimitRedis({ url, onWarning: (m) => warnings.push(m), onInfo: (m) => infos.push(m) });
    const events: string[] = [];
    for (const name of ['ready', 'close', 'reconnecting']) redis.client.on(name, () => events.push(name));
    cleanups.push(() => redis.close());
    return { redis, warnings, infos, events };
  }

  async function proxy(): Promise<TcpProxy> {
    const made = await TcpProxy.start(host, port);
    cleanups.push(() => made.close());
    return made;
  }

  it('backs off between reconnect attempts up to 2 s, and never gives up', () => {
    expect([1, 2, 3, 4, 5, 6, 50, 10_000].map(reconnectDelay)).toEqual([200, 400, 800, 1600, 2000, 2000, 2000, 2000]);
  });

  it('connects in the background as soon as it is made, and answers PING when Redis is up', async () => {
    const { redis, warnings, events } = open(redisUrl());
    // Nothing is sent: the first request must not be the one that finds the connection missing.
    expect(await pollUntil(async () => events, (e) => e.includes('ready'), 2000)).toContain('ready');
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 3000)).toBe(true);
    expect(redis.health.skippedChecks).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('starts while Redis is down without waiting or throwing, refuses commands at once, warns once, and connects by itself when Redis comes', async () => {
    const down = await proxy();
    down.cut('refuse');
    const { redis, warnings, infos, events } = open(`redis://127.0.0.1:${down.port}`);

    // Refused, not queued: a queued command would fail later as "Command timed out".
    const get = await timed(() => redis.client.get(`${uniqueNameSpace('down')}k`).then(() => 'answered', (err: Error) => err.message));
    expect(get.value).toMatch(/enableOfflineQueue|Connection is closed/);
    const ping = await timed(() => redis.health.ping());
    expect(ping.value).toBe(false);
    expectDeadlineKept(ping.ms, COMMAND_TIMEOUT_MS, 'the health PING');

    // Several reconnect attempts (200 ms, 400 ms, 800 ms apart), one warning line.
    await pollUntil(async () => events.filter((e) => e === 'reconnecting').length, (n) => n >= 3, 3000);
    expect(events.filter((e) => e === 'reconnecting').length).toBeGreaterThanOrEqual(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Redis for rate limits is unavailable \(.+\): limits are not enforced; skipped checks: 0 since the previous warning, 0 in all$/);
    expect(infos).toEqual([]);

    down.restore();
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 4000)).toBe(true);
    expect(infos).toEqual(['Redis for rate limits is reachable again: limits are enforced; skipped checks: 0 since the previous warning, 0 in all']);
  });

  it('gives up on a server that accepts but never answers within the command timeout, and returns by itself', async () => {
    const hole = await proxy();
    const { redis, warnings } = open(`redis://127.0.0.1:${hole.port}`);
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 3000)).toBe(true);

    hole.cut('blackhole');
    for (let i = 0; i < 6; i++) {
      const ping = await timed(() => redis.health.ping());
      expect(ping.value).toBe(false);
      expectDeadlineKept(ping.ms, COMMAND_TIMEOUT_MS, 'the health PING');
      await sleep(150);
    }
    expect(warnings.length).toBe(1);

    hole.restore();
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 5000)).toBe(true);
  });

  it('waits at most the command timeout on a stalled connection, rebuilds it, and recovers when Redis resumes', async () => {
    const stalling = await StallingProxy.start(host, port);
    cleanups.push(() => stalling.close());
    const { redis, events } = open(`redis://127.0.0.1:${stalling.port}`);
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 3000)).toBe(true);
    const key = `${uniqueNameSpace('stall')}k`;

    stalling.stall();
    const stalled = await timed(() => redis.client.incr(key).then(() => undefined, (err: unknown) => err));
    expect(stalled.value).toBeInstanceOf(Error);
    expect((stalled.value as Error).message).toBe('Command timed out');
    expect(stalled.ms).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 20);
    expectDeadlineKept(stalled.ms, COMMAND_TIMEOUT_MS, 'the stalled INCR');

    redis.health.recordSkippedCheck(stalled.value);
    expect(redis.health.skippedChecks).toBe(1);
    // The PING that confirms the stall times out too; then the connection is dropped and checks fail at once.
    expect(await pollUntil(async () => redis.client.status, (s) => s !== 'ready', 2000)).not.toBe('ready');
    expect(events).toContain('close');
    // Refused at once on the dropped connection, not left to time out on it.
    const fast = await timed(() => redis.client.incr(key).then(() => 'answered', (err: Error) => err.message));
    expect(fast.value).toMatch(/enableOfflineQueue|Connection is closed/);

    stalling.resume();
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 5000)).toBe(true);
    // The INCR that timed out went down with the old connection and is not replayed on the new one.
    expect(await redis.client.incr(key)).toBe(1);
    await redis.client.del(key);
  });

  it('keeps a healthy connection when one check failed but PING still answers', async () => {
    const { redis, events } = open(redisUrl());
    expect(await pollUntil(() => redis.health.ping(), (ok) => ok, 3000)).toBe(true);
    redis.health.recordSkippedCheck(new Error('OOM command not allowed'));
    await sleep(COMMAND_TIMEOUT_MS + 200);
    expect(redis.client.status).toBe('ready');
    expect(events.filter((e) => e === 'close')).toEqual([]);
    expect(redis.health.skippedChecks).toBe(1);
  });

  it('closes promptly in any state, once, and stops reconnecting', async () => {
    const down = await proxy();
    down.cut('refuse');
    const { redis, events } = open(`redis://127.0.0.1:${down.port}`);
    await pollUntil(async () => redis.client.status, (s) => s === 'reconnecting', 2000);

    const closing = redis.close();
    expect(redis.close()).toBe(closing);
    expectDeadlineKept((await timed(() => closing)).ms, COMMAND_TIMEOUT_MS, 'closed');
    down.restore();
    await sleep(reconnectDelay(2) + 300);
    expect(events).not.toContain('ready');
    expect(await redis.health.ping()).toBe(false);

    const { redis: up } = open(redisUrl());
    expect(await pollUntil(() => up.health.ping(), (ok) => ok, 3000)).toBe(true);
    expectDeadlineKept((await timed(() => up.close())).ms, COMMAND_TIMEOUT_MS, 'closed');
    expect(up.client.status).toBe('end');
  });
});
