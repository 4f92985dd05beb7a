import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { container as rootContainer } from 'tsyringe';
import {
  demoCredentialsOf, isDemo, selectEhr, selectRedis, selectSubscriptionKeys, selectTokenVerifier, selectWriteCoordinator, type Selection,
} from './adapter-selection.js';
import { selectAccessLogReader, selectAuditTrail } from './audit-selection.js';
import { registeredApps } from '../adapters/auth-server/app-names.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics.js';
import { countingRedisStore, DEFAULT_RATE_LIMIT_NAMESPACE } from '../adapters/rate-limit-redis/counting-store.js';
import { cursorSecret } from '../adapters/page-cursor/cursor-secret.js';
import { SealedPageCursors } from '../adapters/page-cursor/sealed-page-cursors.js';
import type { Config } from './config.js';
import { ReadAccessLog } from '../domain/access-log/read-access-log.js';
import { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { MarkArrived } from '../domain/use-cases/mark-arrived.js';
import { ReadPatientData } from '../domain/use-cases/read-patient-data.js';
import { RegisterPayment } from '../domain/use-cases/register-payment.js';
import { buildApp } from '../http/app.js';
import { buildMetricsApp } from '../http/metrics-app.js';
import { HttpsServing } from '../adapters/tls/https-serving.js';
import { Lifecycle } from './lifecycle.js';
import { fhirApiOf, fhirForms, fhirIdsOf, publicBaseUrlOf } from './fhir-api.js';
import { smartLaunchContext } from './smart-launch.js';
import { openSharing } from './proxy-grants.js';
import { openNotifications } from './notifications.js';
import { ProxyDelegation } from '../domain/proxies/proxy-delegation.js';
import { startLine } from './start-line.js';
import { scopeGrantsOf, type FhirApi } from '../http/fhir/fhir-api.js';
import { isLoopbackHost } from './transport-settings.js';
import type { AccessLogReader } from '../ports/access-log.port.js';
import type { AccessTokenVerifier } from '../ports/access-token-verifier.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { DelegationRegistry } from '../ports/delegation-registry.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { PageCursors } from '../ports/page-cursors.port.js';
import type { SubscriptionKeys } from '../ports/subscription-keys.port.js';
import { TOKENS } from '../ports/tokens.js';
import type { WriteCoordinator } from '../ports/write-coordinator.port.js';

/** What `npm start` runs: the API, and the demo pieces that came up with it. */
export interface Runtime {
  app: FastifyInstance;
  /** `/metrics` alone, to listen on METRICS_HOST:METRICS_PORT (src/start/listen.ts). */
  metricsApp: FastifyInstance;
  /** Lines for the start-up banner (demo credentials locations); never a secret value itself. */
  notices: string[];
  /** The API listens at `address` (`http://HOST:PORT`, the bound port when PORT is 0). */
  listening(address: string): void;
  close(): Promise<void>;
}

/**
 * The one composition root: adapters chosen by configuration (src/start/adapter-selection.ts), bound to
 * one token per port, and the use cases built on the ports by factories.
 */
export async function compose(config: Config, logger: Logger, clock: Clock = new SystemClock()): Promise<Runtime> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const life = new Lifecycle();
  const metrics = new PrometheusMetrics();
  const selection: Selection = { config, clock, logger, metrics, life };
  const ehr = await selectEhr(selection);
  const redis = await selectRedis(selection);
  if (config.readsOff.size > 0) logger.warn({ readsOff: [...config.readsOff] }, 'reads turned off (READS_OFF): answered 501 on both doors, named by /health/ready');

  const c = rootContainer.createChildContainer();
  c.register<Clock>(TOKENS.Clock, { useValue: clock });
  c.register<EhrRecords>(TOKENS.EhrRecords, { useValue: ehr.records });
  selection.auditTrail = await selectAuditTrail(selection);
  c.register<AuditTrail>(TOKENS.AuditTrail, { useValue: selection.auditTrail });
  // PROXY_GRANTS=on: the patients' own grants beside the EHR's registry, in the one delegation check (docs/proxies.md).
  const sharing = config.proxies === undefined ? undefined : await openSharing(config, config.proxies, ehr.records, clock,
    () => c.resolve<AuditTrail>(TOKENS.AuditTrail), life, (err) => logger.error({ err }, 'lapses and expiries of proxy grants could not be recorded; retried in a minute'));
  // Demo mode: a newcomer signed in as Märta sees a grant and an invitation at once (src/dev/demo-grants).
  if (sharing !== undefined && isDemo(config)) {
    const { seedDemoGrants } = await import('../dev/demo-grants/seed.js');
    await seedDemoGrants(sharing.store, clock);
  }
  c.register<DelegationRegistry>(TOKENS.DelegationRegistry, { useValue: sharing === undefined ? ehr.registry : new ProxyDelegation(ehr.registry, sharing.store) });
  c.register<WriteCoordinator>(TOKENS.WriteCoordinator, { useValue: await selectWriteCoordinator(selection, redis) });
  c.register<SubscriptionKeys>(TOKENS.SubscriptionKeys, { useValue: await selectSubscriptionKeys(selection) });
  const fhirIds = await fhirIdsOf(config);
  // Read when asked: without PUBLIC_BASE_URL the FHIR base names the port bound, known once listening.
  const made: { fhir?: FhirApi } = {};
  // With the FHIR API off too: nothing can be launched, but every grant is audited before its code.
  selection.smartLaunch = smartLaunchContext(fhirIds, () => c.resolve(PatientAccessPolicy), () => made.fhir?.publicBaseUrl ?? publicBaseUrlOf(config, config.port),
    { trail: () => c.resolve<AuditTrail>(TOKENS.AuditTrail), clock, release: { policy: config.releasePolicy, zone: config.ehrTimezone } }, sharing !== undefined);
  c.register<AccessTokenVerifier>(TOKENS.AccessTokenVerifier, { useValue: await selectTokenVerifier(selection) });
  // The registered apps' names (app-names.ts), each read from its registration: the access log's and the patient app's page.
  const apps = registeredApps(selection.registeredClients ?? []);
  c.register<AccessLogReader>(TOKENS.AccessLogReader, { useValue: await selectAccessLogReader(selection) });
  c.register<PageCursors>(TOKENS.PageCursors, { useValue: new SealedPageCursors(await cursorSecret(config.accessLogCursorSecret, config.dataDir)) });
  c.register(PatientAccessPolicy, {
    // The Patient ids' key reads a token's smart_patient: without the FHIR API none can be read, and a token carrying one reaches nobody under patient/ scopes.
    useFactory: (d) => new PatientAccessPolicy(d.resolve<EhrRecords>(TOKENS.EhrRecords), d.resolve(TOKENS.DelegationRegistry), d.resolve(TOKENS.Clock), config.ehrTimezone,
      fhirIds === undefined ? undefined : (id) => fhirIds.identityNumberOf(id)),
  });
  c.register(ReadPatientData, {
    useFactory: (d) => new ReadPatientData(config.ehrTimezone, { policy: config.releasePolicy, clock: d.resolve(TOKENS.Clock) }),
  });
  c.register(MarkArrived, {
    useFactory: (d) => new MarkArrived(d.resolve(TOKENS.Clock),
      { beforeMinutes: config.arrivalWindowBeforeMin, afterMinutes: config.arrivalWindowAfterMin }, d.resolve(TOKENS.WriteCoordinator)),
  });
  c.register(ReadAccessLog, {
    // The registered apps' names (client_name, else client_name#sv, else #en), then CLIENT_NAMES over them.
    useFactory: (d) => new ReadAccessLog(d.resolve(TOKENS.AccessLogReader), d.resolve(TOKENS.PageCursors), {
      zone: config.ehrTimezone,
      clock: d.resolve(TOKENS.Clock),
      clientNames: new Map([...[...apps].filter(([id, app]) => app.name !== id).map(([id, app]) => [id, app.name] as const), ...config.clientNames]),
      policy: config.releasePolicy,
      grantOf: sharing === undefined ? undefined : (id) => sharing.grants.partiesOf(id),
    }),
  });
  c.register(RegisterPayment, { useFactory: (d) => new RegisterPayment(d.resolve(TOKENS.WriteCoordinator)) });

  const https = config.tls === undefined ? undefined : await HttpsServing.open(config.tls, logger);
  if (https) {
    life.onClose(async () => https.close());
    metrics.observeCertificate('api', () => https.certificateExpiry());
  }
  const releaseRules = Object.keys(config.releasePolicy ?? {}).filter((rule) => rule !== 'description');
  logger.info({ releaseRules }, config.releasePolicy ? 'release policy in force (RELEASE_POLICY_FILE)' : 'RELEASE_POLICY_FILE=none: nothing is withheld');
  // A newcomer reading the walkthrough learns why some of the demo people's records are not shown.
  if (config.releasePolicySource?.kind === 'demo example') {
    life.notices.push(`release policy: the example ${config.releasePolicySource.file} (RELEASE_POLICY_FILE names another; RELEASE_POLICY_FILE=none withholds nothing)`);
  }
  // loadConfig let this through only with ALLOW_PLAIN_HTTP=true; say so where operators look.
  if (!https && !isLoopbackHost(config.host)) logger.warn({ host: config.host }, 'plain HTTP on a non-loopback address (ALLOW_PLAIN_HTTP=true): only safe behind a gateway that terminates TLS');
  const fhir = await fhirApiOf(config, fhirIds, config.port, selection.oauth?.issuer, logger, selection.smartEndpoints);
  if (fhir !== undefined) made.fhir = fhir;
  // SUBSCRIPTIONS=on with the FHIR API: the engine and its workers (docs/notifications.md).
  const subscriptions = fhir === undefined || config.subscriptions === undefined ? undefined : await openNotifications({
    config, settings: config.subscriptions, fhir, selection, sharing,
    ehr: c.resolve<EhrRecords>(TOKENS.EhrRecords), accessPolicy: c.resolve(PatientAccessPolicy), readPatientData: c.resolve(ReadPatientData),
    audit: c.resolve<AuditTrail>(TOKENS.AuditTrail), metrics: metrics.notifications,
  });
  const registryPing = ehr.registryPing;
  const demoCredentials = demoCredentialsOf(selection);
  const app = await buildApp({
    config, clock, logger, metrics, zone: config.ehrTimezone, ...(https ? { https } : {}),
    ehr: c.resolve(TOKENS.EhrRecords),
    subscriptionKeys: c.resolve(TOKENS.SubscriptionKeys),
    tokenVerifier: c.resolve(TOKENS.AccessTokenVerifier),
    auditTrail: c.resolve(TOKENS.AuditTrail),
    accessPolicy: c.resolve(PatientAccessPolicy),
    // The FHIR API's own, so a scope is decided from the same forms on both doors; the same forms without it.
    scopeGrants: scopeGrantsOf(fhir?.forms ?? fhirForms()),
    readPatientData: c.resolve(ReadPatientData),
    markArrived: c.resolve(MarkArrived),
    registerPayment: c.resolve(RegisterPayment),
    readAccessLog: c.resolve(ReadAccessLog),
    // Each app's name in Swedish and English, but where CLIENT_NAMES names it (the operator's one name).
    appNames: new Map([...apps].filter(([id]) => !config.clientNames.has(id)).map(([id, { sv, en }]) => [id, { sv, en }] as const)),
    ...(sharing === undefined ? {} : { proxyGrants: sharing.grants }),
    ...(subscriptions === undefined ? {} : { subscriptions }),
    ...(ehr.answerMemory === undefined ? {} : { answerMemory: ehr.answerMemory }),
    ...(selection.oauth ? { oauth: selection.oauth } : {}),
    ...(selection.authServer === undefined ? {} : { authServer: selection.authServer }),
    ...(fhir === undefined ? {} : { fhir }),
    ...(selection.docsDemoKey === undefined ? {} : { docsDemoKey: selection.docsDemoKey }),
    ...(demoCredentials === undefined ? {} : { demoCredentials }),
    ...(redis ? { rateLimitStore: countingRedisStore(redis.client, DEFAULT_RATE_LIMIT_NAMESPACE, redis.health.recordSkippedCheck) } : {}),
    readinessChecks: {
      ...(redis ? { redis: () => metrics.observeCheck('redis', () => redis.health.ping()) } : {}),
      ...(registryPing ? { registry: () => metrics.observeCheck('registry', registryPing) } : {}),
    },
  });
  const metricsApp = await buildMetricsApp({ metrics, logger });
  const running = startLine(config);
  logger.info(running.fields, running.message);
  return {
    app,
    metricsApp,
    notices: life.notices,
    listening: (address) => {
      // Links and fullUrls name the port bound, where PUBLIC_BASE_URL does not say otherwise.
      if (fhir !== undefined && config.publicBaseUrl === undefined) fhir.publicBaseUrl = `${address}${config.basePath}`;
    },
    close: async () => {
      // Every request that reached a socket is answered and every connection closed before fastify's
      // close, which would answer unrouted requests with 503 and reset connections it thinks idle.
      await app.drainConnections();
      await app.close();
      await metricsApp.close();
      await life.closeAll();
    },
  };
}
