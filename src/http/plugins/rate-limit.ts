import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { countingRedisStore } from '../../adapters/rate-limit-redis/counting-store.js';
import { ApiError } from '../api-error.js';

/** Counters in Redis, shared by every instance on it. */
export interface RateLimitRedisStore {
  client: Redis;
  /** Called once per request let through unchecked because Redis failed (it counts and warns). */
  onStoreError: (err: unknown) => void;
  /** Prefix of the counter keys; tests give each run its own. */
  nameSpace?: string;
}

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Without it the counters live in this process, as many limits as instances. */
  redis?: RateLimitRedisStore;
}

export const DEFAULT_RATE_LIMIT_NAMESPACE = 'pdas-rl:';

/**
 * Requests per subscription key per window (never per forwarded address, which a caller can forge).
 * Registered after the credentials plugin: its per-route hook runs after the key is identified.
 * With Redis, a failing store lets the request through (contract §5: no limits without Redis,
 * rather than no service); the store reports each such request before the plugin swallows it.
 */
export const rateLimitPerSubscription = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  const shared = opts.redis === undefined ? {} : {
    store: countingRedisStore(opts.redis.client, opts.redis.nameSpace ?? DEFAULT_RATE_LIMIT_NAMESPACE, opts.redis.onStoreError),
    skipOnError: true,
  };
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: opts.max,
    timeWindow: opts.windowMs,
    ...shared,
    keyGenerator: (request) => `sub:${request.subscription ?? 'none'}`,
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, `Rate limit is exceeded. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`),
  });
}, { name: 'rate-limit-per-subscription', dependencies: ['credentials'] });
