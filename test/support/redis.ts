import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inCi, noteSkip } from './requirements.js';

/** The Redis the tests use: `REDIS_URL`, else the local default. */
export function redisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** Host and port only: a URL may carry a password, which never belongs in test output. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL (unparsable)';
  }
}

/** A key prefix no other test or suite on the shared Redis uses. */
export function uniqueNameSpace(label: string): string {
  return `pdas-test:${label}:${randomUUID()}:`;
}

/** A plain client for a test's own checks of what the service stored; one attempt, bounded. */
export function inspectionClient(): Redis {
  return new Redis(redisUrl(), { lazyConnect: true, connectTimeout: 1000, commandTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
}

/**
 * For `describe.skipIf(await skipWithoutRedis())`: resolves `false` when Redis answers PING. When it
 * does not, CI (`CI=true`) fails the suite with the reason, since a skipped suite proves nothing
 * there; elsewhere it resolves `true` (skip) and says why.
 */
export async function skipWithoutRedis(): Promise<boolean> {
  const url = redisUrl();
  const client = inspectionClient();
  // The driver rejects with "Connection is closed."; the reason (ECONNREFUSED ...) comes as an event.
  let reason: string | undefined;
  client.on('error', (err: Error) => {
    reason ??= err.message;
  });
  let problem: string | undefined;
  try {
    await client.connect();
    const reply = await client.ping();
    if (reply !== 'PONG') problem = `PING answered ${JSON.stringify(reply).slice(0, 40)}`;
  } catch (err) {
    problem = reason ?? (err instanceof Error ? err.message : String(err));
  } finally {
    client.disconnect();
  }
  if (problem === undefined) return false;
  const message = `Redis at ${where(url)} is unreachable (${problem}); start redis-server or set REDIS_URL`;
  if (inCi()) throw new Error(`${message}. CI runs every Redis test.`);
  noteSkip('Redis', message);
  return true;
}

export { pollUntil } from './poll.js';

/** Deletes a test's own keys (never FLUSHDB: other suites share this Redis); bounded SCAN. */
export async function deleteNameSpace(client: Redis, nameSpace: string): Promise<void> {
  let cursor = '0';
  for (let round = 0; round < 1000; round++) {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${nameSpace}*`, 'COUNT', 500);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}
