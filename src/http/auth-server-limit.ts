import rateLimit, { normalizeIP, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServerMount } from '../ports/auth-server.port.js';

/** The per-source limit of `/auth` (docs/sign-in.md, "Limited per source address"): RATE_LIMIT_NO_KEY_MAX per RATE_LIMIT_WINDOW_MS, shared through Redis when set. */
export interface AuthServerLimit {
  max: number;
  windowMs: number;
  sharedStore?: FastifyRateLimitStoreCtor;
}

/**
 * Which budget a path under the mount spends. Discovery and the signing keys write nothing and
 * every app and verifier fetches them, so they are not limited: a 429 there would stop every token
 * check behind one address. The back-channel endpoints (token, revocation, introspection, pushed
 * requests, userinfo, registration) have a budget of their own, so a browser flood of sign-in pages
 * from one address (a shared NAT) does not stop the refreshes of that address's apps. Every other
 * path is a sign-in page: the authorization endpoint, the interaction, the callback, connected apps,
 * logout.
 */
type Budget = 'pages' | 'back-channel' | 'none';

const BACK_CHANNEL = new Set(['/token', '/token/revocation', '/token/introspection', '/request', '/me', '/reg']);

function budgetOf(path: string): Budget {
  if (path === '/jwks' || path.startsWith('/.well-known/')) return 'none';
  return BACK_CHANNEL.has(path) || path.startsWith('/reg/') ? 'back-channel' : 'pages';
}

/**
 * Counts each request under the mount against its source address (the socket's, or what a trusted
 * proxy says; an IPv6 address by its /64) before the authorization server sees it, so a flood of
 * anonymous authorization requests is refused before it writes sign-in state (issue 52 item 8). A
 * refusal is 429 with Retry-After: the service's page in Swedish or English, or on the back channel
 * an OAuth error in JSON. With Redis a failing store lets the request through, as the API's limits do.
 */
export async function limitPerSource(app: FastifyInstance, server: AuthServerMount, limit: AuthServerLimit): Promise<void> {
  const { mountPath } = server;
  await app.register(rateLimit, {
    global: false, timeWindow: limit.windowMs,
    ...(limit.sharedStore === undefined ? {} : { store: limit.sharedStore, skipOnError: true }),
  });
  const counters = {
    pages: app.createRateLimit({ keyGenerator: (r) => `auth-pages|addr:${normalizeIP(r.ip)}`, max: limit.max, timeWindow: limit.windowMs }),
    'back-channel': app.createRateLimit({ keyGenerator: (r) => `auth-back|addr:${normalizeIP(r.ip)}`, max: limit.max, timeWindow: limit.windowMs }),
  };
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.url.slice(mountPath.length) || '/').split('?')[0] ?? '/';
    const budget = budgetOf(path);
    if (budget === 'none') return;
    const spent = await counters[budget](request);
    if (spent.isAllowed || !spent.isExceeded) return;
    const seconds = Math.max(1, spent.ttlInSeconds);
    reply.hijack();
    server.tooMany(request.raw, reply.raw, seconds, budget === 'back-channel');
  });
}
