import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { PostgresAuditTrail } from './adapters/audit-postgres/postgres-audit-trail.js';
import { FileAuditTrail } from './adapters/audit-file/file-audit-trail.js';
import { startDemoAuthServer, type DemoAuthServer } from './adapters/auth-demo/demo-auth-server.js';
import { createRateLimitRedis } from './adapters/rate-limit-redis/create-rate-limit-redis.js';
import { JwtAccessTokenVerifier } from './adapters/auth-jwks/jwt-access-token-verifier.js';
import { InstrumentedAuditTrail } from './adapters/metrics/instrumented-audit-trail.js';
import { InstrumentedEhr } from './adapters/metrics/instrumented-ehr.js';
import { PrometheusMetrics } from './adapters/metrics/prometheus-metrics.js';
import { SystemClock } from './adapters/clock/system-clock.js';
import { generateDemoData } from './adapters/ehr-embedded/demo-data/generate.js';
import { DocumentStore } from './adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from './adapters/ehr-embedded/embedded-ehr.js';
import { XmlHttpEhr } from './adapters/ehr-xml-http/index.js';
import { WriteStateStore } from './adapters/ehr-embedded/write-state-store.js';
import { InProcessCoordinator } from './adapters/write-coordination/in-process-coordinator.js';
import { RedisCoordinator } from './adapters/write-coordination/redis-coordinator.js';
import { StaticSubscriptionKeys } from './adapters/subscription-keys/static-subscription-keys.js';
import type { Config } from './config.js';
import { PatientAccessPolicy } from './domain/access/patient-access.js';
import { MarkArrived } from './domain/use-cases/mark-arrived.js';
import { ReadPatientData } from './domain/use-cases/read-patient-data.js';
import { RegisterPayment } from './domain/use-cases/register-payment.js';
import { buildApp } from './http/app.js';
import type { AccessTokenVerifier } from './ports/access-token-verifier.port.js';
import type { AuditTrail } from './ports/audit-trail.port.js';
import type { Clock } from './ports/clock.port.js';
import type { DelegationRegistry } from './ports/delegation-registry.port.js';
import type { EhrRecords } from './ports/ehr-records.port.js';
import type { SubscriptionKeys } from './ports/subscription-keys.port.js';
import type { WriteCoordinator } from './ports/write-coordinator.port.js';
import { TOKENS } from './ports/tokens.js';

/** What `npm start` runs: the API, and the demo pieces that came up with it. */
export interface Runtime {
  app: FastifyInstance;
  /** Lines for the start-up banner (demo credentials locations); never a secret value itself. */
  notices: string[];
  close(): Promise<void>;
}

async function demoSubscriptionKeys(dataDir: string): Promise<Map<string, string>> {
  const file = path.join(dataDir, 'demo-subscription-key');
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
  } catch {
    key = randomBytes(24).toString('hex');
    await writeFile(file, `${key}\n`, { mode: 0o600 });
  }
  return new Map([['demo', key]]);
}

async function embeddedEhr(config: Config, clock: Clock, logger: Logger): Promise<EmbeddedEhr> {
  let dataDir = config.ehrDataDir;
  if (dataDir === undefined) {
    dataDir = path.join(config.dataDir, 'demo-ehr');
    await generateDemoData(dataDir, { now: clock.now(), zone: config.ehrTimezone });
    logger.warn({ dataDir }, 'embedded EHR serving generated SYNTHETIC demo data — not a system of record');
  }
  const writes = await WriteStateStore.open(path.join(config.dataDir, 'ehr-write-state.json'));
  return new EmbeddedEhr(new DocumentStore(dataDir), writes, config.ehrTimezone,
    (reason) => logger.warn({ reason }, 'EHR record left out of an answer'));
}

function remoteEhr(config: Config, logger: Logger, metrics: PrometheusMetrics): XmlHttpEhr {
  return new XmlHttpEhr({
    baseUrl: config.ehrBaseUrl ?? '', timeoutMs: config.ehrTimeoutMs, zone: config.ehrTimezone,
    onDropped: (reason) => logger.warn({ reason }, 'EHR record left out of an answer'),
    onEvent: (event) => {
      if (event.type === 'breaker-open') metrics.breakerOpen.set(1);
      if (event.type === 'breaker-closed') metrics.breakerOpen.set(0);
      if (event.type === 'retry') logger.info({ event }, 'EHR call retried');
      else logger.warn({ event }, 'EHR event');
    },
  });
}

/**
 * The one composition root: adapters chosen by configuration, bound to their ports, and the use
 * cases built on the ports. Adapters that need I/O to start are created first, then registered.
 */
