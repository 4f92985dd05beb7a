import path from 'node:path';
import type { Logger } from 'pino';
import { PostgresAuditTrail } from './adapters/audit-postgres/postgres-audit-trail.js';
import { FileAccessLog } from './adapters/audit-query/file-access-log.js';
import { PostgresAccessLog } from './adapters/audit-query/postgres-access-log.js';
import { FileAuditTrail } from './adapters/audit-file/file-audit-trail.js';
import { DEMO_CLIENTS } from './adapters/auth-demo/demo-clients.js';
import { JwtAccessTokenVerifier } from './adapters/auth-jwks/jwt-access-token-verifier.js';
import { generateDemoData } from './adapters/ehr-embedded/demo-data/generate.js';
import { DocumentStore } from './adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from './adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from './adapters/ehr-embedded/write-state-store.js';
import { XmlHttpEhr } from './adapters/ehr-xml-http/index.js';
import { InstrumentedAuditTrail } from './adapters/metrics/instrumented-audit-trail.js';
import { InstrumentedEhr } from './adapters/metrics/instrumented-ehr.js';
import type { PrometheusMetrics } from './adapters/metrics/prometheus-metrics.js';
import { createRateLimitRedis, type RateLimitRedis } from './adapters/rate-limit-redis/create-rate-limit-redis.js';
import { DEMO_KEY_FILE, demoSubscriptionKeys } from './adapters/subscription-keys/demo-subscription-key.js';
import { StaticSubscriptionKeys } from './adapters/subscription-keys/static-subscription-keys.js';
import { InProcessCoordinator } from './adapters/write-coordination/in-process-coordinator.js';
import { RedisCoordinator } from './adapters/write-coordination/redis-coordinator.js';
import type { Config } from './config.js';
import type { OAuthDocumentation } from './http/openapi/security.js';
import { readEhrTls, type EhrTlsFiles } from './transport-settings.js';
import { certificateSummary } from './http/tls/certificate-summary.js';
import { watchFiles } from './http/tls/file-watch.js';
import type { Lifecycle } from './lifecycle.js';
import type { AccessLogReader } from './ports/access-log.port.js';
import type { AccessTokenVerifier } from './ports/access-token-verifier.port.js';
import type { AuditTrail } from './ports/audit-trail.port.js';
import type { Clock } from './ports/clock.port.js';
import type { DelegationRegistry } from './ports/delegation-registry.port.js';
import type { EhrRecords } from './ports/ehr-records.port.js';
import type { SubscriptionKeys } from './ports/subscription-keys.port.js';
import type { WriteCoordinator } from './ports/write-coordinator.port.js';

/** Which adapter serves each port, decided by the settings of CONTRACT.md §1; each opened adapter is closed by `life`. */
export interface Selection {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: PrometheusMetrics;
  life: Lifecycle;
  /** Set by selectTokenVerifier: the issuer the OpenAPI document's OAuth 2.0 scheme names. */
  oauth?: OAuthDocumentation;
}

/**
 * AUTH_CLIENT_IDS, or by default the demo issuer's client-credentials clients while it runs (never its
 * person-facing app) and none with a real issuer: a client token is never assumed (CONTRACT §2).
 */
export function authClientIds(config: Config): string[] {
  if (config.authClientIds !== undefined) return config.authClientIds;
  if (config.authIssuer !== undefined) return [];
  return DEMO_CLIENTS.filter((client) => client.grant === 'client_credentials').map((client) => client.clientId);
}

/** The /docs page's OAuth redirect page, in the scheme the API listens in (https once TLS_CERT_FILE is set). */
export function docsRedirectUri(config: Pick<Config, 'host' | 'port' | 'tls'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.tls === undefined ? 'http' : 'https'}://${host}:${config.port}/docs/static/oauth2-redirect.html`;
}

