import { mkdtemp, rm } from 'node:fs/promises';
import type { LargeAnswers } from '../../src/http/serialization/large-answers.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { InstrumentedAuditTrail } from '../../src/adapters/metrics/instrumented-audit-trail.js';
import { InstrumentedEhr } from '../../src/adapters/metrics/instrumented-ehr.js';
import type { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { copyDemoData } from './demo-data-sets.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { countingRedisStore, DEFAULT_RATE_LIMIT_NAMESPACE } from '../../src/adapters/rate-limit-redis/counting-store.js';
import { StaticSubscriptionKeys } from '../../src/adapters/subscription-keys/static-subscription-keys.js';
import type { OAuthDocumentation } from '../../src/http/openapi/security.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import { buildApp } from '../../src/http/app.js';
import type { AuditTrail } from '../../src/ports/audit-trail.port.js';
import { createLogger } from '../../src/http/logging.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { TestIssuer } from './test-issuer.js';
import { startFhirBackend } from './fhir-test-app.js';
import { KeyedFhirIds } from '../../src/adapters/fhir-ids/keyed-fhir-ids.js';
import type { FhirApi } from '../../src/http/fhir/fhir-api.js';
import { fhirForms } from '../../src/start/fhir-api.js';
import type { FhirEhr } from '../../src/adapters/ehr-fhir/adapter/fhir-ehr.js';
import type { LackedSearch } from '../../src/dev/fhir-sim/capability-statement.js';
import type { ReadName } from '../../src/domain/operations/table.js';
import { withReadsOff } from '../../src/domain/read-availability/reads-off.js';
import { answeringCopies } from './copying-ehr.js';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { DEMO_FHIR_SETTINGS, demoFhirResources } from '../../src/dev/demo-data/fhir/bundle.js';
import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';
import type { AccessLogReader } from '../../src/ports/access-log.port.js';
import type { AnswerMemory } from '../../src/ports/answer-memory.port.js';
import type { ProxySettings } from '../../src/domain/proxies/grant.js';
import { sharingOver, type TestSharing } from './proxy-wiring.js';
import { accessLogOver, clientOf, KEY, TEST_HTTP_CONFIG, useCasesOver, verifierFor, ZONE } from './app-wiring.js';
import { subscriptionsOver, type TestSubscriptions } from './subscription-wiring.js';

export { ALL_SCOPES, KEY, ZONE } from './app-wiring.js';
export const OTHER_KEY = 'other-subscription-key-0123456789';

/**
 * Which EHR a test app reads: the embedded XML EHR, or `fhir-r4` (FhirEhr over the shared transport)
 * talking to the development FHIR server in this process, both holding the demo people of the app's
 * clock, generated from one description of each person (src/dev/demo-data).
 */
export type EhrVariant = 'embedded' | 'fhir-r4';
export const EHR_VARIANTS: readonly EhrVariant[] = ['embedded', 'fhir-r4'];
/** What every EHR back-end offers a suite: the reads, the writes and the delegation registry. */
export type AnyEhr = EhrRecords & DelegationRegistry;

export interface TestApp<E extends AnyEhr = EmbeddedEhr> {
  app: FastifyInstance;
  issuer: TestIssuer;
  audit: MemoryAuditTrail;
  clock: FixedClock;
  /** The EHR as built, before the metrics wrapper: a test may spy on it. */
  ehr: E;
  logLines: string[];
  /** The proxy grants use case (PROXY_GRANTS=on with `proxies`), over a store in memory; absent otherwise. */
  proxyGrants?: TestSharing['proxyGrants'] | undefined;
  /** The FHIR API's pieces (absent with fhirApiOff): a test that listens sets `publicBaseUrl` to its address, as the service does. */
  fhir: FhirApi | undefined;
  /** Sharing, when the app was built with `proxies`. */
  sharing?: TestSharing;
  /** Subscriptions (SUBSCRIPTIONS=on), when the app was built with `subscriptions`. */
  subscriptions?: TestSubscriptions;
  /** A person token (patient claim) with every scope unless overridden. */
  personToken(personId: string, claims?: Record<string, unknown>): Promise<string>;
  /** A client-credentials token (no patient claim) of the listed client TEST_CLIENT_ID. */
  clientToken(claims?: Record<string, unknown>): Promise<string>;
  call(options: InjectOptions & { token?: string; key?: string | null; patient?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** PROXY_GRANTS=on with these settings: grants in memory, in the delegation check (`sharing` then holds the store). */
  proxies?: ProxySettings;
  /** SUBSCRIPTIONS=on: the use case over a store in memory, with fake endpoint and header rules (subscription-wiring.ts). */
  subscriptions?: boolean;
  rateLimitMax?: number;
  rateLimitWindowMs?: number;
  /** RATE_LIMIT_NO_KEY_MAX; without it requests without a valid key get the per-key allowance. */
  rateLimitNoKeyMax?: number;
  /** RATE_LIMIT_APP_MAX; 20 times rateLimitMax by default, as in the service. */
  rateLimitAppMax?: number;
  /** The audit store the app writes to instead of the in-memory fake (`audit` then stays empty). */
  auditTrail?: AuditTrail;
  /** Where the access log is read from; the in-memory fake by default. */
  accessLog?: AccessLogReader;
  /** CLIENT_NAMES and the cursor secret of the access log (ACCESS_LOG_CURSOR_SECRET); a random secret by default. */
  clientNames?: ReadonlyMap<string, string>;
  cursorSecret?: Buffer;
  basePath?: string;
  now?: number;
  requestTimeoutMs?: number;
  /** The answer memory budget the routes run reads in (ports/answer-memory.port.ts); unbounded by default. */
  answerMemory?: AnswerMemory;
  /** The room for large answers going out at once (SEND_MAX_LARGE_ANSWERS); the service's default when absent. */
  largeAnswers?: LargeAnswers;
  /** Rate-limit counters in this Redis, so two apps on one client (or on one server) share a limit. */
  redisClient?: Redis;
  /** The fail-open callback of the Redis store; ignored without `redisClient`. */
  onRedisStoreError?: (err: unknown) => void;
  /** Counter key prefix, unique per test so suites sharing one Redis never see each other's counts. */
  rateLimitNameSpace?: string;
  /** CORS origins and load-shedding thresholds, as the CORS_ORIGINS / PRESSURE_* settings give them. */
  protection?: { corsOrigins?: string[]; pressureMaxEventLoopDelayMs?: number; pressureMaxHeapUsedMb?: number };
  /** helmet run for each request, the unoptimised path of the security headers (test/http/security-headers.test.ts). */
  securityHeadersEachRequest?: true;
  /** Metrics registry; the EHR and the audit trail are then instrumented as in production. */
  metrics?: PrometheusMetrics;
  /** RELEASE_POLICY_FILE's policy; none (nothing withheld) by default. */
  releasePolicy?: ReleasePolicy;
  /** FHIR_API=off: no /fhir routes. On by default, as in the service. */
  fhirApiOff?: boolean;
  /** READS_OFF: these reads are turned off, on both doors (src/domain/read-availability/reads-off.ts). */
  readsOff?: readonly ReadName[];
  /** With the fhir-r4 back-end: search parameters its server lacks (src/dev/fhir-sim). */
  fhirServerLacks?: readonly LackedSearch[];
  /** Every read answers fresh copies of its records, as an adapter that maps anew per request (copying-ehr.ts): nothing kept is found again. */
  ehrAnswersCopies?: boolean;
  /** Changes the embedded EHR's generated demo folder before the app reads it. */
  editEhr?: (ehrDir: string) => Promise<void>;
  /** The issuer the OpenAPI document names (AUTH_ISSUER, or the demo issuer); the demo issuer's default address by default. */
  oauth?: OAuthDocumentation;
}

interface Backend<E extends AnyEhr> {
  ehr: E;
  close(): Promise<void>;
}

/**
 * The embedded EHR reading the demo people of the clock's moment, generated into a temporary folder that `close` removes;
 * `edit` changes the generated folder first (a person the EHR holds in one layout only).
 */
export async function embeddedBackend(clock: FixedClock, zone = ZONE, edit?: (ehrDir: string) => Promise<void>): Promise<Backend<EmbeddedEhr>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-test-'));
  await copyDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone });
  await edit?.(path.join(dir, 'ehr'));
  const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state.json')), zone, () => undefined);
  return { ehr, close: () => rm(dir, { recursive: true, force: true }) };
}

