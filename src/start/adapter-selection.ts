import path from 'node:path';
import { withReadsOff } from '../domain/read-availability/reads-off.js';
import type { Logger } from 'pino';
import type { SmartLaunchContext } from '../ports/smart-launch.port.js';
import type { AuthServerMount } from '../ports/auth-server.port.js';
import type { SmartEndpoints } from '../http/fhir/fhir-api.js';
import type { SignInSettings } from './sign-in-settings.js';
import { JwtAccessTokenVerifier } from '../adapters/auth-jwks/jwt-access-token-verifier.js';
import type { EmbeddedEhr } from '../adapters/ehr-embedded/embedded-ehr.js';
import type { FhirEhr } from '../adapters/ehr-fhir/adapter/fhir-ehr.js';
import type { FhirRole } from '../adapters/ehr-fhir/client/capabilities.js';
import type { FhirEhrEvent, FhirEhrOptions } from '../adapters/ehr-fhir/adapter/options.js';
import type { EhrTls } from '../adapters/ehr-http/transport.js';
import type { EhrAdapterKind } from './fhir-settings.js';
import { InstrumentedEhr } from '../adapters/metrics/instrumented-ehr.js';
import { MappedDocuments } from '../adapters/mapped-documents/mapped-documents.js';
import type { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics.js';
import type { RateLimitRedis } from '../adapters/rate-limit-redis/create-rate-limit-redis.js';
import { StaticSubscriptionKeys } from '../adapters/subscription-keys/static-subscription-keys.js';
import { InProcessCoordinator } from '../adapters/write-coordination/in-process-coordinator.js';
import { ConfigError, type Config } from './config.js';
import { demoMode } from './demo-mode.js';
import type { DemoCredentials } from '../http/demo-refusals.js';
import type { OAuthDocumentation } from '../http/openapi/security.js';
import { readEhrTls } from './transport-settings.js';
import { watchEhrTls } from '../adapters/ehr-http/tls-rotation.js';
import { certificateExpiry } from '../adapters/tls/certificate-summary.js';
import type { Lifecycle } from './lifecycle.js';
import type { OpenPatientClaim } from '../adapters/auth-server/patient-claim-seal.js';
import type { AuthClient } from '../adapters/auth-server/clients.js';
import type { AnswerMemory } from '../ports/answer-memory.port.js';
import type { AppGrants } from '../ports/app-grants.port.js';
import type { AccessTokenVerifier, GrantHolder } from '../ports/access-token-verifier.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { DelegationRegistry } from '../ports/delegation-registry.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { SubscriptionKeys } from '../ports/subscription-keys.port.js';
import type { WriteCoordinator } from '../ports/write-coordinator.port.js';
import { opened } from './listen-failure.js';
import { regionLoginEvents } from './login-events.js';

/**
 * Which adapter serves each port, decided by the settings of docs/contract.md#settings; each opened
 * adapter is closed by `life`. An adapter the settings do not pick is never imported (PostgreSQL,
 * Redis, every EHR adapter but the chosen one): a module's source and code stay in the heap for the
 * life of the process, and the collector's headroom doubles them at the peak (BENCHMARKS.md,
 * issue 20 item 6, fifth round).
 */
export interface Selection {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: PrometheusMetrics;
  life: Lifecycle;
  /** Set by selectTokenVerifier: the issuer the OpenAPI document's OAuth 2.0 scheme names. */
  oauth?: OAuthDocumentation;
  /** Set by selectSubscriptionKeys in demo mode only: the demo key the /docs page fills in. */
  docsDemoKey?: string;
  /** Set in demo mode only: the files in DATA_DIR holding the demo key and the demo issuer's clients. */
  demoKeyFile?: string;
  demoClientsFile?: string;
  /** Set by the composition root once selected: the audit trail, which the sign-in writes each login to. */
  auditTrail?: AuditTrail;
  /** With the FHIR API on: what the demo issuer's SMART launch asks of the service. */
  smartLaunch?: SmartLaunchContext;
  /** Set with SIGN_IN_LOGIN_ISSUER: the service's own authorization server, and the endpoints SMART discovery names. */
  authServer?: AuthServerMount;
  smartEndpoints?: SmartEndpoints;
  /** Set by selectTokenVerifier: the apps the demo's or the service's own authorization server registers (their names, notification endpoints); none with another issuer. */
  registeredClients?: readonly AuthClient[];
  /** Set by selectTokenVerifier with the demo's or the service's own authorization server: whose a grant of it is, while it lives. */
  grantHolder?: (grantId: string) => Promise<GrantHolder | undefined>;
  /** Set with grantHolder: whether an app is still signed in for a subscription's grant (its own, or the one that replaced it). */
  appGrants?: AppGrants;
}

/**
 * Demo mode (src/start/demo-mode.ts), asked again wherever a demo piece would be made: loadConfig refuses a
 * real setting without AUTH_ISSUER already, but a config made otherwise must not start one either.
 */
export const isDemo = (config: Config): boolean => demoMode(config, (message) => new ConfigError(message));

/**
 * AUTH_CLIENT_IDS, or by default the demo issuer's client-credentials clients while it runs (never its
 * person-facing app; `demoClientIds`) and none with a real issuer: a client token is never assumed
 * (docs/contract.md#token-kinds).
 */
export function authClientIds(config: Config, demoClientIds: readonly string[]): string[] {
  if (config.authClientIds !== undefined) return config.authClientIds;
  return isDemo(config) ? [...demoClientIds] : [];
}

/** The /docs page's OAuth redirect page, in the scheme the API listens in (https once TLS_CERT_FILE is set). */
export function docsRedirectUri(config: Pick<Config, 'host' | 'port' | 'tls'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.tls === undefined ? 'http' : 'https'}://${host}:${config.port}/docs/static/oauth2-redirect.html`;
}

