import type { ServerOptions as HttpServerOptions } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../start/config.js';
import type { AccessTokenVerifier } from '../ports/access-token-verifier.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { SubscriptionKeys } from '../ports/subscription-keys.port.js';
import { ApiError } from './api-error.js';
import { inSlices } from './serialization/json-answer.js';
import { ConnectionDrain } from './connection-drain.js';
import { DEFAULT_SEND_LIMITS, SendDeadline } from './send-deadline.js';
import { DEFAULT_MAX_LARGE_ANSWERS, LargeAnswers } from './serialization/large-answers.js';
import { emptyJsonWhereNoBody } from './json-body.js';
import { errorHandler } from './error-handler.js';
import type { RequestMetrics } from '../ports/metrics.port.js';
import { apiProtection, protectionFields, protectionHeaders } from './plugins/api-protection.js';
import { audit } from './plugins/audit.js';
import { refusalBasisFor } from './caller-basis.js';
import type { DemoCredentials } from './demo-refusals.js';
import { credentials } from './plugins/credentials.js';
import { BodilessRequests } from './bodiless-requests.js';
import { metricsPlugin } from './plugins/metrics.js';
import type { OAuthDocumentation } from './openapi/security.js';
import { openapi } from './plugins/openapi.js';
import { DEFAULT_APP_USERS, rateLimitPerSubscription } from './plugins/rate-limit.js';
import { routedMethods } from './routed-methods.js';
import { RefusalTally } from './refusal-tally.js';
import { callerRequestIdOf, requestIdOf } from './request-id.js';
import { requestValidatorCompiler } from './request-validation.js';
import type { RouteDependencies } from './routes/dependencies.js';
import { FAVICON, FAVICON_HEADERS, FAVICON_PATH } from './favicon.js';
import { healthRoutes, type ReadinessChecks } from './routes/health-routes.js';
import { operationRoutes } from './routes/operation-routes.js';
import { FHIR_PREFIXES } from './fhir/fhir-api.js';
import { fhirMethodNotAllowed, fhirRoutes } from './fhir/fhir-routes.js';
import { apiScopes } from '../domain/access/scopes.js';
import { patientAppRoutes, PROXY_SCOPES } from './patient-app/patient-app-routes.js';
import { authServerRoutes } from './auth-server-routes.js';
import type { AuthServerMount } from '../ports/auth-server.port.js';
import { clientErrorHandlerOf, frameworkErrorsOf } from './transport-errors.js';
import { refuseRepeatedHeaders } from './repeated-headers.js';
import './types.js';

export interface AppDependencies extends RouteDependencies {
  config: Pick<Config, 'basePath' | 'rateLimitMax' | 'rateLimitWindowMs' | 'trustProxy'> & Partial<ProtectionSettings>
    & Partial<Pick<Config, 'rateLimitNoKeyMax' | 'rateLimitAppMax' | 'signIn'>>;
  clock: Clock;
  subscriptionKeys: SubscriptionKeys;
  tokenVerifier: AccessTokenVerifier;
  auditTrail: AuditTrail;
  ehr: EhrRecords;
  logger: FastifyBaseLogger;
  /** Rate-limit counters shared through Redis (`REDIS_URL`, src/adapters/rate-limit-redis); in-process when absent. */
  rateLimitStore?: FastifyRateLimitStoreCtor;
  /** Further dependencies `/health/ready` reports (Redis, when configured). */
  readinessChecks?: ReadinessChecks;
  /** Request counts and latency (Prometheus in the service); none are kept when absent. */
  metrics?: RequestMetrics;
  /** Whole-request deadline against slow senders; 30 s unless a test needs it shorter. */
  requestTimeoutMs?: number;
  /** The authorization server the OpenAPI document's OAuth 2.0 scheme names; the demo issuer's default address when absent. */
  oauth?: OAuthDocumentation;
  /** Demo mode only: the demo subscription key, filled in on the /docs page. Never set with configured keys. */
  docsDemoKey?: string;
  /** Demo mode only: where the demo's credentials are, which a 401 names (src/http/demo-refusals.ts). */
  demoCredentials?: DemoCredentials;
  /** TLS_CERT_FILE / TLS_KEY_FILE: the servers fastify creates are HTTPS; plain HTTP when absent. */
  https?: HttpsServers;
  /** The service's own authorization server (SIGN_IN_LOGIN_ISSUER, docs/sign-in.md), served at its mount path. */
  authServer?: AuthServerMount;
  /** helmet run for each request instead of its headers made once: only test/http/security-headers.test.ts sets it, to compare the two. */
  securityHeadersEachRequest?: true;
  /** Where the built patient app is (demo mode, FHIR API on); the repository's dist/app when absent. */
  patientAppDir?: string;
}

/** Makes the HTTPS servers fastify listens on (TLS_CERT_FILE, src/adapters/tls/https-serving.ts). */
export interface HttpsServers {
  serverFactory(httpOptions: HttpServerOptions): FastifyServerFactory;
}

type ProtectionSettings = Pick<Config, 'corsOrigins' | 'pressureMaxEventLoopDelayMs' | 'pressureMaxHeapUsedMb' | 'sendGraceMs' | 'sendMinBytesPerS' | 'sendMaxLargeAnswers'>;