export async function compose(config: Config, logger: Logger, clock: Clock = new SystemClock()): Promise<Runtime> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const notices: string[] = [];
  const closers: Array<() => Promise<void>> = [];

  let demoAuth: DemoAuthServer | undefined;
  let issuer = config.authIssuer;
  if (issuer === undefined) {
    demoAuth = await startDemoAuthServer({
      host: '127.0.0.1', port: config.demoAuthPort, audience: config.authAudience,
      patientClaim: config.authPatientClaim, dataDir: config.dataDir, logger,
    });
    issuer = demoAuth.issuer;
    closers.push(() => demoAuth?.close() ?? Promise.resolve());
    notices.push(`demo authorization server: ${issuer} (clients and secrets in ${path.join(config.dataDir, 'demo-auth.json')})`);
  }
  let keys = config.subscriptionKeys;
  if (keys === undefined) {
    keys = await demoSubscriptionKeys(config.dataDir);
    notices.push(`demo subscription key: in ${path.join(config.dataDir, 'demo-subscription-key')}`);
  }

  const metrics = new PrometheusMetrics();
  const adapter = config.ehrAdapter === 'xml-http' ? remoteEhr(config, logger, metrics) : await embeddedEhr(config, clock, logger);
  if (adapter instanceof XmlHttpEhr) closers.push(() => adapter.close());
  const ehr = new InstrumentedEhr(adapter, adapter, metrics);
  const auditStore: AuditTrail = config.databaseUrl === undefined
    ? await FileAuditTrail.open(path.join(config.dataDir, 'audit', 'audit-trail.jsonl'))
    : PostgresAuditTrail.create({ connectionString: config.databaseUrl, onWarning: (m) => logger.warn(m) });
  const auditTrail = new InstrumentedAuditTrail(auditStore, metrics);
  // Migrates early when the database is up; when it is down the service starts anyway, not ready.
  void auditTrail.ping();
  closers.push(() => auditTrail.close());

  const redis = config.redisUrl === undefined ? undefined : createRateLimitRedis({
    url: config.redisUrl, onWarning: (m) => logger.warn(m), onInfo: (m) => logger.info(m),
  });
  if (redis) {
    closers.push(() => redis.close());
    metrics.observeCounter('pdas_rate_limit_unenforced_total', 'Requests let through unlimited while Redis was unreachable.',
      () => redis.health.skippedChecks);
  }

  const c: DependencyContainer = rootContainer.createChildContainer();
  c.register<Clock>(TOKENS.Clock, { useValue: clock });
  c.register<EhrRecords>(TOKENS.EhrRecords, { useValue: ehr });
  c.register<DelegationRegistry>(TOKENS.DelegationRegistry, { useValue: ehr });
  c.register<AuditTrail>(TOKENS.AuditTrail, { useValue: auditTrail });
  c.register<WriteCoordinator>(TOKENS.WriteCoordinator, {
    useValue: redis === undefined ? new InProcessCoordinator() : new RedisCoordinator(redis.client, {
      lockTtlMs: config.ehrTimeoutMs + 10_000, waitMs: config.ehrTimeoutMs + 1000,
      onUnavailable: () => {
        metrics.writeCoordinationFallbacks.inc();
        logger.warn('Redis unreachable: identical writes are serialised within this instance only');
      },
    }),
  });
  c.register<SubscriptionKeys>(TOKENS.SubscriptionKeys, { useValue: new StaticSubscriptionKeys(keys) });
  c.register<AccessTokenVerifier>(TOKENS.AccessTokenVerifier, {
    useValue: new JwtAccessTokenVerifier({
      issuer, audience: config.authAudience, patientClaim: config.authPatientClaim, clock,
      ...(config.authJwksUrl ? { jwksUrl: config.authJwksUrl } : {}),
      onWarning: (msg) => logger.warn(msg),
    }),
  });
  c.register(PatientAccessPolicy, {
    useFactory: (d) => new PatientAccessPolicy(d.resolve(TOKENS.EhrRecords), d.resolve(TOKENS.DelegationRegistry), d.resolve(TOKENS.Clock), config.ehrTimezone),
  });
  c.register(ReadPatientData, { useFactory: (d) => new ReadPatientData(d.resolve(TOKENS.EhrRecords), config.ehrTimezone) });
  c.register(MarkArrived, {
    useFactory: (d) => new MarkArrived(d.resolve(TOKENS.EhrRecords), d.resolve(TOKENS.Clock),
      { beforeMinutes: config.arrivalWindowBeforeMin, afterMinutes: config.arrivalWindowAfterMin }, d.resolve(TOKENS.WriteCoordinator)),
  });
  c.register(RegisterPayment, { useFactory: (d) => new RegisterPayment(d.resolve(TOKENS.EhrRecords), d.resolve(TOKENS.WriteCoordinator)) });

  const app = await buildApp({
    config, clock, logger, metrics, zone: config.ehrTimezone,
    ehr: c.resolve(TOKENS.EhrRecords),
    subscriptionKeys: c.resolve(TOKENS.SubscriptionKeys),
    tokenVerifier: c.resolve(TOKENS.AccessTokenVerifier),
    auditTrail: c.resolve(TOKENS.AuditTrail),
    accessPolicy: c.resolve(PatientAccessPolicy),
    readPatientData: c.resolve(ReadPatientData),
    markArrived: c.resolve(MarkArrived),
    registerPayment: c.resolve(RegisterPayment),
    ...(redis ? {
      rateLimitRedis: { client: redis.client, onStoreError: redis.health.recordSkippedCheck },
      readinessChecks: { redis: () => redis.health.ping() },
    } : {}),
  });
  return {
    app,
    notices,
    close: async () => {
      // A keep-alive connection that was busy when closing began stays open afterwards; sweep until done.
      const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweeper);
      }
      for (const close of closers.reverse()) await close();
    },
  };
}
