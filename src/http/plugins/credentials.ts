import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { OPERATIONS } from '../../domain/access/operations.js';
import type { AccessTokenVerifier } from '../../ports/access-token-verifier.port.js';
import type { SubscriptionKeys } from '../../ports/subscription-keys.port.js';
import { ApiError, MESSAGES } from '../api-error.js';
import { INVALID_TOKEN_HEADERS } from '../error-mapping.js';
import { operationOf } from '../operation-of.js';
import { presentedSubscriptionKey } from '../subscription-key.js';

// RFC 7235 §2.1: the scheme name is case-insensitive (`bearer`, `BEARER`).
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Both credentials of every API call: the subscription key (checked first, so the rate limit can
 * count per key) and the bearer token with the operation's scope (checked after the rate limit,
 * so a flood of bad tokens is throttled too). Deny by default: a route without an operation
 * cannot be reached with any token.
 */
export const credentials = fp(async (app: FastifyInstance, opts: { subscriptionKeys: SubscriptionKeys; tokenVerifier: AccessTokenVerifier }) => {
  app.decorateRequest('subscription', undefined);
  app.decorateRequest('token', undefined);
  app.decorateRequest('audit', null as never);

  // Identifies the key only: the refusals wait for preParsing, after the rate limit, so a request
  // without a valid key is counted against its source address first (issue 12 item 4).
  app.addHook('onRequest', async (request) => {
    request.audit = {};
    const key = presentedSubscriptionKey(request);
    const subscription = key === undefined ? undefined : opts.subscriptionKeys.identify(key);
    request.subscription = subscription;
  });

  app.addHook('preParsing', async (request: FastifyRequest) => {
    // RFC 6750 §2.3 would allow it; URLs end up in logs and histories, so it is refused.
    if (Object.hasOwn(request.query as object, 'access_token')) throw new ApiError(400, MESSAGES.tokenInQuery);
    if (request.subscription === undefined) throw new ApiError(401, MESSAGES.badSubscriptionKey);
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw new ApiError(401, MESSAGES.invalidToken, INVALID_TOKEN_HEADERS);
    const token = await opts.tokenVerifier.verify(match[1]);
    request.token = token;
    const operation = operationOf(request);
    const needed = operation === undefined ? undefined : OPERATIONS[operation].scope;
    if (needed === undefined || !token.scopes.has(needed)) {
      throw new ApiError(403, MESSAGES.insufficientScope, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed ?? ''}"`,
      });
    }
  });
}, { name: 'credentials' });
