import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { EhrError } from '../../domain/ehr-error.js';
import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';
import { InProcessCoordinator } from './in-process-coordinator.js';

// Deletes the lock only if it is still ours: an expired lock taken over by another instance stays.
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export interface RedisCoordinatorOptions {
  /** How long a lock lives if its holder dies: longer than any write may take. */
  lockTtlMs: number;
  /** How long a write waits for its turn before the caller is told to retry (503). */
  waitMs: number;
  onUnavailable: (err: unknown) => void;
}

/**
 * A short lock per write key in Redis (SET NX PX, released by compare-and-delete), shared by all
 * instances. Keys are hashed: no identity number is stored in Redis. If Redis cannot be reached,
 * writes are still serialised within this instance and the outage is reported, as for rate limits.
 */
export class RedisCoordinator implements WriteCoordinator {
  private readonly local = new InProcessCoordinator();

  constructor(private readonly redis: Redis, private readonly options: RedisCoordinatorOptions) {}

  exclusive<T>(key: string, write: () => Promise<T>): Promise<T> {
    // Same-instance duplicates queue locally first, so only one of them polls Redis at a time.
    return this.local.exclusive(key, () => this.locked(key, write));
  }

  private async locked<T>(key: string, write: () => Promise<T>): Promise<T> {
    const lockKey = `pdas-write:${createHash('sha256').update(key).digest('hex')}`;
    const token = randomUUID();
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      let acquired: string | null;
      try {
        acquired = await this.redis.set(lockKey, token, 'PX', this.options.lockTtlMs, 'NX');
      } catch (err) {
        this.options.onUnavailable(err);
        return write();
      }
      if (acquired === 'OK') break;
      if (Date.now() > deadline) throw new EhrError('unavailable', 'an identical write is still in progress', 1);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
    }
    try {
      return await write();
    } finally {
      await this.redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
    }
  }
}
