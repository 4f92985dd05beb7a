import rateLimit, { normalizeIP, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { VerifiedToken } from '../../ports/access-token-verifier.port.js';
import { ApiError } from '../api-error.js';


export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Requests without a valid subscription key and a valid token, per source address per window. */
  noKeyMax: number;
  /**
   * The requests of all callers of one app per window, the ceiling above each one's own `max`
   * (RATE_LIMIT_APP_MAX): of one subscription key, or on /fhir without a key of one client_id.
   */
  appMax: number;
  /**
   * Counters shared by every instance (Redis, made by the composition root); a failing store lets
   * the request through. Without it the counters live in this process, as many limits as instances.
   */
  sharedStore?: FastifyRateLimitStoreCtor;
}

/** RATE_LIMIT_APP_MAX's default: an app's ceiling (a key's, a keyless client_id's) is this many of its users' own budgets (RATE_LIMIT_MAX). */
export const DEFAULT_APP_USERS = 20;

const BY_ADDRESS = 'addr:';
const KEYLESS_APP = 'client:';

/**
 * The app whose budget a request spends, `sub:<subscription>` or on /fhir without a key
 * `client:<client_id>` (src/http/plugins/credentials.ts): only a request whose key (where sent) and
 * token are both valid has one (issue 20 item 3); any other is counted per source address.
 */
const appBudgetOf = (request: FastifyRequest): string | undefined =>
  request.token === undefined ? undefined : request.budget;

/**
 * The budget of one caller in one app (issue 44 item 4, threat 58; with a key, issue 52 item 6):
 * the person the token names, whichever issuer signed it (a second issuer is no second budget),
 * else the token's issuer and subject, so a client token is a caller of its own; hashed, so a
 * counter's key (in Redis too) never holds an identity number.
 */
function personBudgetOf(request: FastifyRequest, app: string): string {
  const token = request.token;
  let who = token === undefined ? undefined : callers.get(token);
  if (who === undefined) {
    const caller = token?.personId === undefined ? `token\n${token?.issuer ?? ''}\n${token?.subject ?? ''}` : `person\n${token.personId}`;
    who = createHash('sha256').update(caller).digest('base64url').slice(0, 22);
    if (token !== undefined) callers.set(token, who);
  }
  return `${app}|person:${who}`;
}

/**
 * Each verified token's caller, hashed once (issue 56 item 4): the verifier hands a cached token's
 * same object to each of its requests, and a verified token's person, issuer and subject never change.
 */
const callers = new WeakMap<VerifiedToken, string>();

/** Requests refused by the app's ceiling rather than by their person's own budget. */
const refusedByCeiling = new WeakSet<FastifyRequest>();

/** The policy a request is counted under, as the RateLimit fields name it: the app's, or its person's in it. */
function policyOf(request: FastifyRequest): string {
  const app = appBudgetOf(request);
  if (app === undefined) return '"address"';
  const name = app.startsWith(KEYLESS_APP) ? 'app' : 'subscription';
  return refusedByCeiling.has(request) ? `"${name}"` : `"${name}-person"`;
}

/**
 * Authenticated requests per person (the token's issuer and subject) per app per window, under a
 * ceiling for all the app's callers together: the app is the subscription key (issue 52 item 6:
 * the patient app's key ships inside it, so anyone signed in holds it), or on /fhir without a key
 * the token's client_id (issue 44 item 4). Never per forwarded address, which a caller can forge.
 * Every other request (no valid key, or a valid key without a valid token) is counted
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
      const app = appBudgetOf(request);
      return app === undefined ? `${BY_ADDRESS}${normalizeIP(request.ip)}` : personBudgetOf(request, app);
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
    // A person's check the store failed lets the request through uncounted; the ceiling's check would
    // fail too, after another wait, and report the one request twice.
    if (appBudgetOf(request) === undefined || !counted(reply)) return;
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
    if (counted(reply)) {
      const policy = policyOf(request);
      reply.header('ratelimit-policy', `${policy};q=${String(reply.getHeader('x-ratelimit-limit'))};w=${windowS}`);
      reply.header('ratelimit', `${policy};r=${String(reply.getHeader('x-ratelimit-remaining'))};t=${String(reply.getHeader('x-ratelimit-reset'))}`);
    }
    done(null, payload);
  });
}, { name: 'rate-limit-per-subscription', dependencies: ['credentials'] });

/**
 * Whether the limit counted this request: its fields are absent when the limit never ran (load shed
 * first), and say all is left when an unreachable store counted nothing.
 */
function counted(reply: FastifyReply): boolean {
  const limit = reply.getHeader('x-ratelimit-limit');
  const remaining = reply.getHeader('x-ratelimit-remaining');
  return limit !== undefined && remaining !== undefined && String(remaining) !== String(limit);
}

const overLimit = (ttlMs: number): ApiError => new ApiError(429, `Rate limit is exceeded. Try again in ${Math.max(1, Math.ceil(ttlMs / 1000))} seconds.`);
