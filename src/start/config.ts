import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_LARGE_ANSWERS } from '../http/serialization/large-answers.js';
import { DEFAULT_APP_USERS } from '../http/plugins/rate-limit.js';
import { DEFAULT_CACHE_BYTES } from '../adapters/mapped-documents/mapped-documents.js';
import path from 'node:path';
import { assertTimeZone } from '../domain/time/local-time.js';
import { isTracingEnabled } from '../tracing/tracing-settings.js';
import { readTransportSettings, type TransportSettings } from './transport-settings.js';
import { readAccessLogSettings, type AccessLogSettings } from './access-log-settings.js';
import { readAuditChainKeys, type AuditChainSettings } from './audit-chain-settings.js';
import { readFhirApiSettings, type FhirApiSettings } from './fhir-api-settings.js';
import { readReadsOffSettings, type ReadsOffSettings } from './reads-off-settings.js';
import { readReleasePolicySettings, type ReleasePolicySettings } from './release-policy-settings.js';
import { readProxySettings, type ProxyGrantSettings } from './proxy-settings.js';
import { readSubscriptionSettings, type SubscriptionConfig } from './subscription-settings.js';
import { demoMode } from './demo-mode.js';
import { readSignInSettings, type SignInSettings } from './sign-in-settings.js';
import { readEhrAdapter, readFhirSettings, readRegistrySettings, type EhrAdapterKind, type FhirSettings, type RegistrySettings } from './fhir-settings.js';

/**
 * Every setting of docs/contract.md#settings, read once from the environment and frozen. The transport
 * settings (TLS towards callers and the EHR, where plain HTTP may listen): src/start/transport-settings.ts.
 */
export interface Config extends TransportSettings, AccessLogSettings, AuditChainSettings, ReleasePolicySettings, RegistrySettings, FhirApiSettings, ReadsOffSettings,
  Partial<ProxyGrantSettings>, Partial<SubscriptionConfig> {
  port: number;
  host: string;
  basePath: string;
  ehrAdapter: EhrAdapterKind;
  /** The `fhir-r4` adapter's settings (src/start/fhir-settings.ts); undefined unless a FHIR server is used. */
  fhir: FhirSettings | undefined;
  /** Undefined: the embedded EHR serves generated demo data. */
  ehrDataDir: string | undefined;
  ehrBaseUrl: string | undefined;
  ehrTimeoutMs: number;
  ehrTimezone: string;
  /** EHR_CACHE_BYTES: the budget of mapped documents kept between reads, shared by the XML adapters (src/adapters/mapped-documents/); 0 keeps none. */
  ehrCacheBytes: number;
  /** Undefined: the demo authorization server is started and trusted, where nothing names a real deployment (src/start/demo-mode.ts). */
  authIssuer: string | undefined;
  /** SIGN_IN_LOGIN_ISSUER and its settings: the service's own authorization server, AUTH_ISSUER its issuer (src/start/sign-in-settings.ts). */
  signIn?: SignInSettings;
  authJwksUrl: string | undefined;
  authAudience: string;
  authPatientClaim: string;
  /** AUTH_CLIENT_IDS. Undefined: the demo clients while the demo issuer runs, else none (src/start/adapter-selection.ts). */
  authClientIds: string[] | undefined;
  /** [name, key] pairs; a name may hold several keys (rotation). Undefined: demo mode, a demo key is generated and kept in DATA_DIR. */
  subscriptionKeys: ReadonlyArray<readonly [string, string]> | undefined;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Requests without a valid subscription key, per source address per window. */
  rateLimitNoKeyMax: number;
  /** On /fhir without a key: requests of all users of one app (client_id) per window; each user has `rateLimitMax`. */
  rateLimitAppMax: number;
  redisUrl: string | undefined;
  databaseUrl: string | undefined;
  arrivalWindowBeforeMin: number;
  arrivalWindowAfterMin: number;
  dataDir: string;
  logLevel: string;
  /** LOG_FORMAT: `json` (production, the default) or `pretty` (a terminal; needs the dev dependency pino-pretty). */
  logFormat: LogFormat;
  /** Where `/metrics` is served, apart from the API port (loopback by default). */
  metricsPort: number;
  metricsHost: string;
  demoAuthPort: number;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; none by default. */
  trustProxy: string[];
  /** Browser origins allowed by CORS; none (CORS off) by default. */
  corsOrigins: string[];
  /** Load shedding: 503 while the event loop lags or the heap grows past these. */
  pressureMaxEventLoopDelayMs: number;
  pressureMaxHeapUsedMb: number;
  /** How long in-flight requests may take to finish after SIGTERM. */
  shutdownTimeoutMs: number;
  /** An answer must be taken at sendMinBytesPerS after sendGraceMs from its first byte, or its connection is cut (src/http/send-deadline.ts). */
  sendGraceMs: number;
  sendMinBytesPerS: number;
  /** How many answers over 4 MiB may be on their way out at once; past it 503 (src/http/serialization/large-answers.ts). */
  sendMaxLargeAnswers: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT set: traces are exported (src/tracing/). */
  tracing: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** `what`: what the setting is, for the refusal (e.g. `(milliseconds)`). */
function integer(env: Env, name: string, fallback: number, min: number, max: number, what = ''): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}${what && ` ${what}`}`);
  return n;
}

function list(env: Env, name: string): string[] {
  return (text(env, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * AUTH_ISSUER is compared with `iss` exactly, so it is kept as given (Auth0's ends in '/'); AUTH_JWKS_URL
 * is fetched as given, since a server may serve its keys only at the form with the '/'. Only checked to be a URL.
 */
function exactUrl(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined && !URL.canParse(raw)) throw new ConfigError(`${name} must be an absolute URL`);
  return raw;
}

function url(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute URL`);
  }
}

