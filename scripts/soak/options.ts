/** Settings of a soak run, from SOAK_* environment variables (all optional). */

export interface SoakOptions {
  /** How long the load runs (SOAK_DURATION_S, default 300). */
  durationS: number;
  /** Requests started per second, open loop (SOAK_RATE, default 150). */
  rate: number;
  /** Memory before this is warm-up, not trend (SOAK_WARMUP_S; default a fifth of the duration, at most 60 s). */
  warmupS: number;
  /** How often the service's RSS and heap are sampled (SOAK_SAMPLE_MS; default 2000, 500 for runs under a minute). */
  sampleMs: number;
  /** Seed of the request mix, so a run can be repeated (SOAK_SEED, default random). */
  seed: number;
  /** `xml-http` (the EHR simulator as its own process; default) or `embedded` (SOAK_EHR). */
  ehr: 'xml-http' | 'embedded';
  /** Requests in flight beyond this are not sent and fail the run: the service could not keep up (SOAK_MAX_IN_FLIGHT, default 256). */
  maxInFlight: number;
  /** A request with no complete answer by then counts as unanswered (SOAK_REQUEST_TIMEOUT_MS, default 10000). */
  requestTimeoutMs: number;
  /** Over the second half of the run, RSS may grow at most this fast (SOAK_MAX_RSS_SLOPE_MB_PER_MIN, default 4). */
  maxRssSlopeMbPerMin: number;
  /** Same for the floor (per-slice minimum) of the V8 heap in use (SOAK_MAX_HEAP_SLOPE_MB_PER_MIN, default 4). */
  maxHeapSlopeMbPerMin: number;
  /** Final RSS at most this times the RSS at the end of the warm-up (SOAK_MAX_RSS_RATIO, default 1.5). */
  maxRssRatio: number;
  /** Administrative PostgreSQL URL; a database of the run's own is created next to it (DATABASE_URL, default the local `test`). */
  adminDatabaseUrl: string;
  /** REDIS_URL (default redis://127.0.0.1:6379). */
  redisUrl: string;
  /** The service's LOG_LEVEL (SOAK_LOG_LEVEL, default info: every request line is scanned). */
  logLevel: string;
  /** Further settings of the service (docs/contract.md#settings names); none from the environment. */
  serviceEnv: Record<string, string>;
}

export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

type Env = Readonly<Record<string, string | undefined>>;

function number(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new RangeError(`${name} must be a number from ${min} to ${max}`);
  return value;
}

const text = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
};

/** Every setting, bounded so a typo cannot start an endless or unbounded run. */
export function soakOptions(env: Env = process.env, overrides: Partial<SoakOptions> = {}): SoakOptions {
  const durationS = overrides.durationS ?? number(env, 'SOAK_DURATION_S', 300, 5, 3600);
  const ehr = overrides.ehr ?? (text(env, 'SOAK_EHR') ?? 'xml-http');
  if (ehr !== 'xml-http' && ehr !== 'embedded') throw new RangeError('SOAK_EHR must be xml-http or embedded');
  return {
    durationS,
    rate: number(env, 'SOAK_RATE', 150, 1, 2000),
    warmupS: number(env, 'SOAK_WARMUP_S', Math.min(60, Math.round(durationS / 5)), 1, durationS - 1),
    sampleMs: number(env, 'SOAK_SAMPLE_MS', durationS < 60 ? 500 : 2000, 100, 60_000),
    seed: number(env, 'SOAK_SEED', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31),
    ehr,
    maxInFlight: number(env, 'SOAK_MAX_IN_FLIGHT', 256, 1, 10_000),
    requestTimeoutMs: number(env, 'SOAK_REQUEST_TIMEOUT_MS', 10_000, 100, 120_000),
    maxRssSlopeMbPerMin: number(env, 'SOAK_MAX_RSS_SLOPE_MB_PER_MIN', 4, 0, 10_000),
    maxHeapSlopeMbPerMin: number(env, 'SOAK_MAX_HEAP_SLOPE_MB_PER_MIN', 4, 0, 10_000),
    maxRssRatio: number(env, 'SOAK_MAX_RSS_RATIO', 1.5, 1, 100),
    adminDatabaseUrl: text(env, 'DATABASE_URL') ?? DEFAULT_ADMIN_DATABASE_URL,
    redisUrl: text(env, 'REDIS_URL') ?? 'redis://127.0.0.1:6379',
    logLevel: text(env, 'SOAK_LOG_LEVEL') ?? 'info',
    serviceEnv: {},
    ...overrides,
  };
}
