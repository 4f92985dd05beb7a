import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { ReadAccessLog } from '../domain/access-log/read-access-log.js';
import type { AccessTokenVerifier } from '../ports/access-token-verifier.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { SubscriptionKeys } from '../ports/subscription-keys.port.js';
import { ApiError } from './api-error.js';
import { errorHandler } from './error-handler.js';
import { KeylessRefusalTally } from './keyless-refusals.js';
import { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics.js';
import { apiProtection } from './plugins/api-protection.js';
import { audit } from './plugins/audit.js';
import { credentials } from './plugins/credentials.js';
import { metricsPlugin } from './plugins/metrics.js';
import type { OAuthDocumentation } from './openapi/security.js';
import { openapi } from './plugins/openapi.js';
import { rateLimitPerSubscription, type RateLimitRedisStore } from './plugins/rate-limit.js';
import { requestIdOf } from './request-id.js';
import type { RouteDependencies } from './routes/dependencies.js';
import { accessLogRoute } from './routes/access-log-route.js';
import { healthRoutes, type ReadinessChecks } from './routes/health-routes.js';
import { patientRoute } from './routes/patient-route.js';
import { readRoutes } from './routes/read-routes.js';
import { writeRoutes } from './routes/write-routes.js';
import type { HttpsServing } from './tls/https-serving.js';
import { clientErrorHandler, frameworkErrors } from './transport-errors.js';
import './types.js';

export interface AppDependencies extends RouteDependencies {
  config: Pick<Config, 'basePath' | 'rateLimitMax' | 'rateLimitWindowMs' | 'trustProxy'> & Partial<ProtectionSettings>
    & Partial<Pick<Config, 'rateLimitNoKeyMax'>>;
  clock: Clock;
  subscriptionKeys: SubscriptionKeys;
  tokenVerifier: AccessTokenVerifier;
  auditTrail: AuditTrail;
  ehr: EhrRecords;
  /** The patient's access log (CONTRACT §6), read from the audit store the trail writes to. */
  readAccessLog: ReadAccessLog;
  logger: FastifyBaseLogger;
  /** Rate-limit counters shared through Redis (`REDIS_URL`); in-process when absent. */
  rateLimitRedis?: RateLimitRedisStore;
  /** Further dependencies `/health/ready` reports (Redis, when configured). */
  readinessChecks?: ReadinessChecks;
  /** Prometheus metrics; a private registry is made when absent. */
  metrics?: PrometheusMetrics;
  /** Whole-request deadline against slow senders; 30 s unless a test needs it shorter. */
  requestTimeoutMs?: number;
  /** The authorization server the OpenAPI document's OAuth 2.0 scheme names; the demo issuer's default address when absent. */
  oauth?: OAuthDocumentation;
  /** TLS_CERT_FILE / TLS_KEY_FILE: the servers fastify creates are HTTPS; plain HTTP when absent. */
  https?: HttpsServing;
}

type ProtectionSettings = Pick<Config, 'corsOrigins' | 'pressureMaxEventLoopDelayMs' | 'pressureMaxHeapUsedMb'>;

/** The whole HTTP application, ready for `inject` or `listen`; it never listens by itself. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  // Node checks the deadlines only this often (30 s by default), which would let a trickle live on.
  const nodeHttpOptions = { connectionsCheckingInterval: 1000, headersTimeout: Math.min(deps.requestTimeoutMs ?? 30_000, 10_000) };
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: 16 * 1024,
    requestTimeout: deps.requestTimeoutMs ?? 30_000,
    // `https: true` beside the factory only makes fastify name its addresses https://.
    ...(deps.https ? { serverFactory: deps.https.serverFactory(nodeHttpOptions), https: true } : { http: nodeHttpOptions }),
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    genReqId: requestIdOf,
    // One line per request (below) instead of fastify's two: half the log volume, same facts.
    logController: new LogController({ disableRequestLogging: true }),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    clientErrorHandler,
    frameworkErrors,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
  await app.register(errorHandler, { clock: deps.clock });
  // An unknown path is 404 whatever its method or body: never parse (and refuse) a body nobody reads.
  // Hooks that never wait take a callback: no promise per hook per request.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.is404) done(new ApiError(404, 'Not found.'));
    else done(null, payload);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (!request.url.startsWith('/docs')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await app.register(metricsPlugin, { metrics: deps.metrics ?? new PrometheusMetrics({ defaultMetrics: false }) });
  await app.register(openapi, { basePath: deps.config.basePath, ...(deps.oauth ? { oauth: deps.oauth } : {}) });
  await app.register(healthRoutes, {
    checks: { ehr: () => deps.ehr.ping(), audit: () => deps.auditTrail.ping(), ...deps.readinessChecks },
  });

  await app.register(async (api) => {
    // JSON is the only body the API reads; any other media type is 415, never a string to validate.
    api.removeContentTypeParser('text/plain');
    await api.register(apiProtection, {
      corsOrigins: deps.config.corsOrigins ?? [],
      maxEventLoopDelayMs: deps.config.pressureMaxEventLoopDelayMs ?? 1000,
      maxHeapUsedBytes: (deps.config.pressureMaxHeapUsedMb ?? 2048) * 1024 * 1024,
    });
    await api.register(credentials, { subscriptionKeys: deps.subscriptionKeys, tokenVerifier: deps.tokenVerifier });
    await api.register(rateLimitPerSubscription, {
      max: deps.config.rateLimitMax, windowMs: deps.config.rateLimitWindowMs, redis: deps.rateLimitRedis,
      noKeyMax: deps.config.rateLimitNoKeyMax ?? deps.config.rateLimitMax,
    });
    const audited = new KeylessRefusalTally(deps.auditTrail, deps.clock, deps.logger);
    api.addHook('onClose', () => audited.close());
    await api.register(audit, { auditTrail: audited, clock: deps.clock });
    await api.register(readRoutes, deps);
    await api.register(patientRoute, deps);
    await api.register(writeRoutes, deps);
    await api.register(accessLogRoute, deps);
  }, { prefix: deps.config.basePath });

  return app;
}