/** `name:key,name:key`; a key shorter than 16 characters is refused as guessable. */
export function parseSubscriptionKeys(raw: string, source: string): Array<[string, string]> {
  const keys: Array<[string, string]> = [];
  for (const pair of raw.split(/[,\n]/).map((p) => p.trim()).filter(Boolean)) {
    const i = pair.indexOf(':');
    const name = pair.slice(0, i).trim();
    const key = pair.slice(i + 1).trim();
    if (i <= 0 || key.length < 16) throw new ConfigError(`${source} entries must be name:key with a key of 16+ characters`);
    keys.push([name, key]);
  }
  if (keys.length === 0) throw new ConfigError(`${source} holds no keys`);
  refuseSharedKeys(keys, source);
  return keys;
}

/** One key under two names: which application called would be a guess, so the service does not start. */
function refuseSharedKeys(keys: ReadonlyArray<readonly [string, string]>, source: string): void {
  const nameOf = new Map<string, string>();
  for (const [name, key] of keys) {
    const first = nameOf.get(key);
    if (first !== undefined && first !== name) throw new ConfigError(`${source} lists one key under two names (${first}, ${name}); give each application its own key`);
    nameOf.set(key, name);
  }
}

/** Undefined only in demo mode (src/start/demo-mode.ts): a demo key is then made; with a real issuer it never is. */
function subscriptionKeys(env: Env): Array<[string, string]> | undefined {
  const inline = text(env, 'SUBSCRIPTION_KEYS');
  if (inline !== undefined) return parseSubscriptionKeys(inline, 'SUBSCRIPTION_KEYS');
  const file = text(env, 'SUBSCRIPTION_KEYS_FILE');
  if (file !== undefined) return parseSubscriptionKeys(readFileSync(file, 'utf8'), 'SUBSCRIPTION_KEYS_FILE');
  if (text(env, 'SIGN_IN_LOGIN_ISSUER') !== undefined) {
    throw new ConfigError('SIGN_IN_LOGIN_ISSUER is set, so SUBSCRIPTION_KEYS or SUBSCRIPTION_KEYS_FILE is required: give each application its name:key pair (a demo key is made only in demo mode)');
  }
  if (text(env, 'AUTH_ISSUER') !== undefined) {
    throw new ConfigError('AUTH_ISSUER is set, so SUBSCRIPTION_KEYS or SUBSCRIPTION_KEYS_FILE is required: give each application its name:key pair (a demo key is made only without AUTH_ISSUER)');
  }
  return undefined;
}