/** The demo authorization server starts only without AUTH_ISSUER; either way tokens are verified the same way. */
export async function selectTokenVerifier(selection: Selection): Promise<AccessTokenVerifier> {
  const { config, clock, logger, life } = selection;
  let issuer = config.authIssuer;
  if (issuer !== undefined) selection.oauth = { kind: 'issuer', issuer };
  if (issuer === undefined) {
    // Imported only when needed: oidc-provider and its dependencies cost memory a real deployment never uses.
    const { startDemoAuthServer } = await import('./adapters/auth-demo/demo-auth-server.js');
    const demo = await startDemoAuthServer({
      host: '127.0.0.1', port: config.demoAuthPort, audience: config.authAudience,
      patientClaim: config.authPatientClaim, dataDir: config.dataDir, logger,
      docsRedirectUri: docsRedirectUri(config),
    });
    issuer = demo.issuer;
    selection.oauth = { kind: 'demo', issuer };
    life.onClose(() => demo.close());
    life.notices.push(`demo authorization server: ${issuer} (clients and secrets in ${path.join(config.dataDir, 'demo-auth.json')})`);
  }
  const clientIds = authClientIds(config);
  if (clientIds.length === 0) logger.warn('AUTH_CLIENT_IDS is empty: only person tokens are accepted, client-credentials tokens are refused');
  return new JwtAccessTokenVerifier({
    issuer, audience: config.authAudience, patientClaim: config.authPatientClaim, clientIds, clock,
    ...(config.authJwksUrl ? { jwksUrl: config.authJwksUrl } : {}),
    onWarning: (msg) => logger.warn(msg),
  });
}

export async function selectSubscriptionKeys({ config, life }: Selection): Promise<SubscriptionKeys> {
  if (config.subscriptionKeys !== undefined) return new StaticSubscriptionKeys(config.subscriptionKeys);
  life.notices.push(`demo subscription key: in ${path.join(config.dataDir, DEMO_KEY_FILE)}`);
  return new StaticSubscriptionKeys(await demoSubscriptionKeys(config.dataDir));
}

export async function selectEhr({ config, clock, logger, metrics, life }: Selection): Promise<EhrRecords & DelegationRegistry> {
  const onDropped = (reason: string): void => logger.warn({ reason }, 'EHR record left out of an answer');
  if (config.ehrAdapter === 'xml-http') {
    const remote = new XmlHttpEhr({
      baseUrl: config.ehrBaseUrl ?? '', timeoutMs: config.ehrTimeoutMs, zone: config.ehrTimezone, onDropped,
      ...(config.ehrTls ? { tls: await readEhrTls(config.ehrTls) } : {}),
      onEvent: (event) => {
        if (event.type === 'breaker-open') metrics.breakerOpen.set(1);
        if (event.type === 'breaker-closed') metrics.breakerOpen.set(0);
        if (event.type === 'retry') logger.info({ event }, 'EHR call retried');
        else logger.warn({ event }, 'EHR event');
      },
    });
    life.onClose(() => remote.close());
    if (config.ehrTls) watchEhrTls(config.ehrTls, remote, logger, life);
    return traced(config, new InstrumentedEhr(remote, remote, metrics));
  }
  let dataDir = config.ehrDataDir;
  if (dataDir === undefined) {
    dataDir = path.join(config.dataDir, 'demo-ehr');
    await generateDemoData(dataDir, { now: clock.now(), zone: config.ehrTimezone });
    logger.warn({ dataDir }, 'embedded EHR serving generated SYNTHETIC demo data — not a system of record');
  }
  const writes = await WriteStateStore.open(path.join(config.dataDir, 'ehr-write-state.json'));
  const embedded = new EmbeddedEhr(new DocumentStore(dataDir), writes, config.ehrTimezone, onDropped);
  return traced(config, new InstrumentedEhr(embedded, embedded, metrics));
}

