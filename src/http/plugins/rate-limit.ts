import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  /** Requests without a valid subscription key, per source address per window. */
  noKeyMax: number;
  /** Without it the counters live in this process, as many limits as instances. */
  redis?: RateLimitRedisStore;
}

export const DEFAULT_RATE_LIMIT_NAMESPACE = 'pdas-rl:';

const BY_ADDRESS = 'addr:';

/** The policy a request is counted under, as the RateLimit fields name it. */
const policyOf = (request: FastifyRequest): string => (request.subscription === undefined ? '"address"' : '"subscription"');

/**
 * Requests per subscription key per window (never per forwarded address, which a caller can forge),
 * and requests without a valid key per source address (the socket's, or what a trusted proxy says;
 * IPv6 per /64), so a flood of them is refused before it costs more than a counter (issue 12 item 4).
 * The credentials plugin identifies the key in onRequest and refuses only in preParsing, after this
 * plugin's per-route hook has counted. With Redis, a failing store lets the request through
 * (contract §5: no limits without Redis, rather than no service); the store reports each such
 * request before the plugin swallows it.
 */
export const rateLimitPerSubscription = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  const shared = opts.redis === undefined ? {} : {
    store: countingRedisStore(opts.redis.client, opts.redis.nameSpace ?? DEFAULT_RATE_LIMIT_NAMESPACE, opts.redis.onStoreError),
    skipOnError: true,
  };
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: opts.windowMs,
    ...shared,
    keyGenerator: (request) => (request.subscription === undefined ? `${BY_ADDRESS}${normalizeIP(request.ip)}` : `sub:${request.subscription}`),
    max: (_request, key) => (key.startsWith(BY_ADDRESS) ? opts.noKeyMax : opts.max),
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, `Rate limit is exceeded. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`),
  });

  // draft-ietf-httpapi-ratelimit-headers in its structured-field form. @fastify/rate-limit 11 emits
  // only the older draft's RateLimit-Limit/-Remaining/-Reset trio (enableDraftSpec), so its own
  // numbers, from whichever store, are written again here: q and w per policy, r left, t seconds.
  const windowS = Math.max(1, Math.ceil(opts.windowMs / 1000));
  app.addHook('onSend', (request, reply, payload, done) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    const remaining = reply.getHeader('x-ratelimit-remaining');
    // Absent when the limit never ran (load shed first); all left when an unreachable store counted nothing.
    if (limit !== undefined && remaining !== undefined && String(remaining) !== String(limit)) {
      const policy = policyOf(request);
      reply.header('ratelimit-policy', `${policy};q=${String(limit)};w=${windowS}`);
      reply.header('ratelimit', `${policy};r=${String(remaining)};t=${String(reply.getHeader('x-ratelimit-reset'))}`);
    }
    done(null, payload);
  });
}, { name: 'rate-limit-per-subscription', dependencies: ['credentials'] });
