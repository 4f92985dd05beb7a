import rateLimit, { normalizeIP, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../api-error.js';


export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Requests without a valid subscription key and a valid token, per source address per window. */
  noKeyMax: number;
  /**
   * Counters shared by every instance (Redis, made by the composition root); a failing store lets
   * the request through. Without it the counters live in this process, as many limits as instances.
   */
  sharedStore?: FastifyRateLimitStoreCtor;
}

const BY_ADDRESS = 'addr:';

/**
 * Only a request whose key and token are both valid spends the key's budget (issue 20 item 3); on
 * /fhir without a key, a valid token spends its app's (client_id) budget (src/http/plugins/credentials.ts).
 */
const isAuthenticated = (request: FastifyRequest): boolean => request.budget !== undefined && request.token !== undefined;

/** The policy a request is counted under, as the RateLimit fields name it. */
const policyOf = (request: FastifyRequest): string => (isAuthenticated(request) ? '"subscription"' : '"address"');

/**
 * Authenticated requests per subscription key per window (never per forwarded address, which a
 * caller can forge), and every other request (no valid key, or a valid key without a valid token)
 * per source address (the socket's, or what a trusted proxy says; IPv6 per /64): a flood of them is
 * refused before it costs more than a counter (issue 12 item 4), and never spends the budget of
 * the key it names, which ships inside a public app (issue 20 item 3). The credentials plugin
 * identifies key and token in onRequest and refuses only in preParsing, after this plugin's
 * per-route hook has counted. With Redis, a failing store lets the request through
 * (contract §5: no limits without Redis, rather than no service); the store reports each such
 * request before the plugin swallows it.
 */
export const rateLimitPerSubscription = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  const shared = opts.sharedStore === undefined ? {} : { store: opts.sharedStore, skipOnError: true };
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: opts.windowMs,
    ...shared,
    keyGenerator: (request) => (isAuthenticated(request) ? String(request.budget) : `${BY_ADDRESS}${normalizeIP(request.ip)}`),
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