/** The demo authorization server, on loopback, closed with the service; its address and its client-credentials clients. */
async function startDemoIssuer(selection: Selection): Promise<{
  issuer: string; clientIds: readonly string[]; grantHolder: (grantId: string) => Promise<GrantHolder | undefined>; appGrants: AppGrants; openPatientClaim: OpenPatientClaim;
}> {
  // Imported only when needed: oidc-provider and its dependencies cost memory a real deployment never uses.
  const { config, logger, life } = selection;
  const { startDemoAuthServer } = await import('../dev/demo-issuer/demo-auth-server.js');
  const demo = await opened(() => startDemoAuthServer({
    host: '127.0.0.1', port: config.demoAuthPort, audience: config.authAudience,
    patientClaim: config.authPatientClaim, dataDir: config.dataDir, logger,
    docsRedirectUri: docsRedirectUri(config), smart: selection.smartLaunch ?? NO_SMART,
  }), { portSetting: 'DEMO_AUTH_PORT', port: config.demoAuthPort, hostSetting: 'the demo issuer host', host: '127.0.0.1' });
  life.onClose(() => demo.close());
  selection.registeredClients = demo.registered;
  selection.demoClientsFile = path.join(config.dataDir, 'demo-auth.json');
  life.notices.push(`demo authorization server: ${demo.issuer} (clients and secrets in ${selection.demoClientsFile})`);
  return {
    issuer: demo.issuer, clientIds: demo.clientIds, grantHolder: (grantId) => demo.grantHolder(grantId),
    appGrants: { scopesHeld: (held) => demo.scopesHeld(held) }, openPatientClaim: demo.openPatientClaim,
  };
}

/** Demo mode only, once its key and issuer are made: where a refused caller finds the demo's credentials (src/http/demo-refusals.ts). */
export function demoCredentialsOf(selection: Selection): DemoCredentials | undefined {
  const { demoKeyFile, demoClientsFile, oauth } = selection;
  if (demoKeyFile === undefined || demoClientsFile === undefined || oauth?.kind !== 'demo') return undefined;
  return { keyFile: demoKeyFile, issuer: oauth.issuer, clientsFile: demoClientsFile };
}

/** A start that made no SMART context (the composition always makes one): nothing is launched, and nothing granted unaudited. */
const NO_SMART: SmartLaunchContext = { publicBaseUrl: () => 'http://smart-launch.invalid', peopleFor: async () => [], sharingOffered: false,
  recordGrant: () => Promise.reject(new Error('nothing can be launched here')) };