async function fhirBackend(clock: FixedClock, lacking: readonly LackedSearch[] = []): Promise<Backend<FhirEhr>> {
  const backend = await startFhirBackend(clock, { resources: demoFhirResources(demoClock(clock.now(), ZONE)), lacking });
  return { ehr: backend.ehr, close: () => backend.close() };
}

/** The real HTTP app over the embedded EHR with generated demo data, a loopback test issuer and fakes for audit and clock. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = new FixedClock(options.now ?? Date.now());
  return startAppOver(await embeddedBackend(clock, ZONE, options.editEhr), clock, options);
}

/** The same app over the EHR `variant` names (the suites that run over both back-ends loop over EHR_VARIANTS). */
export async function startTestAppOn(variant: EhrVariant, options: TestAppOptions = {}): Promise<TestApp<AnyEhr>> {
  const clock = new FixedClock(options.now ?? Date.now());
  const backend: Backend<AnyEhr> = variant === 'fhir-r4' ? await fhirBackend(clock, options.fhirServerLacks) : await embeddedBackend(clock);
  return startAppOver(backend, clock, options);
}

async function startAppOver<E extends AnyEhr>(backend: Backend<E>, clock: FixedClock, options: TestAppOptions): Promise<TestApp<E>> {
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const issuer = await TestIssuer.start();
  const audit = new MemoryAuditTrail();
  // READS_OFF as src/start/adapter-selection.ts wires it: below the metrics, the registry the EHR's own.
  const readsOff: ReadonlySet<ReadName> = new Set(options.readsOff ?? []);
  const source = options.ehrAnswersCopies === true ? answeringCopies(backend.ehr) : backend.ehr;
  const readable = withReadsOff(source, readsOff);
  const ehr = options.metrics ? new InstrumentedEhr(readable, source, options.metrics)
    : readsOff.size === 0 ? source : Object.assign(readable, { relationshipsOf: (actor: string) => source.relationshipsOf(actor) });
  const auditTrail = options.auditTrail ?? (options.metrics ? new InstrumentedAuditTrail(audit, options.metrics) : audit);
  const tokenVerifier = verifierFor(issuer, clock);
  const fhir = options.fhirApiOff === true ? undefined : { ...testFhirApi(), readsOff };
  const sharing = options.proxies === undefined ? undefined : sharingOver(ehr, clock, options.proxies, fhir?.ids);
  const useCases = useCasesOver(ehr, clock, undefined, fhir?.ids);
  const accessPolicy = sharing?.accessPolicy ?? useCases.accessPolicy;
  const readPatientData = options.releasePolicy ? new ReadPatientData(ZONE, { policy: options.releasePolicy, clock }) : useCases.readPatientData;
  const subscriptions = options.subscriptions !== true || fhir === undefined ? undefined : subscriptionsOver({
    accessPolicy, readPatientData, api: fhir, audit: auditTrail, clock, sharing: sharing !== undefined, ...(options.releasePolicy ? { releasePolicy: options.releasePolicy } : {}),
  });
  const app = await buildApp({
    config: {
      ...TEST_HTTP_CONFIG,
      ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
      ...(options.rateLimitMax === undefined ? {} : { rateLimitMax: options.rateLimitMax }),
      ...(options.rateLimitWindowMs === undefined ? {} : { rateLimitWindowMs: options.rateLimitWindowMs }),
      ...(options.rateLimitNoKeyMax === undefined ? {} : { rateLimitNoKeyMax: options.rateLimitNoKeyMax }),
      ...(options.rateLimitAppMax === undefined ? {} : { rateLimitAppMax: options.rateLimitAppMax }),
      ...options.protection,
    },
    clock, logger, ehr, auditTrail, tokenVerifier, ...useCases, accessPolicy, readPatientData,
    ...(sharing === undefined ? {} : { proxyGrants: sharing.proxyGrants }),
    ...(subscriptions === undefined ? {} : { subscriptions: subscriptions.door }),
    readAccessLog: accessLogOver(options.accessLog ?? audit, clock, {
      ...(options.clientNames ? { clientNames: options.clientNames } : {}),
      ...(options.cursorSecret ? { secret: options.cursorSecret } : {}),
      ...(options.releasePolicy ? { policy: options.releasePolicy } : {}),
    }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(fhir === undefined ? {} : { fhir }),
    subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY], ['other', OTHER_KEY]])),
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.answerMemory ? { answerMemory: options.answerMemory } : {}),
    ...(options.largeAnswers ? { largeAnswers: options.largeAnswers } : {}),
    ...(options.securityHeadersEachRequest ? { securityHeadersEachRequest: true } : {}),
    ...(options.redisClient ? {
      rateLimitStore: countingRedisStore(options.redisClient, options.rateLimitNameSpace ?? DEFAULT_RATE_LIMIT_NAMESPACE, options.onRedisStoreError ?? (() => undefined)),
    } : {}),
  });
  await app.ready();
  return {
    app, issuer, audit, clock, ehr: backend.ehr, logLines, fhir, ...(sharing === undefined ? {} : { sharing, proxyGrants: sharing.proxyGrants }),
    ...(subscriptions === undefined ? {} : { subscriptions }),
    ...clientOf(app, issuer),
    close: async () => {
      await app.close();
      tokenVerifier.close();
      await issuer.close();
      await backend.close();
    },
  };
}

/** The key the test apps' FHIR ids are made with: a test may make the id of any demo person. */
export const TEST_FHIR_IDS = new KeyedFhirIds(Buffer.from('test apps\' FHIR id secret, 32 bytes+'));
export const TEST_PUBLIC_BASE_URL = 'https://api.test.example';

export function testFhirApi(): FhirApi {
  return {
    forms: fhirForms(), ids: TEST_FHIR_IDS, publicBaseUrl: TEST_PUBLIC_BASE_URL,
    smart: { authorizationEndpoint: 'https://issuer.test.example/auth', tokenEndpoint: 'https://issuer.test.example/token' },
    idRoot: DEMO_FHIR_SETTINGS.idRoot, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem,
  };
}

/** A test app over either EHR back-end (startTestAppOn). */
export type AnyTestApp = TestApp<AnyEhr>;
