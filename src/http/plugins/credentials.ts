import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { contextsOfHolder, reaches } from '../../domain/access/scope-reach.js';
import { isOperationName, OPERATIONS } from '../../domain/operations/table.js';
import type { AccessTokenVerifier } from '../../ports/access-token-verifier.port.js';
import type { SubscriptionKeys } from '../../ports/subscription-keys.port.js';
import { ApiError, MESSAGES } from '../api-error.js';
import type { BodilessRequests } from '../bodiless-requests.js';
import { keyRefusal, noTokenRefusal, type DemoCredentials } from '../demo-refusals.js';
import { invalidTokenHeaders, NO_TOKEN_HEADERS } from '../error-mapping.js';
import { grantedContexts } from '../granted-contexts.js';
import { operationOf } from '../operation-of.js';
import { keysSent, presentedSubscriptionKey, SUBSCRIPTION_KEY_PARAMETER } from '../subscription-key.js';

// RFC 7235 §2.1: the scheme name is case-insensitive (`bearer`, `BEARER`).
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Both credentials of every API call: the subscription key and the bearer token with the
 * operation's scope. Both are identified in onRequest, before the rate limit counts the request,
 * so that only a request with a valid key and a valid token is counted against the key; any other
 * is counted against its source address (issue 20 item 3: an app's key ships inside the app, and
 * anyone holding it could otherwise spend its users' budget with garbage tokens). The refusals
 * wait for preParsing, after the rate limit, so a flood of them is throttled too. Deny by default:
 * a route without an operation cannot be reached with any token.
 */
export const credentials = fp(async (app: FastifyInstance, opts: { subscriptionKeys: SubscriptionKeys; tokenVerifier: AccessTokenVerifier; bodiless: BodilessRequests; demo?: DemoCredentials }) => {
  app.decorateRequest('subscription', undefined);
  app.decorateRequest('token', undefined);
  app.decorateRequest('tokenRefusal', undefined);
  app.decorateRequest('audit', null as never);
  app.decorateRequest('budget', undefined);
  app.decorateRequest('operationGrant', undefined);

  app.addHook('onRequest', async (request) => {
    request.audit = {};
    const config = request.routeOptions.config;
    if (config?.open === true) return;
    // Asked before presentedSubscriptionKey, which takes the parameter out of the query.
    const query = request.query as Record<string, unknown> | undefined;
    const fromQuery = query?.[SUBSCRIPTION_KEY_PARAMETER];
    const keySent = request.headers['ocp-apim-subscription-key'] !== undefined || fromQuery !== undefined;
    const key = presentedSubscriptionKey(request);
    const subscription = key === undefined ? undefined : opts.subscriptionKeys.identify(key);
    request.subscription = subscription;
    // Without a valid key the token is never looked at: a keyless flood costs no verification. On
    // /fhir the key is optional (SMART apps send no custom header): without one the token names the app;
    // one sent (a bad, repeated or conflicting one too) must be valid, refused in preParsing.
    const keyless = config?.fhir === true && !keySent;
    if (subscription === undefined && !keyless) {
      // The key's refusal, thrown in preParsing before anything of the token.
      request.tokenRefusal = keyRefusal(opts.demo, opts.demo === undefined ? 'one' : keysSent(request, fromQuery));
      return;
    }
    const authorization = request.headers.authorization ?? '';
    const match = BEARER.exec(authorization);
    if (!match?.[1]) {
      // No Authorization at all gets the bare challenge (RFC 6750 §3.1); a malformed one says so.
      request.tokenRefusal = authorization === '' ? noTokenRefusal(opts.demo) : new ApiError(401, MESSAGES.invalidToken, invalidTokenHeaders('form'));
      return;
    }
    try {
      request.token = await opts.tokenVerifier.verify(match[1]);
    } catch (err) {
      request.tokenRefusal = err;
      return;
    }
    if (subscription !== undefined) request.budget = `sub:${subscription}`;
    else if (request.token.clientId !== undefined) request.budget = `client:${request.token.clientId}`;
  });

  app.addHook('preParsing', async (request: FastifyRequest) => {
    const body = opts.bodiless.refusal(request);
    if (body !== undefined) throw body;
    const config = request.routeOptions.config;
    if (config?.open === true) return;
    // RFC 6750 §2.3 would allow it; URLs end up in logs and histories, so it is refused.
    if (Object.hasOwn(request.query as object, 'access_token')) throw new ApiError(400, MESSAGES.tokenInQuery);
    if (config?.fhir === true) {
      fhirCredentials(request);
      return;
    }
    if (request.subscription === undefined) throw request.tokenRefusal ?? new ApiError(401, MESSAGES.badSubscriptionKey);
    const token = request.token;
    if (token === undefined) throw request.tokenRefusal;
    const operation = operationOf(request);
    // The FHIR API's own operations are on /fhir routes only, whose scopes the route checks (above).
    const known = operation === undefined || !isOperationName(operation) ? undefined : operation;
    const needed = known === undefined ? undefined : OPERATIONS[known].scope.name;
    // A scope counts in the forms that reach someone for this token: `patient/` ones never reach for a
    // client token, which has no launch patient (docs/contract.md#scopes); whom they reach is the access policy's.
    if (known === undefined || !reaches(grantedContexts(request, token, known), contextsOfHolder(token))) {
      throw new ApiError(403, MESSAGES.insufficientScope, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed ?? ''}"`,
      });
    }
  });
}, { name: 'credentials' });

/**
 * /fhir (docs/fhir-api.md#the-app): a key, when sent, must be valid; without one the token's
 * `client_id` (or `azp`) names the app. Scopes are SMART's, checked by the route for its type.
 */
function fhirCredentials(request: FastifyRequest): void {
  const token = request.token;
  if (token === undefined) throw request.tokenRefusal ?? new ApiError(401, MESSAGES.invalidToken, NO_TOKEN_HEADERS);
  if (request.budget === undefined) {
    throw new ApiError(401, 'The access token names no app (client_id or azp): get a token for a registered app, or send its subscription key.', invalidTokenHeaders('claims'));
  }
}