/**
 * SIGN_IN_LOGIN_ISSUER: the service's own authorization server under {PUBLIC_BASE_URL}/auth, its state
 * in DATABASE_URL, the region's login discovered in the background (never fatal); its keys, the local
 * JWKS the API verifies its tokens with.
 */
async function startOwnIssuer(selection: Selection, signIn: SignInSettings): Promise<{
  publicJwks: unknown; grantHolder: (grantId: string) => Promise<GrantHolder | undefined>; appGrants: AppGrants; openPatientClaim: OpenPatientClaim;
}> {
  const { config, logger, life, metrics, clock, auditTrail: trail } = selection;
  // Every login at the region is audited before it counts (src/start/login-events.ts): none without a trail.
  if (trail === undefined) throw new Error('the audit trail is selected before the sign-in, which audits every login');
  // Imported only when needed, as every adapter the settings do not pick.
  const { RegionAuthServer, signInPool } = await import('../adapters/auth-server/region-auth-server.js');
  const { publicKeys } = await import('../adapters/auth-server/key-files.js');
  const { patientClaimSeal } = await import('../adapters/auth-server/patient-claim-seal.js');
  if (config.databaseUrl === undefined) throw new ConfigError('SIGN_IN_LOGIN_ISSUER is set, so DATABASE_URL is required');
  const pool = signInPool(config.databaseUrl);
  life.onClose(() => pool.end());
  const server = await RegionAuthServer.open({
    issuer: signIn.issuer, audience: config.authAudience, patientClaim: config.authPatientClaim, clients: signIn.clients,
    signingKeys: signIn.signingKeys, cookieKeys: signIn.cookieKeys, pool, schema: signIn.schema, login: signIn.login,
    smart: selection.smartLaunch ?? NO_SMART, logger, behindProxy: config.trustProxy.length > 0,
    onTokenRefused: (error) => metrics.tokenRefused(error), onFormRefused: (form) => metrics.formRefused(form),
    events: regionLoginEvents({ regionIssuer: signIn.login.issuer, trail, clock, logger, countFailure: (kind) => metrics.signInFailed(kind) }),
  });
  life.onClose(() => server.close());
  selection.authServer = server;
  selection.smartEndpoints = server.endpoints();
  selection.registeredClients = signIn.clients;
  life.notices.push(`authorization server: ${signIn.issuer} (sign-in at ${signIn.login.issuer})`);
  return {
    publicJwks: publicKeys(signIn.signingKeys), grantHolder: (grantId) => server.grantHolder(grantId),
    appGrants: { scopesHeld: (held) => server.scopesHeld(held) },
    openPatientClaim: patientClaimSeal(signIn.signingKeys).open,
  };
}

/** The demo authorization server starts only in demo mode, the service's own with SIGN_IN_LOGIN_ISSUER; either way tokens are verified the same way. */
export async function selectTokenVerifier(selection: Selection): Promise<AccessTokenVerifier> {
  const { config, clock, logger, life } = selection;
  const own = config.signIn === undefined ? undefined : await startOwnIssuer(selection, config.signIn);
  const demo = isDemo(config) ? await startDemoIssuer(selection) : undefined;
  const issuer = demo?.issuer ?? config.authIssuer;
  // Unreachable: demoMode answers false only with AUTH_ISSUER set.
  if (issuer === undefined) throw new Error('no issuer to trust outside demo mode');
  selection.oauth = { kind: demo === undefined ? 'issuer' : 'demo', issuer };
  const clientIds = authClientIds(config, demo?.clientIds ?? []);
  // The service's own issuer (the demo's, whose issuer is trusted when there is one, or SIGN_IN_LOGIN_ISSUER's): it seals
  // the patient claim, and a person token stops the moment its grant ends. Another issuer's claim is read as it is.
  const ownIssuer = demo ?? own;
  if (ownIssuer !== undefined) {
    selection.grantHolder = ownIssuer.grantHolder;
    selection.appGrants = ownIssuer.appGrants;
  }
  if (clientIds.length === 0) logger.warn('AUTH_CLIENT_IDS is empty: only person tokens are accepted, client-credentials tokens are refused');
  const verifier = new JwtAccessTokenVerifier({
    issuer, audience: config.authAudience, patientClaim: config.authPatientClaim, clientIds, clock,
    ...(config.authJwksUrl ? { jwksUrl: config.authJwksUrl } : {}),
    ...(own === undefined ? {} : { localJwks: () => Promise.resolve(own.publicJwks) }),
    ...(ownIssuer === undefined ? {} : { grantHolder: ownIssuer.grantHolder, openPatientClaim: ownIssuer.openPatientClaim }),
    onWarning: (msg) => logger.warn(msg),
  });
  life.onClose(async () => verifier.close());
  return verifier;
}