function basePath(env: Env): string {
  const raw = text(env, 'BASE_PATH') ?? '';
  if (raw === '' || raw === '/') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*[^/]$/.test(raw)) throw new ConfigError('BASE_PATH must look like /patient-api');
  return raw;
}

/**
 * RATE_LIMIT_APP_MAX is the ceiling above each user's RATE_LIMIT_MAX in an app, a subscription key
 * or a keyless client_id (issue 44 item 4, issue 52 item 6): 20 users' worth by default, and never
 * below one user's, which would make it the budget.
 */
function rateLimits(env: Env): Pick<Config, 'rateLimitMax' | 'rateLimitWindowMs' | 'rateLimitNoKeyMax' | 'rateLimitAppMax'> {
  const rateLimitMax = integer(env, 'RATE_LIMIT_MAX', 100, 1, 10_000_000);
  const rateLimitAppMax = integer(env, 'RATE_LIMIT_APP_MAX', DEFAULT_APP_USERS * rateLimitMax, 1, 200_000_000);
  if (rateLimitAppMax < rateLimitMax) {
    throw new ConfigError(`RATE_LIMIT_APP_MAX (${rateLimitAppMax}) must be at least RATE_LIMIT_MAX (${rateLimitMax}): it is the ceiling of all of an app's users together, each of whom has RATE_LIMIT_MAX`);
  }
  return {
    rateLimitMax, rateLimitAppMax,
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 5000, 1, 86_400_000),
    rateLimitNoKeyMax: integer(env, 'RATE_LIMIT_NO_KEY_MAX', 20, 1, 10_000_000),
  };
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const fail = (message: string) => new ConfigError(message);
  const ehrAdapter = readEhrAdapter(env, fail);
  const ehrBaseUrl = url(env, 'EHR_BASE_URL');
  if (ehrAdapter !== 'embedded' && ehrBaseUrl === undefined) throw new ConfigError(`EHR_ADAPTER=${ehrAdapter} needs EHR_BASE_URL`);
  const registry = readRegistrySettings(env, ehrAdapter, fail);
  const ehrTimezone = text(env, 'EHR_TIMEZONE') ?? 'Europe/Stockholm';
  try {
    assertTimeZone(ehrTimezone);
  } catch {
    throw new ConfigError('EHR_TIMEZONE must be an IANA time zone such as Europe/Stockholm');
  }
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = text(env, 'LOG_FORMAT') ?? 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')} (json for production, pretty for a terminal)`);
  }
  const dataDirRaw = text(env, 'DATA_DIR') ?? './.data';
  const ehrDataDir = text(env, 'EHR_DATA_DIR');
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const config: Omit<Config, keyof ReleasePolicySettings | keyof ProxyGrantSettings> = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    basePath: basePath(env),
    ehrAdapter,
    fhir: readFhirSettings(env, ehrAdapter === 'fhir-r4' || registry.delegationRegistry === 'fhir-r4', fail),
    ...registry,
    ehrDataDir: ehrDataDir === undefined ? undefined : path.resolve(ehrDataDir),
    ehrBaseUrl,
    ehrTimeoutMs: integer(env, 'EHR_TIMEOUT_MS', 5000, 1, 600_000),
    ehrTimezone,
    ehrCacheBytes: integer(env, 'EHR_CACHE_BYTES', DEFAULT_CACHE_BYTES, 0, 17_179_869_184, '(bytes of mapped documents kept between reads, each instance; 0 keeps none)'),
    authIssuer: exactUrl(env, 'AUTH_ISSUER'),
    authJwksUrl: exactUrl(env, 'AUTH_JWKS_URL'),
    authAudience: text(env, 'AUTH_AUDIENCE') ?? 'patient-data-access',
    authPatientClaim: text(env, 'AUTH_PATIENT_CLAIM') ?? 'patient',
    authClientIds: text(env, 'AUTH_CLIENT_IDS') === undefined ? undefined : list(env, 'AUTH_CLIENT_IDS'),
    subscriptionKeys: subscriptionKeys(env),
    ...rateLimits(env),
    redisUrl: url(env, 'REDIS_URL'),
    databaseUrl: text(env, 'DATABASE_URL'),
    auditChainKeys: readAuditChainKeys(env, fail),
    auditHeadIntervalMs: integer(env, 'AUDIT_HEAD_INTERVAL_MS', 300_000, 1000, 86_400_000, '(milliseconds between two signed heads of the audit chain in the log)'),
    arrivalWindowBeforeMin: integer(env, 'ARRIVAL_WINDOW_BEFORE_MIN', 120, 0, 10_080),
    arrivalWindowAfterMin: integer(env, 'ARRIVAL_WINDOW_AFTER_MIN', 30, 0, 10_080),
    dataDir: path.resolve(dataDirRaw),
    logLevel,
    logFormat: logFormat as LogFormat,
    metricsPort: integer(env, 'METRICS_PORT', 9464, 0, 65535),
    metricsHost: text(env, 'METRICS_HOST') ?? '127.0.0.1',
    demoAuthPort: integer(env, 'DEMO_AUTH_PORT', 8081, 0, 65535),
    trustProxy: list(env, 'TRUST_PROXY'),
    corsOrigins: list(env, 'CORS_ORIGINS'),
    pressureMaxEventLoopDelayMs: integer(env, 'PRESSURE_MAX_EVENT_LOOP_DELAY_MS', 1000, 10, 60_000),
    pressureMaxHeapUsedMb: integer(env, 'PRESSURE_MAX_HEAP_USED_MB', 2048, 64, 65_536),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    sendGraceMs: integer(env, 'SEND_GRACE_MS', 10_000, 0, 600_000, '(milliseconds a caller has, from an answer\'s first byte, before SEND_MIN_BYTES_PER_S applies)'),
    sendMinBytesPerS: integer(env, 'SEND_MIN_BYTES_PER_S', 16_384, 1, 1_073_741_824, '(bytes a second at which a caller must take an answer; it cannot be turned off)'),
    sendMaxLargeAnswers: integer(env, 'SEND_MAX_LARGE_ANSWERS', DEFAULT_MAX_LARGE_ANSWERS, 1, 100_000, '(answers over 4 MiB on their way out at once, each instance)'),
    ...readTransportSettings(env, host, ehrBaseUrl, fail),
    ...readAccessLogSettings(env, fail),
    ...readFhirApiSettings(env, fail),
    ...readReadsOffSettings(env, fail),
    tracing: isTracingEnabled(env),
  };
  const signIn = readSignInSettings(env, config, fail);
  const withSignIn = signIn === undefined ? config : { ...config, signIn, authIssuer: signIn.issuer };
  // Refuses a real setting without AUTH_ISSUER here, before anything is opened or made.
  const demo = demoMode(withSignIn, fail);
  // Last: whether RELEASE_POLICY_FILE may be left out depends on demo mode, as do the notifications' defaults.
  return Object.freeze({
    ...withSignIn, ...readReleasePolicySettings(env, ehrAdapter, demo, fail), ...readProxySettings(env, demo, fail),
    ...readSubscriptionSettings(env, demo, signIn?.clients ?? [], fail),
  });
}
