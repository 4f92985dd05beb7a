import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

/** Prefix of the counter keys; tests give each run its own. */
export const DEFAULT_RATE_LIMIT_NAMESPACE = 'pdas-rl:';

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];
type Inner = InstanceType<typeof RedisStore>;

/**
 * @fastify/rate-limit's own Redis store, with each failure reported before the plugin's
 * `skipOnError` lets the request through: the plugin swallows the error without a trace, and a
 * limit that silently stops holding must at least be counted and warned about.
 */
export function countingRedisStore(client: Redis, nameSpace: string, onStoreError: (err: unknown) => void): FastifyRateLimitStoreCtor {
  const reporting = (callback: StoreCallback): StoreCallback => (err, result) => {
    if (err) {
      try {
        onStoreError(err);
      } catch {
        // A broken counter must not turn failing open into failing the request.
      }
    }
    callback(err, result);
  };

  class CountingStore implements FastifyRateLimitStore {
    constructor(private readonly inner: Inner) {}

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      this.inner.incr(key, reporting(callback), timeWindow, max);
    }

    read(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      this.inner.read(key, reporting(callback), timeWindow, max);
    }

    child(routeOptions: ChildOptions): FastifyRateLimitStore {
      return new CountingStore(this.inner.child(routeOptions) as Inner);
    }
  }

  return class extends CountingStore {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(new RedisStore(options.continueExceeding === true, options.exponentialBackoff === true, client, nameSpace));
    }
  };
}