export async function selectSubscriptionKeys(selection: Selection): Promise<SubscriptionKeys> {
  const { config, life } = selection;
  if (config.subscriptionKeys !== undefined) return new StaticSubscriptionKeys(config.subscriptionKeys);
  // loadConfig refuses this already; a demo key beside a real issuer must never exist, however the config was made.
  if (!isDemo(config)) throw new Error('AUTH_ISSUER is set without SUBSCRIPTION_KEYS or SUBSCRIPTION_KEYS_FILE');
  const { DEMO_KEY_FILE, demoSubscriptionKeys } = await import('../dev/demo-keys/demo-subscription-key.js');
  selection.demoKeyFile = path.join(config.dataDir, DEMO_KEY_FILE);
  life.notices.push(`demo subscription key: in ${selection.demoKeyFile}`);
  const keys = await demoSubscriptionKeys(config.dataDir);
  selection.docsDemoKey = [...keys.values()][0];
  return new StaticSubscriptionKeys(keys);
}

/**
 * What the configured EHR adapter provides: the records of every read (each from where its folder
 * says, src/reads/read-sources.ts) and the writes, and the delegation registry (its own, or
 * DELEGATION_REGISTRY's). The composition root binds each to its own port.
 */
export interface EhrSource {
  records: EhrRecords;
  registry: DelegationRegistry;
  /** A registry kept apart from the records is probed for readiness too. */
  registryPing?: () => Promise<boolean>;
  /** The budget of an EHR whose large answers hold memory until they are written (xml-http). */
  answerMemory?: AnswerMemory;
}

type Ehr = EhrRecords & DelegationRegistry & { readonly answerMemory?: AnswerMemory };
type Remote = Ehr & { useTls(tls: EhrTls): void; close(): Promise<void> };

/** Every adapter's note of a record it could not map and left out of an answer (never its content). */
const droppedRecords = (logger: Logger) => (reason: string): void => logger.warn({ reason }, 'EHR record left out of an answer');

/** A remote EHR (or registry) at `baseUrl`, closed with the service, its EHR_TLS_* files watched. */
async function openRemote(kind: 'xml-http' | 'fhir-r4', baseUrl: string, { config, logger, metrics, life }: Selection, role: FhirRole, kept: MappedDocuments): Promise<Remote> {
  const onDropped = droppedRecords(logger);
  const common = {
    baseUrl, timeoutMs: config.ehrTimeoutMs, zone: config.ehrTimezone, onDropped,
    ...(config.ehrTls ? { tls: await readEhrTls(config.ehrTls) } : {}),
    onEvent: (event: FhirEhrEvent) => {
      if (event.type === 'breaker-open') metrics.breakerOpen.set(1);
      if (event.type === 'breaker-closed') metrics.breakerOpen.set(0);
      if (event.type === 'retry') logger.info({ event }, 'EHR call retried');
      else if (event.type === 'capability-missing') logger.error({ event }, 'FHIR server lists no such search parameter');
      else if (event.type === 'reads-unavailable') logger.error({ event }, 'reads unavailable: the FHIR server lacks their searches; the other reads serve');
      else logger.warn({ event }, 'EHR event');
    },
  };
  const remote: Remote = kind === 'xml-http'
    ? new (await import('../adapters/ehr-xml-http/index.js')).XmlHttpEhr({
      ...common, mappedDocuments: kept, onConditional: (answer) => metrics.ehrConditionalRequests.inc({ answer }),
    })
    : await openFhir(config, { ...common, role }, life);
  life.onClose(() => remote.close());
  if (config.ehrTls) {
    let cert = common.tls?.cert;
    metrics.observeCertificate('ehr-client', () => certificateExpiry(cert));
    const watch = watchEhrTls(config.ehrTls, { useTls: (tls) => { remote.useTls(tls); cert = tls.cert; } }, logger);
    life.onClose(async () => watch.close());
  }
  return remote;
}

