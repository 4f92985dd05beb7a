import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../api-error.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
}

/**
 * Requests per subscription key per window (never per forwarded address, which a caller can forge).
 * Registered after the credentials plugin: its per-route hook runs after the key is identified.
 */
export const rateLimitPerSubscription = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: opts.max,
    timeWindow: opts.windowMs,
    keyGenerator: (request) => `sub:${request.subscription ?? 'none'}`,
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, `Rate limit is exceeded. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`),
  });
}, { name: 'rate-limit-per-subscription', dependencies: ['credentials'] });
