import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { isUnconfirmedWrite } from '../../domain/ehr-error.js';
import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';
import { WriteTurnUnavailableError, type WriteCoordinator } from '../../ports/write-coordinator.port.js';
import { InProcessCoordinator, stillInProgress } from './in-process-coordinator.js';

// Deletes the lock only if it is still ours: an expired lock taken over by another instance stays.
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
// Gives the lock, if still ours, its whole lifetime again from now.
const PROLONG = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

export interface RedisCoordinatorOptions {
  /** How long a lock lives if its holder dies: longer than any write may take. */
  lockTtlMs: number;
  /** How long a write whose outcome is unknown holds its lock from the failure (PROLONG); `lockTtlMs` when absent. */
  inDoubtMs?: number;
  /**
   * How long a write waits for its turn before the caller is told to retry (503): counted from the
   * call, the wait behind this instance's identical writes and the wait for the lock together.
   */
  waitMs: number;
  onUnavailable: (err: unknown) => void;
}

/**
 * A short lock per write key in Redis (SET NX PX, released by compare-and-delete, or left to expire after
 * a write whose outcome is unknown), shared by all instances. Keys are hashed: no identity number is stored in Redis. If Redis cannot be reached, a
 * write is refused (WriteTurnUnavailableError) and the outage reported: unlike a rate limit, which lets
 * requests through, a write made with turns taken only within one instance could be made twice by two
 * (an EHR that checks before it creates, as a FHIR server without conditional create is written to).
 */
export class RedisCoordinator implements WriteCoordinator {
  private readonly local: InProcessCoordinator;

  constructor(private readonly redis: Redis, private readonly options: RedisCoordinatorOptions) {
    this.local = new InProcessCoordinator({ waitMs: options.waitMs });
  }

  exclusive<T>(key: string, abandoned: AbortSignal, write: () => Promise<T>): Promise<T> {
    // One bound from the call: 30 duplicates on one instance were answered one wait after another (helper-127).
    const deadline = performance.now() + this.options.waitMs;
    // Same-instance duplicates queue locally first, so only one of them polls Redis at a time.
    return this.local.exclusive(key, abandoned, () => this.locked(key, abandoned, deadline, write));
  }

  private async locked<T>(key: string, abandoned: AbortSignal, deadline: number, write: () => Promise<T>): Promise<T> {
    const lockKey = `pdas-write:${createHash('sha256').update(key).digest('hex')}`;
    const token = randomUUID();
    for (;;) {
      let acquired: string | null;
      try {
        acquired = await this.redis.set(lockKey, token, 'PX', this.options.lockTtlMs, 'NX');
      } catch (err) {
        this.options.onUnavailable(err);
        // Redis may apply a SET whose answer came too late: unreleased, that lock would hold the key, on every
        // instance, for its whole lifetime (hostile reviews helper-132 F1, helper-134 F5). Sent after the SET on the
        // same connection, the release is applied after it.
        void this.release(lockKey, token);
        throw new WriteTurnUnavailableError();
      }
      if (acquired === 'OK') break;
      const left = deadline - performance.now();
      if (left <= 0) throw stillInProgress();
      await sleep(Math.min(left, 20 + Math.random() * 30), undefined, { signal: abandoned }).catch(() => undefined);
      if (abandoned.aborted) throw new AnswerAbandonedError();
    }
    let written: T;
    try {
      written = await this.begun(abandoned, write);
    } catch (err) {
      // Kept its whole lifetime from now, as the in-process hold is: a repeat on any instance would ask the EHR beside
      // a write that may still be made (helper-134 F3; counted from the SET, it was 10 s after a 504: helper-135 F3).
      await (isUnconfirmedWrite(err) ? this.prolong(lockKey, token) : this.release(lockKey, token));
      throw err;
    }
    await this.release(lockKey, token);
    return written;
  }

  /** Deletes the lock if it is still ours; a failure leaves it to expire. */
  private release(lockKey: string, token: string): Promise<void> {
    return this.redis.eval(RELEASE, 1, lockKey, token).then(() => undefined, () => undefined);
  }

  /** Gives the lock, if still ours, the hold of a write whose outcome is unknown from now; a failure leaves it its lifetime. */
  private prolong(lockKey: string, token: string): Promise<void> {
    return this.redis.eval(PROLONG, 1, lockKey, token, this.options.inDoubtMs ?? this.options.lockTtlMs).then(() => undefined, () => undefined);
  }

  /** `write`, unless its caller left while the turn or the lock was being taken. */
  private async begun<T>(abandoned: AbortSignal, write: () => Promise<T>): Promise<T> {
    if (abandoned.aborted) throw new AnswerAbandonedError();
    return write();
  }
}