async function openFhir(config: Config, common: Omit<FhirEhrOptions, keyof FhirSettingsPart>, life: Lifecycle): Promise<FhirEhr> {
  const fhir = config.fhir;
  // loadConfig reads the FHIR settings whenever fhir-r4 is chosen; a config made otherwise must not start half-set.
  if (fhir === undefined) throw new Error('the fhir-r4 adapter needs the FHIR_* settings');
  const [{ FhirEhr }, { fhirAuthorization }] = await Promise.all([
    import('../adapters/ehr-fhir/adapter/fhir-ehr.js'), import('../adapters/ehr-fhir/adapter/smart-backend.js'),
  ]);
  const authorization = await fhirAuthorization(fhir.auth, config.ehrTimeoutMs, common.tls === undefined ? {} : { tls: common.tls });
  if (authorization) life.onClose(() => authorization.close());
  const ehr = new FhirEhr({
    ...common, ...(authorization === undefined ? {} : { authorization }), idRoot: fhir.idRoot, pageSize: fhir.pageSize, maxPages: fhir.maxPages,
    maxPageBytes: fhir.maxPageBytes, delegationTag: fhir.delegationTag,
    paymentIdSystem: fhir.paymentIdSystem, ...(fhir.videoActionIdSystem === undefined ? {} : { videoActionIdSystem: fhir.videoActionIdSystem }),
  });
  // The statement read at once, not at the first readiness probe: the reads it lacks searches of are
  // answered 501 from the first request on (a read never waits for it; readiness reads it again).
  void ehr.ping().catch(() => false);
  return ehr;
}

type FhirSettingsPart = Pick<FhirEhrOptions, 'idRoot' | 'pageSize' | 'maxPages' | 'maxPageBytes' | 'delegationTag' | 'paymentIdSystem' | 'videoActionIdSystem'>;

async function openEmbedded({ config, clock, logger }: Selection, kept: MappedDocuments): Promise<EmbeddedEhr> {
  let dataDir = config.ehrDataDir;
  if (dataDir === undefined) {
    dataDir = path.join(config.dataDir, 'demo-ehr');
    const { generateDemoData } = await import('../dev/demo-data/generate.js');
    await generateDemoData(dataDir, { now: clock.now(), zone: config.ehrTimezone });
    logger.warn({ dataDir }, 'embedded EHR serving generated SYNTHETIC demo data — not a system of record');
  }
  const [{ EmbeddedEhr }, { DocumentStore }, { WriteStateStore }] = await Promise.all([
    import('../adapters/ehr-embedded/embedded-ehr.js'), import('../adapters/ehr-embedded/document-store.js'),
    import('../adapters/ehr-embedded/write-state-store.js'),
  ]);
  const writes = await WriteStateStore.open(path.join(config.dataDir, 'ehr-write-state.json'));
  return new EmbeddedEhr(new DocumentStore(dataDir), writes, config.ehrTimezone, droppedRecords(logger), { mappedDocuments: kept });
}

async function openAdapter(kind: EhrAdapterKind, baseUrl: string | undefined, selection: Selection, role: FhirRole, kept: MappedDocuments): Promise<Ehr> {
  // loadConfig requires a base URL for every remote kind.
  return kind === 'embedded' ? openEmbedded(selection, kept) : openRemote(kind, baseUrl ?? '', selection, role, kept);
}

