import rateLimit, { normalizeIP, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../api-error.js';


export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Requests without a valid subscription key and a valid token, per source address per window. */
  noKeyMax: number;
  /**
   * On /fhir without a key: the requests of all users of one app (client_id) per window, the
   * ceiling above each user's own `max` (RATE_LIMIT_APP_MAX).
   */
  appMax: number;
  /**
   * Counters shared by every instance (Redis, made by the composition root); a failing store lets
   * the request through. Without it the counters live in this process, as many limits as instances.
   */
  sharedStore?: FastifyRateLimitStoreCtor;
}

/** RATE_LIMIT_APP_MAX's default: a keyless app's ceiling is this many of its users' own budgets (RATE_LIMIT_MAX). */
export const DEFAULT_APP_USERS = 20;

const BY_ADDRESS = 'addr:';
const APP_BUDGET = 'client:';

/**
 * Only a request whose key and token are both valid spends the key's budget (issue 20 item 3); on
 * /fhir without a key, a valid token spends its app's (client_id) budget (src/http/plugins/credentials.ts).
 */
const isAuthenticated = (request: FastifyRequest): boolean => request.budget !== undefined && request.token !== undefined;

/** A keyless /fhir request of a verified token: it spends its user's budget in the app, then the app's. */
const appBudgetOf = (request: FastifyRequest): string | undefined =>
  isAuthenticated(request) && request.budget?.startsWith(APP_BUDGET) === true ? request.budget : undefined;

/**
 * The budget of one person in one app (issue 44 item 4, threat 58): the token's issuer and subject,
 * hashed, so a counter's key (in Redis too) never holds an identity number a subject may be.
 */
function personBudgetOf(request: FastifyRequest, app: string): string {
  const token = request.token;
  const who = createHash('sha256').update(`${token?.issuer ?? ''}\n${token?.subject ?? ''}`).digest('base64url').slice(0, 22);
  return `${app}|person:${who}`;
}

/** Requests refused by the app's ceiling rather than by their person's own budget. */
const refusedByCeiling = new WeakSet<FastifyRequest>();

/** The policy a request is counted under, as the RateLimit fields name it. */
function policyOf(request: FastifyRequest): string {
  if (!isAuthenticated(request)) return '"address"';
  if (appBudgetOf(request) === undefined) return '"subscription"';
  return refusedByCeiling.has(request) ? '"app"' : '"app-person"';
}

/**
 * Authenticated requests per subscription key per window (never per forwarded address, which a
 * caller can forge); on /fhir without a key, per user of the app (client_id) per window, under a
 * ceiling for all the app's users together (issue 44 item 4); and every other request (no valid key, or a valid key without a valid token)
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
    keyGenerator: (request) => {
      if (!isAuthenticated(request)) return `${BY_ADDRESS}${normalizeIP(request.ip)}`;
      const app = appBudgetOf(request);
      return app === undefined ? String(request.budget) : personBudgetOf(request, app);
    },
    max: (_request, key) => (key.startsWith(BY_ADDRESS) ? opts.noKeyMax : opts.max),
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) => overLimit(context.ttl),
  });

  // The app's ceiling, spent only by requests their person's budget let through: one user's flood
  // is refused on that user's budget and never reaches the ceiling the app's other users share.
  // Added to each route after the per-person hook (onRoute hooks run in the order they were added).
  const ceiling = app.createRateLimit({ keyGenerator: (request) => appBudgetOf(request) ?? '', max: opts.appMax });
  const appCeiling: onRequestHookHandler = async (request, reply) => {
    if (appBudgetOf(request) === undefined) return;
    const spent = await ceiling(request);
    if (spent.isAllowed || !spent.isExceeded) return;
    refusedByCeiling.add(request);
    reply.header('x-ratelimit-limit', spent.max).header('x-ratelimit-remaining', 0)
      .header('x-ratelimit-reset', spent.ttlInSeconds).header('retry-after', spent.ttlInSeconds);
    throw overLimit(spent.ttl);
  };
  app.addHook('onRoute', (route) => {
    route.onRequest = [...[route.onRequest ?? []].flat(), appCeiling];
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

const overLimit = (ttlMs: number): ApiError => new ApiError(429, `Rate limit is exceeded. Try again in ${Math.max(1, Math.ceil(ttlMs / 1000))} seconds.`);