/** How the router matches a path: fastify's own, and the 405s' (routed-methods.ts). */
const ROUTER_OPTIONS = { ignoreTrailingSlash: true };

/** The whole HTTP application, ready for `inject` or `listen`; it never listens by itself. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  // Node checks the deadlines only this often (30 s by default), which would let a trickle live on.
  const nodeHttpOptions = { connectionsCheckingInterval: 1000, headersTimeout: Math.min(deps.requestTimeoutMs ?? 30_000, 10_000) };
  // The API's security headers, made once: every API answer gets them (apiProtection), and so does an
  // unknown path or method and a URL the router refuses, whose answers are JSON no browser should render or frame.
  const securityHeaders = protectionHeaders(deps.securityHeadersEachRequest === true);
  // What every answer carries, whatever answered it.
  const ownHeaders = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  };
  // One line per request, when its answer has gone.
  const logAnswered = (request: FastifyRequest, reply: FastifyReply): void => {
    // reqId is the service's own id; the caller's, if any, rides beside it for operators (src/http/request-id.ts).
    const callerRequestId = callerRequestIdOf(request);
    request.log.info({
      req: request, res: reply, responseTime: reply.elapsedTime, ...(callerRequestId === undefined ? {} : { callerRequestId }),
    }, 'request completed');
  };
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: 16 * 1024,
    requestTimeout: deps.requestTimeoutMs ?? 30_000,
    // `https: true` beside the factory only makes fastify name its addresses https://.
    ...(deps.https ? { serverFactory: deps.https.serverFactory(nodeHttpOptions), https: true } : { http: nodeHttpOptions }),
    routerOptions: ROUTER_OPTIONS,
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    genReqId: requestIdOf,
    // One line per request (below) instead of fastify's two: half the log volume, same facts.
    logController: new LogController({ disableRequestLogging: true }),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Node's parser's refusals are written on the socket, before any request or hook: what the hooks give every answer, given here.
    clientErrorHandler: clientErrorHandlerOf(deps.config.basePath, { securityFields: protectionFields(), requestId: requestIdOf, logger: deps.logger }, deps.authServer),
    // The router's refusals are answered before any hook runs: what the hooks give every answer, given here.
    frameworkErrors: frameworkErrorsOf(deps.config.basePath, deps.clock, { ownHeaders, securityHeaders, logAnswered }, deps.authServer),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Before any route: every route registered from here on is read for the 405s (routed-methods.ts).
  const notAllowed = routedMethods(app, ROUTER_OPTIONS);

  // A caller that stops reading is cut, and the rest of its answer dropped (docs/contract.md#what-never-happens).
  new SendDeadline(app.server, {
    graceMs: deps.config.sendGraceMs ?? DEFAULT_SEND_LIMITS.graceMs, minBytesPerS: deps.config.sendMinBytesPerS ?? DEFAULT_SEND_LIMITS.minBytesPerS,
  }, deps.logger);
  // A GET or HEAD with a body, and whatever is pipelined behind one, refused unread (plugins/credentials.ts).
  const bodiless = new BodilessRequests(app.server);
  // Rolling restarts: on close, every request that reached a socket is answered first (issue 20 item 7).
  const drain = new ConnectionDrain(app.server, (backlog) => deps.logger.info({ backlog }, 'no longer accepting connections'));
  app.decorate('drainConnections', () => drain.drain());
  app.decorate('scopeGrants', deps.scopeGrants);
  app.decorateRequest('callerRequestId', undefined);
  app.addHook('onResponse', (request, reply, done) => {
    logAnswered(request, reply);
    done();
  });
  await app.register(errorHandler, { clock: deps.clock, basePath: deps.config.basePath });
  refuseRepeatedHeaders(app, deps.authServer?.mountPath);
  emptyJsonWhereNoBody(app);
  // An unknown path is 404 whatever its method or body: never parse (and refuse) a body nobody reads.
  // Hooks that never wait take a callback: no promise per hook per request.
  // A documented path asked with another method is 405 (Allow), not 404.
  const fhirNotAllowed = deps.fhir === undefined ? () => undefined : fhirMethodNotAllowed(deps.config.basePath, deps.fhir, deps.subscriptions !== undefined);
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.is404) done(fhirNotAllowed(request.url) ?? notAllowed(request.url) ?? new ApiError(404, 'Not found.'));
    else done(null, payload);
  });
  const faviconUrls: ReadonlySet<string> = new Set([FAVICON_PATH, `${deps.config.basePath}${FAVICON_PATH}`]);
  app.addHook('onSend', (request, reply, payload, done) => {
    // Set as it is sent, not on arrival: a route may hand over to the not-found handler (swagger-ui's
    // static files, for a path the router decoded and they did not), a 404 that arrived as served.
    if (request.is404) securityHeaders(request, reply);
    ownHeaders(request, reply);
    if (!request.url.startsWith('/docs') && !faviconUrls.has(request.routeOptions.url ?? '')) reply.header('cache-control', 'no-store');
    // A HEAD answer sends no body: its length is fastify's to count from the text, with no copy to drop.
    const sliced = request.method === 'HEAD' ? undefined : inSlices(payload);
    if (sliced !== undefined) reply.header('content-length', sliced.byteLength);
    drain.decide(request.raw, (last) => {
      if (last) reply.header('connection', 'close');
      done(null, sliced?.body ?? payload);
    });
  });
  await app.register(metricsPlugin, { metrics: deps.metrics ?? { requestAnswered: () => undefined } });
  await app.register(openapi, {
    basePath: deps.config.basePath, fhirApi: deps.fhir !== undefined, ...(deps.oauth ? { oauth: deps.oauth } : {}), ...(deps.docsDemoKey === undefined ? {} : { demoKey: deps.docsDemoKey }),
  });
  // The icon every browser asks for, at the root and under BASE_PATH: no credentials, cached for a year.
  for (const url of faviconUrls) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.headers(FAVICON_HEADERS).send(FAVICON));
  }
  await app.register(healthRoutes, {
    checks: { ehr: () => deps.ehr.ping(), audit: () => deps.auditTrail.ping(), ...deps.readinessChecks },
    unavailableReads: () => deps.ehr.unavailableReads?.() ?? new Map(),
  });
  // The patient app signs in at the demo issuer, or at the service's own where the region registered it
  // as `patient-app` (docs/patient-app.md): nowhere else, where it could not sign in.
  const appRegistered = deps.config.signIn?.clients.some((client) => client.metadata.client_id === 'patient-app') === true;
  if ((deps.oauth?.kind === 'demo' || appRegistered) && deps.oauth !== undefined && deps.fhir !== undefined) {
    await app.register(patientAppRoutes, {
      prefix: deps.config.basePath, basePath: deps.config.basePath, issuer: deps.oauth.issuer, publicBaseUrl: deps.fhir.publicBaseUrl,
      names: deps.appNames?.get('patient-app') ?? { sv: 'patient-app', en: 'patient-app' }, demo: deps.oauth.kind === 'demo',
      ...(deps.oauth.kind === 'demo' && deps.docsDemoKey !== undefined ? { subscriptionKey: deps.docsDemoKey } : {}),
      ...(deps.proxyGrants === undefined ? {} : { sharing: { scopes: PROXY_SCOPES.filter((s) => apiScopes().has(s)) } }),
      ...(deps.patientAppDir === undefined ? {} : { dir: deps.patientAppDir }),
    });
  }

  if (deps.authServer !== undefined) {
    await app.register(authServerRoutes, {
      prefix: deps.authServer.mountPath, server: deps.authServer,
      limit: { max: deps.config.rateLimitNoKeyMax ?? deps.config.rateLimitMax, windowMs: deps.config.rateLimitWindowMs, ...(deps.rateLimitStore === undefined ? {} : { sharedStore: deps.rateLimitStore }) },
    });
  }

  await app.register(async (api) => {
    // JSON is the only body the API reads; any other media type is 415, never a string to validate.
    api.removeContentTypeParser('text/plain');
    api.setValidatorCompiler(requestValidatorCompiler());
    await api.register(apiProtection, {
      corsOrigins: deps.config.corsOrigins ?? [],
      maxEventLoopDelayMs: deps.config.pressureMaxEventLoopDelayMs ?? 1000,
      maxHeapUsedBytes: (deps.config.pressureMaxHeapUsedMb ?? 2048) * 1024 * 1024,
      headers: securityHeaders,
    });
    await api.register(credentials, {
      subscriptionKeys: deps.subscriptionKeys, tokenVerifier: deps.tokenVerifier, bodiless, ...(deps.demoCredentials === undefined ? {} : { demo: deps.demoCredentials }),
    });
    await api.register(rateLimitPerSubscription, {
      max: deps.config.rateLimitMax, windowMs: deps.config.rateLimitWindowMs, sharedStore: deps.rateLimitStore,
      noKeyMax: deps.config.rateLimitNoKeyMax ?? deps.config.rateLimitMax,
      appMax: deps.config.rateLimitAppMax ?? DEFAULT_APP_USERS * deps.config.rateLimitMax,
    });
    const refusals = new RefusalTally(deps.auditTrail, deps.clock, deps.logger);
    api.addHook('onClose', () => refusals.close());
    await api.register(audit, { auditTrail: deps.auditTrail, refusals, clock: deps.clock, basisOf: (request, patient) => refusalBasisFor(request, deps.accessPolicy, patient) });
    // Each instance's room for answers over 4 MiB going out at once (issue 44 item 12).
    const largeAnswers = deps.largeAnswers ?? new LargeAnswers(deps.config.sendMaxLargeAnswers ?? DEFAULT_MAX_LARGE_ANSWERS);
    const routeDeps = { ...deps, largeAnswers };
    await api.register(operationRoutes, routeDeps);
    const fhir = deps.fhir;
    if (fhir !== undefined) {
      for (const prefix of FHIR_PREFIXES) await api.register(fhirRoutes, { prefix, deps: routeDeps, api: fhir, now: () => deps.clock.now() });
    }
  }, { prefix: deps.config.basePath });

  return app;
}