export async function selectEhr(selection: Selection): Promise<EhrSource> {
  const { config, metrics } = selection;
  const apart = config.delegationRegistry !== config.ehrAdapter || config.delegationRegistryUrl !== undefined;
  // One budget of kept mappings (EHR_CACHE_BYTES) for every XML adapter of the process, the registry's too.
  const kept = new MappedDocuments(config.ehrCacheBytes, (outcome) => metrics.mappedDocuments.inc({ outcome }));
  // A FHIR server that is not the registry is not asked whether it can be one (docs/upstream-fhir.md#transport).
  const ehr = await openAdapter(config.ehrAdapter, config.ehrBaseUrl, selection, apart ? 'records' : 'both', kept);
  const registry = apart ? await openAdapter(config.delegationRegistry, config.delegationRegistryUrl, selection, 'registry', kept) : ehr;
  // READS_OFF: every door's call of a read turned off ends in the one refusal, the EHR never asked (docs/operations.md#turning-a-read-off).
  const source = await traced(config, new InstrumentedEhr(withReadsOff(ehr, config.readsOff), registry, metrics));
  return {
    ...source,
    ...(apart ? { registryPing: () => registry.ping() } : {}),
    ...(ehr.answerMemory === undefined ? {} : { answerMemory: ehr.answerMemory }),
  };
}

/** With tracing on, every EHR call is a span; with it off, nothing of OpenTelemetry is imported. */
async function traced(config: Config, ehr: EhrRecords & DelegationRegistry): Promise<EhrSource> {
  if (!config.tracing) return { records: ehr, registry: ehr };
  const { TracedEhr } = await import('../tracing/traced-ports.js');
  const tracedEhr = new TracedEhr(ehr, ehr);
  return { records: tracedEhr, registry: tracedEhr };
}

/** What a start outside demo mode without REDIS_URL says, once (hostile review helper-192, F5). */
export const NO_REDIS_WARNING = 'REDIS_URL is not set: rate limits and the turns of arrivals and payments hold within this instance only; set it before a second instance serves';

export async function selectRedis({ config, logger, metrics, life }: Selection): Promise<RateLimitRedis | undefined> {
  if (config.redisUrl === undefined) {
    // One instance is a deployment of its own; behind a load balancer a retried payment on another instance could be
    // sent while the first may still be made (docs/operations.md#scaling-out).
    if (!isDemo(config)) logger.warn(NO_REDIS_WARNING);
    return undefined;
  }
  const { createRateLimitRedis } = await import('../adapters/rate-limit-redis/create-rate-limit-redis.js');
  const redis = createRateLimitRedis({ url: config.redisUrl, onWarning: (m) => logger.warn(m), onInfo: (m) => logger.info(m) });
  life.onClose(() => redis.close());
  metrics.countUnenforcedFrom(() => redis.health.skippedChecks);
  return redis;
}

/**
 * The times of a write's turn, from EHR_TIMEOUT_MS (one write's longest): how long a write waits for its turn (a
 * little longer than the write ahead of it may take), how long a write whose outcome is unknown holds its key
 * from the failure, and how long a lock lives from when it is taken: the write's longest and the hold after it,
 * so that a Redis missing the moment of the failure (the hold not prolonged) still leaves the whole hold (hostile
 * review helper-136, F2: it left 10 s).
 */
export function writeTurnTimes(ehrTimeoutMs: number): { waitMs: number; inDoubtMs: number; lockTtlMs: number } {
  const inDoubtMs = ehrTimeoutMs + 10_000;
  return { waitMs: ehrTimeoutMs + 1000, inDoubtMs, lockTtlMs: ehrTimeoutMs + inDoubtMs };
}

export async function selectWriteCoordinator({ config, logger, metrics }: Selection, redis: RateLimitRedis | undefined): Promise<WriteCoordinator> {
  const { waitMs, inDoubtMs, lockTtlMs } = writeTurnTimes(config.ehrTimeoutMs);
  if (redis === undefined) return new InProcessCoordinator({ waitMs, inDoubtMs });
  const { RedisCoordinator } = await import('../adapters/write-coordination/redis-coordinator.js');
  let warnedAt = Number.NEGATIVE_INFINITY;
  return new RedisCoordinator(redis.client, {
    lockTtlMs, inDoubtMs, waitMs,
    onUnavailable: () => {
      metrics.writesRefusedUncoordinated.inc();
      // Counted each time, told once a minute: a line per refused write would flood the log while limits are off too.
      if (performance.now() - warnedAt < 60_000) return;
      warnedAt = performance.now();
      logger.warn('Redis unreachable: arrivals and payments are refused (503) until it answers, so that no instance makes one twice');
    },
  });
}