/** As often as the API's own certificate files are looked at (src/http/tls/https-serving.ts). */
const EHR_TLS_WATCH = { intervalMs: 1000, settleMs: 250 };

/**
 * EHR_TLS_* files are watched as TLS_CERT_FILE's are: a rotated client certificate is taken for new
 * connections without a restart; files that make no usable pair are logged and the old pair stays.
 */
function watchEhrTls(files: EhrTlsFiles, remote: XmlHttpEhr, logger: Logger, life: Lifecycle): void {
  const watched = [files.certFile, files.keyFile, files.caFile].filter((f): f is string => f !== undefined);
  const watch = watchFiles(watched, () => {
    readEhrTls(files).then((tls) => {
      remote.useTls(tls);
      logger.info({ certificate: certificateSummary(tls.cert) }, 'EHR client certificate reloaded; new connections to the EHR use it');
    }).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      logger.warn({ reason }, 'EHR_TLS_* files changed but do not make a usable client certificate; still using the previous one');
    });
  }, EHR_TLS_WATCH);
  life.onClose(async () => watch.close());
}

/** With tracing on, every EHR call is a span; with it off, nothing of OpenTelemetry is imported. */
async function traced(config: Config, ehr: EhrRecords & DelegationRegistry): Promise<EhrRecords & DelegationRegistry> {
  if (!config.tracing) return ehr;
  const { TracedEhr } = await import('./tracing/traced-ports.js');
  return new TracedEhr(ehr, ehr);
}

/** Where the embedded audit trail is kept when there is no DATABASE_URL. */
const auditFileOf = (config: Config): string => path.join(config.dataDir, 'audit', 'audit-trail.jsonl');

/** The patient's access log is read from the store the audit trail writes to (CONTRACT §6). */
export function selectAccessLogReader({ config, logger, life }: Selection): AccessLogReader {
  const reader = config.databaseUrl === undefined
    ? new FileAccessLog(auditFileOf(config), (m) => logger.warn(m))
    : PostgresAccessLog.create({ connectionString: config.databaseUrl });
  life.onClose(() => reader.close());
  return reader;
}

export async function selectAuditTrail({ config, logger, metrics, life }: Selection): Promise<AuditTrail> {
  const store: AuditTrail = config.databaseUrl === undefined
    ? await FileAuditTrail.open(auditFileOf(config), { onWarning: (m) => logger.warn(m) })
    : PostgresAuditTrail.create({ connectionString: config.databaseUrl, onWarning: (m) => logger.warn(m) });
  // Migrates early when the database is up; when it is down the service starts anyway, not ready.
  void store.ping();
  life.onClose(() => store.close());
  const instrumented = new InstrumentedAuditTrail(store, metrics);
  if (!config.tracing) return instrumented;
  const { TracedAuditTrail } = await import('./tracing/traced-ports.js');
  return new TracedAuditTrail(instrumented);
}

export function selectRedis({ config, logger, metrics, life }: Selection): RateLimitRedis | undefined {
  if (config.redisUrl === undefined) return undefined;
  const redis = createRateLimitRedis({ url: config.redisUrl, onWarning: (m) => logger.warn(m), onInfo: (m) => logger.info(m) });
  life.onClose(() => redis.close());
  metrics.observeCounter('pdas_rate_limit_unenforced_total', 'Requests let through unlimited while Redis was unreachable.',
    () => redis.health.skippedChecks);
  return redis;
}

export function selectWriteCoordinator({ config, logger, metrics }: Selection, redis: RateLimitRedis | undefined): WriteCoordinator {
  if (redis === undefined) return new InProcessCoordinator();
  return new RedisCoordinator(redis.client, {
    lockTtlMs: config.ehrTimeoutMs + 10_000, waitMs: config.ehrTimeoutMs + 1000,
    onUnavailable: () => {
      metrics.writeCoordinationFallbacks.inc();
      logger.warn('Redis unreachable: identical writes are serialised within this instance only');
    },
  });
}
