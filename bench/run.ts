/**
 * `npm run bench`: the service against a bare Fastify reference, side by side, in one run.
 *
 *   1. reference: a bare Fastify route answering a small JSON from memory
 *   2. the full service, as `npm start` runs it (compiled `dist/server.js`: subscription key, JWT, scope, rate limit, audit file,
 *      XML mapping, serialisation) on the embedded EHR, for a ~20 KB medications read and a ~1 MB
 *      journal-notes read of a generated bench patient; plus 200 connections (peak RSS), the 1 MB
 *      read one at a time (how long one holds the event loop), the 1 MB read at 50 and 200
 *      connections (peak RSS, issue 20 item 6), a ~9 MiB journal one at a time (the event loop's
 *      longest stretch with the largest answer the cap allows), another patient's 20 KB reads at 50 req/s
 *      (open loop) alone and beside those ~9 MiB reads (what the large answer makes others wait), and
 *      an open-loop run (Poisson arrivals at half the measured capacity); issue 56 item 4: the demo patient Tolvan's
 *      small appointments read (2k) and ~20 KB journal (2l) against the reference's CPU and req/s
 *   3. the same service with EHR_ADAPTER=xml-http against the EHR simulator, whose documents carry an ETag and
 *      Last-Modified (conditional GETs, 304s answered from the kept records); issue 56: a 100-note journal at 50
 *      connections beside the embedded EHR's (2j, 3i), and the 20 KB read and the 100-note journal against a
 *      simulator that sends no validators (3j, 3k: every read fetched and mapped, as before issue 56), each
 *      run's conditional GETs counted from the service's /metrics
 *   4. micro-benchmarks: the mapper against JSON.parse, and token verification
 *   5. the cost of tracing (issue 15): the 20 KB read on both EHR adapters with OpenTelemetry off and
 *      on (OTEL_EXPORTER_OTLP_ENDPOINT set, spans exported to a loopback sink), in alternating rounds
 *      (bench/tracing.ts; `--only tracing`)
 *   6. the patient's access log (issue 14): a page of 100 entries from PostgreSQL with 1,000,000 audit rows,
 *      seeded into a scratch database that is dropped afterwards (bench/access-log.ts; `--only access-log`)
 *   7. hostile documents (issue 20 item 2): ~9 MiB journals in each shape that used to hold the event loop,
 *      MB/s and the longest block while read in slices (bench/hostile.ts; `--only hostile`)
 *   8. the service with EHR_ADAPTER=fhir-r4 against the development FHIR server in this process (issue 24):
 *      a ~20 KB-equivalent medications read beside 3a, and a long journal of many FHIR pages beside a
 *      one-page one, one connection each (bench/fhir.ts; `--only fhir`, scenarios 8b, 8c); and three
 *      connections reading diagnoses whose Condition search a proxy answers with pages of ~3.9 MiB,
 *      peak RSS and the event loop's longest stretch (issue 34 item 5, bench/fhir-large-pages.ts; 8d)
 *  10. the FHIR API (issue 36): one journal as the COS read and as a Composition search, same run
 *      (`--only fhir-api`, scenarios 10a, 10b); the 100-note journal the same way (issue 56 item 4; 10c, 10d).
 *  11. the service's own authorization server (issue 46) with a real OpenID Provider for the region's login:
 *      a whole sign-in's service CPU and wall time, and refresh-token requests per second on one instance,
 *      state in a scratch PostgreSQL schema (bench/sign-in.ts; `--only sign-in`, scenarios 11a, 11b)
 *  12. a read as a proxy (issue 53): the bench patient's 20 KB lab results read by the patient and by a proxy
 *      with an active grant (PROXY_GRANTS=on, the grant file in DATA_DIR), alternating rounds; target ≤ 10 % more
 *      server CPU per request (bench/proxy-read.ts; `--only proxy`, scenarios 12a, 12b)
 *   9. slow readers (issue 34 item 4, issue 44 item 12): 60 connections ask for the ~9 MiB journal over
 *      xml-http and never read it, at once (9a) and one after another (9b; 9c without SEND_MAX_LARGE_ANSWERS);
 *      peak RSS beside one such read alone, and when the service cut each connection
 *      (bench/slow-reader.ts; `--only slow-reader`, scenarios 9a, 9b, 9c;
 *      minutes long, so not part of a run without `--only`)
 *
 * Every server runs in its own process pinned to core 0; this process (autocannon, the open-loop
 * generator, the JWKS issuer) and the EHR simulator are pinned to core 1 (when taskset exists).
 * Server CPU per request comes from the server's own process.cpuUsage() (all threads) over the IPC
 * channel of bench/probe.ts, event-loop blocking from its monitorEventLoopDelay, peak RSS from
 * /proc/<pid>/status VmHWM (reset before each measured run). Everything is on loopback; every load
 * is bounded in time and count.
 *
 *   node --import tsx bench/run.ts [--seconds N] [--skip-micro] [--only reference,embedded,xml-http,fhir,fhir-api,micro,tracing,hostile,sign-in,proxy]
 *                                  [--scenarios 2b,2c,2d,2e,2f,2g,2h,2i,2j,2k,2l,3b,3c,3d,3e,3f,3g,3h,3i,3j,3k,8a,8d,10a,10b,10c,10d] [--open-rate N]
 *
 * Experiments (printed in the header when set): BENCH_NODE_FLAGS (node flags for the service),
 * BENCH_STATE_DIR (where its audit file goes), BENCH_LOG_LEVEL (LOG_LEVEL, default info),
 * BENCH_MEMORY_PEAK (the service samples process.memoryUsage() every 10 ms and each closed-loop run
 * prints the heap, external memory and array buffers at the sampled RSS peak: what the peak is made of;
 * BENCH_MEMORY_PEAK=smaps adds resident memory by mapping: the node binary, glibc's heap, anonymous),
 * BENCH_SIM_VALIDATORS=off (part 3's and part 9's simulators send no validators: every xml-http read fetched and mapped, as before issue 56).
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import {
  ACCESS_LOG_CONNECTIONS, ACCESS_LOG_PATH, ACCESS_LOG_RATE, ACCESS_LOG_SCOPE, accessLogServiceEnv, checkAccessLog, seedAccessLogDatabase,
} from './access-log.js';
import { generateBenchFixtures, BENCH_PATIENT, DEMO_PATIENT, HUGE_JOURNAL_PATIENT, JOURNAL_NOTES, NOTES_PATIENT } from './fixtures.js';
import { between, conditionalTable, documentCounts, metricsAddress, type ConditionalRun } from './conditional-gets.js';
import { FHIR_BENCH_PATIENT, FHIR_PAGE_SIZE, FHIR_SHORT_PATIENT, fhirAnswer, startFhirBench } from './fhir.js';
import { LARGE_PAGES, startLargePageProxy } from './fhir-large-pages.js';
import { BenchIssuer } from './issuer.js';
import { hostileTable, type HostileResult } from './hostile.js';
import { blockingTable, mapperTable, type BlockingResult, type MapperResult } from './mapper.js';
import { jwtTable, type JwtResult } from './jwt.js';
import { openLoop, type OpenLoopResult } from './open-loop.js';
import { measureSignIn, signInTable, type SignInResult } from './sign-in.js';
import { measureSlowReaders, slowReaderTable, type SlowReaderResult } from './slow-reader.js';
import { OtlpSink } from './otlp-sink.js';
import {
  checkProxyReads, PROXY_GRANTEE, PROXY_MAX_EXTRA, PROXY_READ_PATH, PROXY_READ_SCOPE, PROXY_ROUNDS, proxyExtra, proxyReadTable, seedProxyGrant, type ProxyReadResult,
} from './proxy-read.js';
import { TRACING_ROUNDS, tracingTable, type TracingResult } from './tracing.js';
import {
  buildService, fmt, freePort, hasTaskset, peakRss, pinned, pinSelf, procCpuUs, resetPeakRss, SERVICE_ENTRY, serviceNodeFlags, sleep, table, waitFor, write,
} from './util.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SECONDS = opt('--seconds', 10);
const onlyAt = argv.indexOf('--only');
/** `--only reference,embedded,xml-http,micro`: a subset, for quick comparisons while working. */
const ONLY = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;
const wanted = (part: string): boolean => ONLY === undefined || ONLY.has(part);
/** Parts that run only when `--only` names them (minutes long, measuring one thing). */
const named = (part: string): boolean => ONLY?.has(part) === true;
const scenariosAt = argv.indexOf('--scenarios');
/** `--scenarios 2a,2c`: only these runs of the selected parts (the others are skipped). */
const SCENARIOS = scenariosAt >= 0 ? new Set((argv[scenariosAt + 1] ?? '').split(',')) : undefined;
const runs = (id: string): boolean => SCENARIOS === undefined || SCENARIOS.has(id);
/** `--open-rate N`: the open-loop runs at N req/s instead of half the closed-loop rate (comparisons at equal load). */
const OPEN_RATE = argv.includes('--open-rate') ? opt('--open-rate', Number.NaN) : undefined;
const halfOf = (rps: number): number => OPEN_RATE ?? Math.max(1, Math.round(rps / 2));
const WARMUP_SECONDS = 3;
const ROOT = path.resolve('.data/bench');
const SCOPE = 'user/JournalNote-read user/MedicationPrescription-read';
const SMALL_PATH = '/patients/medications/';
const LARGE_PATH = '/patients/journalnotes/';
/** Scenario 8d's read: the bench patient's diagnoses of all the demo's years. */
const LARGE_PAGE_PATH = '/patients/diagnoses/?fromDateTime=2000-01-01T00:00:00';

interface ServerStats {
  cpuUserUs: number;
  cpuSystemUs: number;
  wallMs: number;
  eventLoopMaxMs: number;
  eventLoopP99Ms: number;
  rssBytes: number;
  /** With BENCH_MEMORY_PEAK: process.memoryUsage() when the sampled RSS peaked. */
  peak?: Record<string, number | Record<string, number>>;
}

/** A server process under test, with the probe's IPC side channel. */
class Target {
  private constructor(readonly name: string, readonly child: ChildProcess, readonly origin: string) {}

  /** `at`: the port, where the service must know its address before it listens (PUBLIC_BASE_URL); a free one otherwise. */
  static async start(name: string, script: string, env: Record<string, string>, core: number, probe = true, at?: number): Promise<Target> {
    const port = at ?? await freePort();
    mkdirSync(path.join(ROOT, 'logs'), { recursive: true });
    const logFile = path.join(ROOT, 'logs', `${name}.log`);
    const log = openSync(logFile, 'w');
    const service = script === SERVICE_ENTRY;
    // BENCH_NODE_FLAGS: extra node flags for the service (experiments, e.g. --max-old-space-size=192).
    const extra = service ? [...serviceNodeFlags(), ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)] : ['--import', 'tsx'];
    const nodeArgs = [...extra, ...(probe ? ['--import', './bench/probe.mjs'] : []), script];
    const [command, args] = pinned(core, process.execPath, nodeArgs);
    const child = spawn(command, args, {
      // METRICS_PORT 0: the metrics listener takes any free port, never one another run holds.
      env: { ...baseEnv(), ...env, PORT: String(port), EHR_SIM_PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0' },
      stdio: ['ignore', log, log, 'ipc'],
    });
    const origin = `http://127.0.0.1:${port}`;
    const target = new Target(name, child, origin);
    const health = script.includes('reference') ? '/ref' : script.includes('ehr-sim') ? '/ehr/v1/relationships/000000000000' : '/health/live';
    await waitFor(`${name} to listen`, async () => {
      const res = await request(origin + health);
      await res.body.dump();
      return res.statusCode === 200;
    }, 30_000, { child, log: logFile });
    return target;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private ask<T>(type: string, reply: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no ${reply}`)), 5000);
      const onMessage = (m: { type?: string }): void => {
        if (m?.type !== reply) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve(m as T);
      };
      this.child.on('message', onMessage);
      this.child.send({ type });
    });
  }

  reset(): Promise<unknown> {
    resetPeakRss(this.pid);
    return this.ask('bench:reset', 'bench:reset:ok');
  }

  stats(): Promise<ServerStats> {
    return this.ask('bench:stats', 'bench:stats');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The service as `npm start` runs it, on core 0, kept in `targets` so that it is stopped at the end whatever happens. */
async function startService(targets: Target[], name: string, env: Record<string, string>): Promise<Target> {
  const target = await Target.start(name, SERVICE_ENTRY, env, 0);
  targets.push(target);
  return target;
}

/** The parent's environment without settings that would change what is measured. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  const drop = /^(PORT|HOST|EHR_|AUTH_|SUBSCRIPTION_KEYS|RATE_LIMIT_|RELEASE_POLICY_FILE|REDIS_URL|DATABASE_URL|DATA_DIR|BASE_PATH|TRUST_PROXY|CORS_|PRESSURE_|NODE_OPTIONS|OTEL_|TLS_|ALLOW_PLAIN_HTTP)/;
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !drop.test(k)) env[k] = v;
  return env;
}

interface ClosedLoopResult {
  scenario: string;
  path: string;
  connections: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  errors: number;
  non2xx: number;
  cpuUsPerRequest: number;
  cpuUtilisation: number;
  /** Share of the server's CPU time spent in the kernel (system time). */
  systemShare: number;
  procCpuUsPerRequest: number | undefined;
  eventLoopMaxMs: number;
  eventLoopP99Ms: number;
  peakRssMB: number | undefined;
}

async function closedLoop(
  target: Target, scenario: string, urlPath: string, headers: Record<string, string>, connections: number, seconds = SECONDS,
): Promise<ClosedLoopResult> {
  await autocannon({ url: target.origin + urlPath, connections, duration: WARMUP_SECONDS, headers, timeout: 30 });
  await target.reset();
  const procBefore = procCpuUs(target.pid);
  const r = await autocannon({ url: target.origin + urlPath, connections, duration: seconds, headers, timeout: 30 });
  const s = await target.stats();
  const procAfter = procCpuUs(target.pid);
  const total = r.requests.total;
  const cpuUs = s.cpuUserUs + s.cpuSystemUs;
  const rss = peakRss(target.pid);
  if (s.peak !== undefined) write(`  ${scenario}: at the sampled RSS peak ${JSON.stringify(Object.fromEntries(Object.entries(s.peak).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v / 2 ** 20) : v])))} MB`);
  return {
    scenario,
    path: urlPath,
    connections,
    seconds,
    rps: total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuUsPerRequest: cpuUs / total,
    cpuUtilisation: cpuUs / (s.wallMs * 1000),
    systemShare: s.cpuSystemUs / cpuUs,
    procCpuUsPerRequest: procBefore === undefined || procAfter === undefined ? undefined : (procAfter - procBefore) / total,
    eventLoopMaxMs: s.eventLoopMaxMs,
    eventLoopP99Ms: s.eventLoopP99Ms,
    peakRssMB: rss === undefined ? undefined : rss / 2 ** 20,
  };
}

type OpenLoopRun = OpenLoopResult & { scenario: string; eventLoopMaxMs: number; cpuUsPerRequest: number; cpuUtilisation: number; systemShare: number };

async function openLoopRun(target: Target, scenario: string, urlPath: string, headers: Record<string, string>, rate: number): Promise<OpenLoopRun> {
  const r = await openLoop(target.origin, urlPath, headers, rate, SECONDS, WARMUP_SECONDS, () => target.reset());
  const s = await target.stats();
  const cpuUs = s.cpuUserUs + s.cpuSystemUs;
  return {
    ...r, scenario, eventLoopMaxMs: s.eventLoopMaxMs, cpuUsPerRequest: cpuUs / r.completed,
    cpuUtilisation: cpuUs / (s.wallMs * 1000), systemShare: s.cpuSystemUs / cpuUs,
  };
}

/** Another patient's small reads arrive this often (req/s, Poisson): one every 20 ms on average (threat 43 of docs/threat-model.md#found-by-independent-review). */
const SIDE_READ_RATE = 50;

interface SideReads {
  scenario: string;
  alone: OpenLoopRun;
  beside: OpenLoopRun;
}

/**
 * Issue 20 item 6: another patient's 20 KB reads, open loop, first alone and then while one caller
 * reads the ~9 MiB journal over and over. The review measured these waits (94-196 ms); the event
 * loop's longest stretch alone does not show them, since one small read needs several turns and
 * may wait for a slice of the large answer at each. Latency is from each scheduled arrival.
 */
async function sideReads(
  target: Target, scenario: string, smallHeaders: Record<string, string>, hugeHeaders: Record<string, string>,
): Promise<SideReads> {
  const alone = await openLoopRun(target, `${scenario} alone`, SMALL_PATH, smallHeaders, SIDE_READ_RATE);
  // The large reads run from before the small reads' warm-up to after their measured part.
  const large = autocannon({ url: target.origin + LARGE_PATH, connections: 1, duration: WARMUP_SECONDS + SECONDS + 2, headers: hugeHeaders, timeout: 30 });
  const beside = await openLoopRun(target, `${scenario} beside 9 MiB reads`, SMALL_PATH, smallHeaders, SIDE_READ_RATE);
  const largeRun = await large;
  if (largeRun.non2xx + largeRun.errors > 0 || largeRun.requests.total === 0) {
    throw new Error(`${scenario}: the 9 MiB reads beside it were not all answered 2xx (${largeRun.requests.total} read, ${largeRun.non2xx} non-2xx, ${largeRun.errors} errors)`);
  }
  return { scenario, alone, beside };
}

/** One authenticated read, checked for status and content before anything is measured. */
async function sanityCheck(origin: string, urlPath: string, headers: Record<string, string>, extracts: number): Promise<void> {
  const res = await request(origin + urlPath, { headers });
  const body = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${urlPath}: status ${res.statusCode}: ${body.slice(0, 300)}`);
  const records = JSON.parse(body) as Record<string, unknown[]>[];
  const found = records.reduce((n, r) => n + (r.PrescriptionEHRExtract ?? r.JournalNoteEHRExtract ?? []).length, 0);
  if (found !== extracts) throw new Error(`${urlPath}: ${found} extracts, expected ${extracts}`);
}

async function micro<T>(script: string): Promise<T> {
  const [command, args] = pinned(0, process.execPath, ['--import', 'tsx', script, '--json']);
  const child = spawn(command, args, { env: baseEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${script} failed (${code})`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as T;
}

async function measureFhir(
  targets: Target[], serviceEnv: (name: string, extra?: Record<string, string>) => Record<string, string>, headers: Record<string, string>,
  issuer: BenchIssuer, closed: ClosedLoopResult[],
): Promise<void> {
  const fhir = await startFhirBench(Date.now());
  try {
    if (['8a', '8b', '8c'].some(runs)) await measureFhirPaging(fhir, targets, serviceEnv, headers, issuer, closed);
    if (runs('8d')) closed.push(await measureLargePages(fhir, targets, serviceEnv, headers, issuer));
  } finally {
    await fhir.sim.close();
  }
}

/** Issue 34 item 5: three readers of diagnoses whose Condition search is LARGE_PAGES pages of ~3.9 MiB, from a fresh process (its peak RSS is this run's). */
async function measureLargePages(
  fhir: FhirBench, targets: Target[], serviceEnv: ServiceEnv, headers: Record<string, string>, issuer: BenchIssuer,
): Promise<ClosedLoopResult> {
  const proxy = await startLargePageProxy(fhir.sim.baseUrl);
  try {
    const service = await startService(targets, 'service-fhir-r4-large-pages', serviceEnv('fhir-r4-large-pages', { ...fhir.env, EHR_BASE_URL: proxy.url }));
    const diagnoses = { ...headers, authorization: `Bearer ${await issuer.sign(FHIR_BENCH_PATIENT, 'user/Diagnosis-read')}` };
    const served = proxy.pagesServed();
    const one = await fhirAnswer(service.origin, LARGE_PAGE_PATH, diagnoses);
    if (proxy.pagesServed() - served !== LARGE_PAGES) throw new Error(`8d: ${proxy.pagesServed() - served} large pages for one read, not ${LARGE_PAGES}`);
    const result = await closedLoop(service, `8d. fhir-r4, ${LARGE_PAGES} Condition pages of ~3.9 MiB a read (${one.records} diagnoses answered)`, LARGE_PAGE_PATH, diagnoses, 3);
    await service.stop();
    return result;
  } finally {
    await proxy.close();
  }
}

type FhirBench = Awaited<ReturnType<typeof startFhirBench>>;

/** Issue 56 item 4: the two reads whose overhead the issue measured against bare Fastify, Tolvan's own (DEMO_PATIENT, the demo data set of today). */
const APPOINTMENTS_PATH = '/patients/appointments/';
/** The issue's targets: the small read at most this many times the reference's CPU per request, the journal at least this share of its req/s. */
const SMALL_READ_MAX_CPU = 3;
const JOURNAL_MIN_SHARE = 0.25;

/** Scenarios 2k (Tolvan's appointments, a small answer) and 2l (his ~20 KB journal), 50 connections each, on the embedded EHR. */
async function measureDemoReads(service: Target, key: string, issuer: BenchIssuer): Promise<ClosedLoopResult[]> {
  const token = await issuer.sign(DEMO_PATIENT, 'user/Appointment-read user/JournalNote-read');
  const headers = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}` };
  const results: ClosedLoopResult[] = [];
  for (const [id, what, urlPath, extract] of [
    ['2k', 'small appointments read', APPOINTMENTS_PATH, 'Booking'],
    ['2l', '~20 KB journal read', COS_JOURNAL, 'JournalNoteEHRExtract'],
  ] as const) {
    if (!runs(id)) continue;
    const res = await request(service.origin + urlPath, { headers });
    const body = await res.body.text();
    const records = res.statusCode === 200 ? (JSON.parse(body) as Record<string, unknown[]>[]).reduce((n, r) => n + (r[extract] ?? []).length, 0) : 0;
    if (records === 0) throw new Error(`${id}: ${urlPath} answered ${res.statusCode} with no ${extract}: ${body.slice(0, 300)}`);
    results.push(await closedLoop(service, `${id}. embedded, ${what} (${records} ${extract}, ${fmt(Buffer.byteLength(body) / 1024, 1)} KB)`, urlPath, headers, 50));
  }
  return results;
}

/** Tolvan's journal (~20 KB as the COS API answers it): the read of part 10, both doors. */
const FHIR_API_PATIENT = '191212121212';
const COS_JOURNAL = '/patients/journalnotes/';
const FHIR_JOURNAL = '/fhir/Composition';

/**
 * Scenarios 10a/10b (issue 36): one journal read as the COS API answers it and as the FHIR API's
 * Composition search, on the embedded EHR in one process, 50 connections each; the target is FHIR
 * at most 1.5 times the COS read's CPU per request. 10c/10d (issue 56 item 4): the same for the
 * 100-note journal (the search answers its first page of 50), in the same process; the target is
 * FHIR at most 1.2 times the COS read's CPU, and peak RSS under 250 MB under both.
 */
async function measureFhirApi(targets: Target[], serviceEnv: ServiceEnv, key: string, issuer: BenchIssuer, closed: ClosedLoopResult[]): Promise<void> {
  const service = await startService(targets, 'service-fhir-api', serviceEnv('fhir-api'));
  const pair = async (patient: string, cosId: string, fhirId: string, notes: string, target: number): Promise<void> => {
    if (!runs(cosId) && !runs(fhirId)) return;
    const token = await issuer.sign(patient, 'user/JournalNote-read patient/Composition.rs', { client_id: 'bench-app' });
    const headers = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}` };
    const cos = await request(service.origin + COS_JOURNAL, { headers });
    const cosBytes = (await cos.body.arrayBuffer()).byteLength;
    const fhir = await request(service.origin + FHIR_JOURNAL, { headers });
    const bundle = await fhir.body.json() as { total?: number; entry?: unknown[] };
    if (cos.statusCode !== 200 || fhir.statusCode !== 200 || (bundle.total ?? 0) === 0) {
      throw new Error(`${cosId}/${fhirId}: the journal answered ${cos.statusCode} / ${fhir.statusCode} (${bundle.total ?? 0} Compositions)`);
    }
    const a = runs(cosId) ? await closedLoop(service, `${cosId}. COS journal${notes} (${fmt(cosBytes / 1024, 0)} KB)`, COS_JOURNAL, headers, 50) : undefined;
    const b = runs(fhirId)
      ? await closedLoop(service, `${fhirId}. FHIR Composition search (${bundle.total} notes, ${bundle.entry?.length ?? 0} a page)`, FHIR_JOURNAL, headers, 50) : undefined;
    closed.push(...[a, b].filter((r) => r !== undefined));
    if (a !== undefined && b !== undefined) write(`${fhirId}: FHIR CPU per request ${fmt(b.cpuUsPerRequest / a.cpuUsPerRequest, 2)} × the COS read's (target ≤ ${target})`);
  };
  await pair(FHIR_API_PATIENT, '10a', '10b', '', 1.5);
  await pair(NOTES_PATIENT, '10c', '10d', `, ${JOURNAL_NOTES} notes`, FHIR_MANY_NOTES_MAX);
  await service.stop();
}

/** Issue 56 item 4: the FHIR search of the 100-note journal at most this many times the COS read's CPU per request (10d over 10c). */
const FHIR_MANY_NOTES_MAX = 1.2;

/** Scenarios 8a-8c (issue 24): the ~20 KB-equivalent read, and a long journal of many pages beside a one-page one. */
async function measureFhirPaging(
  fhir: FhirBench, targets: Target[], serviceEnv: ServiceEnv, headers: Record<string, string>, issuer: BenchIssuer, closed: ClosedLoopResult[],
): Promise<void> {
  const service = await startService(targets, 'service-fhir-r4', serviceEnv('fhir-r4', fhir.env));
  const as = async (patient: string) => ({ ...headers, authorization: `Bearer ${await issuer.sign(patient, SCOPE)}` });
  const long = await as(FHIR_BENCH_PATIENT);
  const short = await as(FHIR_SHORT_PATIENT);
  const small = await fhirAnswer(service.origin, SMALL_PATH, long);
  const longJournal = await fhirAnswer(service.origin, LARGE_PATH, long);
  const shortJournal = await fhirAnswer(service.origin, LARGE_PATH, short);
  const pages = Math.ceil(fhir.longJournalCompositions / FHIR_PAGE_SIZE);
  write(`fhir-r4: ${fhir.resources} resources; medications answer ${fmt(small.bytes / 1024, 1)} KB (${small.records} records); `
    + `journals ${longJournal.records} notes answered of ${fhir.longJournalCompositions} Compositions (${pages} pages of ${FHIR_PAGE_SIZE}, ${fmt(longJournal.bytes / 1024, 0)} KB) and `
    + `${shortJournal.records} notes (${fmt(shortJournal.bytes / 1024, 0)} KB)`);
  // 10 connections, not 3a's 50: the development server (Medplum in memory, on core 1 with the load generator) is
  // the bottleneck long before the service, and 50 queued connections answer nothing within the run.
  closed.push(await closedLoop(service, '8a. fhir-r4, 20 KB-equivalent read', SMALL_PATH, long, 10));
  if (runs('8b')) closed.push(await closedLoop(service, `8b. fhir-r4, long journal (${longJournal.records} notes, ${pages} pages)`, LARGE_PATH, long, 1));
  if (runs('8c')) closed.push(await closedLoop(service, `8c. fhir-r4, short journal (${shortJournal.records} notes)`, LARGE_PATH, short, 1));
  await service.stop();
}

const mb = (n: number | undefined): string => fmt(n, 0);
/** ` (503 × 12, 504 × 1)`, or nothing when every answer was 2xx. */
const statusList = (statuses: Record<number, number>): string => {
  const parts = Object.entries(statuses).map(([status, n]) => `${status} × ${n}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
};

async function main(): Promise<void> {
  const started = Date.now();
  const pinnedSelf = pinSelf(1);
  write(`# npm run bench — ${new Date().toISOString()}`);
  const experiment = ['BENCH_NODE_FLAGS', 'BENCH_STATE_DIR', 'BENCH_LOG_LEVEL', 'BENCH_MEMORY_PEAK', 'BENCH_SIM_VALIDATORS'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  if (experiment.length > 0) write(`EXPERIMENT: ${experiment.join(' ')}`);
  write(`node ${process.version}; taskset ${hasTaskset() ? 'yes: servers on core 0, load generator + simulator on core 1' : 'not available: nothing pinned'}${pinnedSelf ? '' : ' (could not pin this process)'}; ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up per run\n`);

  buildService();
  const fixtures = await generateBenchFixtures(ROOT);
  const largeExtracts = (fixtures.largeXml.match(/JournalNoteEHRExtract>/g) ?? []).length / 2;
  const issuer = await BenchIssuer.start();
  const key = randomBytes(24).toString('hex');
  const token = await issuer.sign(BENCH_PATIENT, SCOPE);
  const headers = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}` };
  const hugeHeaders = { ...headers, authorization: `Bearer ${await issuer.sign(HUGE_JOURNAL_PATIENT, SCOPE)}` };
  const hugeExtracts = (fixtures.hugeXml.match(/JournalNoteEHRExtract>/g) ?? []).length / 2;
  const notesHeaders = { ...headers, authorization: `Bearer ${await issuer.sign(NOTES_PATIENT, SCOPE)}` };
  const serviceEnv = (name: string, extra: Record<string, string> = {}): Record<string, string> => {
    // BENCH_STATE_DIR: where the service keeps its audit file (an experiment: a tmpfs, to take fsync out).
    const dataDir = path.join(process.env.BENCH_STATE_DIR || path.join(ROOT, 'state'), name);
    rmSync(dataDir, { recursive: true, force: true });
    return {
      DATA_DIR: dataDir, EHR_DATA_DIR: fixtures.ehrDir, AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl,
      SUBSCRIPTION_KEYS: `bench:${key}`, RATE_LIMIT_MAX: '10000000', LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
      // Said, as every start outside demo mode must: the figures of BENCHMARKS.md are of reads without a policy.
      RELEASE_POLICY_FILE: 'none', ...extra,
    };
  };

  const closed: ClosedLoopResult[] = [];
  const open: OpenLoopRun[] = [];
  const side: SideReads[] = [];
  const conditional: ConditionalRun[] = [];
  let tracingRuns: { results: TracingResult[]; exports: number; bytes: number } | undefined;
  let slowReaders: SlowReaderResult[] | undefined;
  let signInRun: SignInResult | undefined;
  let proxyRun: ProxyReadResult | undefined;
  const targets: Target[] = [];
  try {
    // 1. The reference.
    if (wanted('reference')) {
      const ref = await Target.start('reference', 'bench/reference-server.ts', {}, 0);
      targets.push(ref);
      closed.push(await closedLoop(ref, '1. bare Fastify reference', '/ref', {}, 50));
      await ref.stop();
    }

    // 2. The service on the embedded EHR.
    if (wanted('embedded')) {
      const embedded = await startService(targets, 'service-embedded', serviceEnv('embedded'));
      await sanityCheck(embedded.origin, SMALL_PATH, headers, 2);
      await sanityCheck(embedded.origin, LARGE_PATH, headers, largeExtracts);
      const small = await closedLoop(embedded, '2a. embedded, 20 KB read', SMALL_PATH, headers, 50);
      closed.push(small);
      if (runs('2k') || runs('2l')) closed.push(...await measureDemoReads(embedded, key, issuer));
      if (runs('2b')) closed.push(await closedLoop(embedded, '2b. embedded, 20 KB read', SMALL_PATH, headers, 200));
      if (runs('2c')) closed.push(await closedLoop(embedded, '2c. embedded, 1 MB read', LARGE_PATH, headers, 10));
      // One at a time: the event loop's longest stretch is then what one 1 MB read holds it for.
      if (runs('2e')) closed.push(await closedLoop(embedded, '2e. embedded, 1 MB read', LARGE_PATH, headers, 1));
      if (runs('2d')) open.push(await openLoopRun(embedded, '2d. embedded, 20 KB read', SMALL_PATH, headers, halfOf(small.rps)));
      // Issue 20 item 6: the largest journal the cap allows, one at a time.
      if (runs('2h')) {
        await sanityCheck(embedded.origin, LARGE_PATH, hugeHeaders, hugeExtracts);
        closed.push(await closedLoop(embedded, '2h. embedded, 9 MiB read', LARGE_PATH, hugeHeaders, 1));
      }
      if (runs('2i')) side.push(await sideReads(embedded, "2i. embedded, another patient's 20 KB read", headers, hugeHeaders));
      await embedded.stop();
      // Issue 20 item 6: peak RSS with many 1 MB answers in flight, from a fresh process, since a
      // process keeps the heap an earlier run grew (the 9 MiB read's, say) and its RSS cannot fall below it.
      if (runs('2f') || runs('2g')) {
        const fresh = await startService(targets, 'service-embedded-many', serviceEnv('embedded'));
        if (runs('2f')) closed.push(await closedLoop(fresh, '2f. embedded, 1 MB read', LARGE_PATH, headers, 50));
        if (runs('2g')) closed.push(await closedLoop(fresh, '2g. embedded, 1 MB read', LARGE_PATH, headers, 200));
        await fresh.stop();
      }
      // Issue 56: the 100-note journal, from a fresh process (its peak RSS is this run's), beside 3i and 3k.
      if (runs('2j')) {
        const fresh = await startService(targets, 'service-embedded-notes', serviceEnv('embedded'));
        await sanityCheck(fresh.origin, LARGE_PATH, notesHeaders, JOURNAL_NOTES);
        closed.push(await closedLoop(fresh, `2j. embedded, ${JOURNAL_NOTES}-note journal`, LARGE_PATH, notesHeaders, 50));
        await fresh.stop();
      }
    }

    // 3. The service through xml-http against the EHR simulator.
    if (wanted('xml-http')) {
      const sim = await Target.start('ehr-simulator', 'scripts/ehr-sim.ts', {
        EHR_DATA_DIR: fixtures.ehrDir, DATA_DIR: path.join(ROOT, 'state', 'simulator'), LOG_LEVEL: 'warn',
        // BENCH_SIM_VALIDATORS=off: part 3 as before issue 56, every read fetched and mapped (the event loop's stretches of a cold read).
        EHR_SIM_VALIDATORS: process.env.BENCH_SIM_VALIDATORS || 'on',
      }, 1, false);
      targets.push(sim);
      const remoteEnv = (): Record<string, string> => serviceEnv('xml-http', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.origin });
      const remote = await startService(targets, 'service-xml-http', remoteEnv());
      // Issue 56: each xml-http run's conditional GETs, from the service's own counters around it.
      const counted = async (...run: Parameters<typeof closedLoop>): Promise<ClosedLoopResult> => {
        const metrics = await metricsAddress(path.join(ROOT, 'logs', `${run[0].name}.log`));
        const before = await documentCounts(metrics);
        const result = await closedLoop(...run);
        conditional.push(between(result.scenario, before, await documentCounts(metrics)));
        return result;
      };
      await sanityCheck(remote.origin, SMALL_PATH, headers, 2);
      const remoteSmall = await counted(remote, '3a. xml-http, 20 KB read', SMALL_PATH, headers, 50);
      closed.push(remoteSmall);
      if (runs('3b')) closed.push(await counted(remote, '3b. xml-http, 1 MB read', LARGE_PATH, headers, 10));
      if (runs('3d')) closed.push(await counted(remote, '3d. xml-http, 1 MB read', LARGE_PATH, headers, 1));
      if (runs('3c')) open.push(await openLoopRun(remote, '3c. xml-http, 20 KB read', SMALL_PATH, headers, halfOf(remoteSmall.rps)));
      if (runs('3g')) {
        await sanityCheck(remote.origin, LARGE_PATH, hugeHeaders, hugeExtracts);
        closed.push(await closedLoop(remote, '3g. xml-http, 9 MiB read', LARGE_PATH, hugeHeaders, 1));
      }
      if (runs('3h')) side.push(await sideReads(remote, "3h. xml-http, another patient's 20 KB read", headers, hugeHeaders));
      await remote.stop();
      // From a fresh process, as in part 2.
      if (runs('3e') || runs('3f')) {
        const fresh = await startService(targets, 'service-xml-http-many', remoteEnv());
        if (runs('3e')) closed.push(await counted(fresh, '3e. xml-http, 1 MB read', LARGE_PATH, headers, 50));
        if (runs('3f')) closed.push(await counted(fresh, '3f. xml-http, 1 MB read', LARGE_PATH, headers, 200));
        await fresh.stop();
      }
      if (runs('3i')) {
        const fresh = await startService(targets, 'service-xml-http-notes', remoteEnv());
        await sanityCheck(fresh.origin, LARGE_PATH, notesHeaders, JOURNAL_NOTES);
        closed.push(await counted(fresh, `3i. xml-http, ${JOURNAL_NOTES}-note journal`, LARGE_PATH, notesHeaders, 50));
        await fresh.stop();
      }
      await sim.stop();
      // Issue 56: an EHR that sends no validators, every read fetched and mapped in full (the service before issue 56).
      if (runs('3j') || runs('3k')) {
        const plain = await Target.start('ehr-simulator-plain', 'scripts/ehr-sim.ts', {
          EHR_DATA_DIR: fixtures.ehrDir, DATA_DIR: path.join(ROOT, 'state', 'simulator-plain'), LOG_LEVEL: 'warn', EHR_SIM_VALIDATORS: 'off',
        }, 1, false);
        targets.push(plain);
        const plainEnv = (): Record<string, string> => serviceEnv('xml-http-plain', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: plain.origin });
        for (const [id, scenario, urlPath, who, extracts] of [
          ['3j', '3j. xml-http, 20 KB read, no validators', SMALL_PATH, headers, 2],
          ['3k', `3k. xml-http, ${JOURNAL_NOTES}-note journal, no validators`, LARGE_PATH, notesHeaders, JOURNAL_NOTES],
        ] as const) {
          if (!runs(id)) continue;
          const fresh = await startService(targets, `service-xml-http-plain-${id}`, plainEnv());
          await sanityCheck(fresh.origin, urlPath, who, extracts);
          closed.push(await counted(fresh, scenario, urlPath, who, 50));
          await fresh.stop();
        }
        await plain.stop();
      }
    }

    // 8. The service with EHR_ADAPTER=fhir-r4 against the development FHIR server (issue 24).
    if (wanted('fhir')) await measureFhir(targets, serviceEnv, headers, issuer, closed);

    // 10. The same journal through the service's own FHIR API and through the COS API (issue 36).
    if (wanted('fhir-api')) await measureFhirApi(targets, serviceEnv, key, issuer, closed);

    // 6. The access log (issue 14) from PostgreSQL, 1,000,000 rows in a scratch database.
    if (wanted('access-log')) {
      const seeded = await seedAccessLogDatabase(BENCH_PATIENT);
      try {
        write(`access log: ${seeded.rows.toLocaleString('en')} rows seeded (${seeded.ownRows.toLocaleString('en')} of the bench patient) in ${fmt(seeded.seedSeconds, 1)} s`);
        const logHeaders = { ...headers, authorization: `Bearer ${await issuer.sign(BENCH_PATIENT, ACCESS_LOG_SCOPE)}` };
        const service = await startService(targets, 'service-access-log', serviceEnv('access-log', accessLogServiceEnv(seeded)));
        const deepPage = await checkAccessLog(service.origin, logHeaders);
        closed.push(await closedLoop(service, '6a. access log, first page of 100 (PostgreSQL)', ACCESS_LOG_PATH, logHeaders, ACCESS_LOG_CONNECTIONS));
        if (runs('6b')) closed.push(await closedLoop(service, '6b. access log, 20th page by cursor (PostgreSQL)', deepPage, logHeaders, ACCESS_LOG_CONNECTIONS));
        // 1,000 req/s offered whatever the server does (Poisson): where the closed loop's rate is the capacity, this shows the queue at it.
        if (runs('6c')) open.push(await openLoopRun(service, '6c. access log, first page of 100 (PostgreSQL)', ACCESS_LOG_PATH, logHeaders, ACCESS_LOG_RATE));
        await service.stop();
      } finally {
        await seeded.drop();
      }
    }

    // 11. The service's own authorization server: a sign-in's server time, token requests per second (issue 46).
    if (wanted('sign-in')) {
      signInRun = await measureSignIn(async (env, port) => {
        const target = await Target.start('service-sign-in', SERVICE_ENTRY, env, 0, true, port);
        targets.push(target);
        return target;
      }, SECONDS);
    }

    // 12. A read as a proxy beside the same read by the patient (issue 53).
    if (wanted('proxy')) proxyRun = await measureProxyRead(targets, serviceEnv, key, issuer);

    // 9. Callers that never read their ~9 MiB answers (issue 34 item 4).
    if (named('slow-reader')) slowReaders = await measureSlowReaderPart(targets, fixtures.ehrDir, serviceEnv, hugeHeaders);

    // 5. The cost of tracing: the same 20 KB read with OpenTelemetry off and on, one after the other.
    if (wanted('tracing')) tracingRuns = await measureTracing(targets, fixtures.ehrDir, serviceEnv, headers);
  } finally {
    for (const t of targets) await t.stop().catch(() => undefined);
    await issuer.close();
  }

  const reference = closed.find((r) => r.scenario.startsWith('1.'))?.rps ?? Number.NaN;
  write('## Closed loop (autocannon)\n');
  const referenceCpu = closed.find((r) => r.scenario.startsWith('1.'))?.cpuUsPerRequest ?? Number.NaN;
  write(table(
    ['scenario', 'conns', 'req/s', 'vs reference', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'vs reference by CPU', 'server CPU', 'event-loop max / p99 ms', 'peak RSS MB', 'errors / non-2xx'],
    closed.map((r) => [
      r.scenario, String(r.connections), fmt(r.rps), `${fmt((r.rps / reference) * 100, 2)} %`, fmt(r.p50Ms, 1), fmt(r.p99Ms, 1),
      `${fmt(r.cpuUsPerRequest)}${r.procCpuUsPerRequest === undefined ? '' : ` (${fmt(r.procCpuUsPerRequest)})`}`,
      `${fmt((referenceCpu / r.cpuUsPerRequest) * 100, 2)} %`,
      `${fmt(r.cpuUtilisation * 100)} % (kernel ${fmt(r.systemShare * 100)} %)`, `${fmt(r.eventLoopMaxMs, 1)} / ${fmt(r.eventLoopP99Ms, 1)}`, mb(r.peakRssMB), `${r.errors} / ${r.non2xx}`,
    ]),
  ));
  write('\nserver CPU µs/req: process.cpuUsage() of the server, all threads (in brackets: /proc/<pid>/stat, 10 ms ticks).');
  write('vs reference by CPU: reference CPU µs/req over this CPU µs/req, i.e. req/s per fully used core; it does not depend on');
  write('whether the load generator could saturate the server (the bare reference usually saturates the generator first).');
  write('event-loop max / p99: perf_hooks.monitorEventLoopDelay of the server over the measured run; with 10 connections of');
  write('1 MB reads the loop serves several in one turn, so the 1-connection runs show what one 1 MB read holds it for.\n');
  write('## Open loop (Poisson arrivals at 50 % of the closed-loop req/s of the same read)\n');
  write(table(
    ['scenario', 'target req/s', 'achieved req/s', 'p50 ms', 'p99 ms', 'max ms', 'generator send lag p99 / max ms', 'server CPU µs/req', 'server CPU', 'event-loop max ms', 'errors / non-2xx'],
    open.map((r) => [
      r.scenario, fmt(r.rate), fmt(r.achievedRate), fmt(r.p50Ms, 1), fmt(r.p99Ms, 1), fmt(r.maxMs, 1), `${fmt(r.sendLagP99Ms, 1)} / ${fmt(r.sendLagMaxMs, 1)}`,
      fmt(r.cpuUsPerRequest), `${fmt(r.cpuUtilisation * 100)} % (kernel ${fmt(r.systemShare * 100)} %)`, fmt(r.eventLoopMaxMs, 1), `${r.errors} / ${r.non2xx}${statusList(r.statuses)}`,
    ]),
  ));

  if (tracingRuns !== undefined) write(`\n${tracingTable(tracingRuns.results, tracingRuns)}`);
  if (slowReaders !== undefined) {
    write('\n## Callers that never read a ~9 MiB answer (issue 34 item 4)\n');
    write(slowReaderTable(slowReaders));
    write(`\nbound: SEND_GRACE_MS + the answer's bytes at SEND_MIN_BYTES_PER_S (${SLOW_READER_LIMITS.graceMs} ms, ${SLOW_READER_LIMITS.minBytesPerS} B/s); `
      + `a full read answered after the cuts: ${slowReaders.map((r) => `${fmt(r.afterwards / 2 ** 20, 1)} MB`).join(', ')}`);
    for (const r of slowReaders) if (r.peakOf !== undefined) write(`${r.scenario}: at the sampled RSS peak of the ${r.connections} ${JSON.stringify(r.peakOf)} MB`);
  }
  if (side.length > 0) {
    write(`\n## Another patient's small reads beside the largest journal (open loop, ${SIDE_READ_RATE} req/s; issue 20 item 6)\n`);
    write(table(
      ['scenario', 'achieved req/s', 'p50 ms', 'p99 ms', 'max ms', 'generator send lag p99 / max ms', 'event-loop max ms', 'errors / non-2xx'],
      side.flatMap(({ alone, beside }) => [alone, beside]).map((r) => [
        r.scenario, fmt(r.achievedRate), fmt(r.p50Ms, 1), fmt(r.p99Ms, 1), fmt(r.maxMs, 1), `${fmt(r.sendLagP99Ms, 1)} / ${fmt(r.sendLagMaxMs, 1)}`,
        fmt(r.eventLoopMaxMs, 1), `${r.errors} / ${r.non2xx}${statusList(r.statuses)}`,
      ]),
    ));
    write('\nLatency from each scheduled arrival; "beside": one connection reads the ~9 MiB journal of another patient over and over meanwhile.');
  }

  if (conditional.length > 0) {
    write('\n## Conditional GETs of the xml-http runs (issue 56; the service\'s own counters, warm-up included)\n');
    write(conditionalTable(conditional));
    write('\nTwo documents a request: the patient\'s, which decides the access, and the read\'s.');
  }

  let mapper: { results: MapperResult[]; blocking: BlockingResult } | undefined;
  let jwt: JwtResult | undefined;
  if (!argv.includes('--skip-micro') && wanted('micro')) {
    mapper = await micro<{ results: MapperResult[]; blocking: BlockingResult }>('bench/mapper.ts');
    jwt = await micro<JwtResult>('bench/jwt.ts');
    write('\n## Mapper (XML → records) against JSON.parse of the same records as JSON, same process\n');
    write(mapperTable(mapper.results));
    write('');
    write(blockingTable(mapper.blocking));
    write('\n## Token verification\n');
    write(jwtTable(jwt));
  }
  let hostile: HostileResult[] | undefined;
  if (wanted('hostile')) {
    hostile = await micro<HostileResult[]>('bench/hostile.ts');
    write('\n## Hostile documents (issue 20 item 2)\n');
    write(hostileTable(hostile));
  }
  if (proxyRun !== undefined) write(`\n${proxyReadTable(proxyRun)}`);
  if (signInRun !== undefined) write(`\n## The service's own sign-in (part 11, PostgreSQL state, one instance)\n\n${signInTable(signInRun)}`);
  const hostileMax = hostile === undefined ? undefined : Math.max(...hostile.flatMap((h) => [h.slicedFromBytesMaxMs, h.slicedFromTextMaxMs]));

  const byName = (prefix: string): ClosedLoopResult | undefined => closed.find((r) => r.scenario.startsWith(prefix));
  const s20 = byName('2a');
  const appointments = byName('2k');
  const journal = byName('2l');
  const log1 = byName('6a');
  const log20 = byName('6b');
  const s200 = byName('2b');
  const s1mb = byName('2e');
  const r1mb = byName('3d');
  const hugeRuns = [byName('2h'), byName('3g')];
  const fhirLargePages = byName('8d');
  const rssRuns = ['2f', '2g', '3e', '3f'].map(byName);
  const worst = (values: (number | undefined)[]): number | undefined => (values.some((v) => v === undefined) ? undefined : Math.max(...(values as number[])));
  const hugeMax = worst(hugeRuns.map((r) => r?.eventLoopMaxMs));
  const rssMax = worst(rssRuns.map((r) => r?.peakRssMB));
  const fhir6 = [byName('10a'), byName('10b')];
  const fhir100 = [byName('10c'), byName('10d')];
  const fhirRatio = ([cos, fhir]: (ClosedLoopResult | undefined)[]): number | undefined =>
    (cos === undefined || fhir === undefined ? undefined : fhir.cpuUsPerRequest / cos.cpuUsPerRequest);
  const ol = open.find((r) => r.scenario.startsWith('2d'));
  const large = mapper?.results.find((r) => r.name.includes('1 MB'));
  const small20 = mapper?.results.find((r) => r.name.includes('20 KB'));
  const check = (ok: boolean | undefined): string => (ok === undefined ? '–' : ok ? 'met' : 'NOT met');
  write('\n## Targets\n');
  write(table(['target', 'measured', ''], [
    ['20 KB read ≥ 4 % of reference req/s (measured / by CPU)', `${fmt(((s20?.rps ?? 0) / reference) * 100, 2)} % / ${fmt((referenceCpu / (s20?.cpuUsPerRequest ?? Number.NaN)) * 100, 2)} %`,
      check(s20 && s20.rps / reference >= 0.04 && referenceCpu / s20.cpuUsPerRequest >= 0.04)],
    ['≤ 450 µs server CPU per 20 KB request', fmt(s20?.cpuUsPerRequest), check(s20 && s20.cpuUsPerRequest <= 450)],
    ['p99 < 60 ms at 50 connections (20 KB)', fmt(s20?.p99Ms, 1), check(s20 && s20.p99Ms < 60)],
    [`small appointments read ≤ ${SMALL_READ_MAX_CPU}× the reference's server CPU per request (2k, issue 56 item 4)`,
      `${fmt((appointments?.cpuUsPerRequest ?? Number.NaN) / referenceCpu, 2)}× (${fmt(appointments?.cpuUsPerRequest)} / ${fmt(referenceCpu)} µs)`,
      check(appointments && appointments.cpuUsPerRequest / referenceCpu <= SMALL_READ_MAX_CPU)],
    [`~20 KB journal ≥ ${fmt(JOURNAL_MIN_SHARE * 100)} % of the reference's req/s (2l, measured / by CPU; issue 56 item 4)`,
      `${fmt(((journal?.rps ?? Number.NaN) / reference) * 100, 2)} % / ${fmt((referenceCpu / (journal?.cpuUsPerRequest ?? Number.NaN)) * 100, 2)} %`,
      // Both, as for 2a: on a loaded machine the measured share flatters, since the reference waits for the load generator.
      check(journal && journal.rps / reference >= JOURNAL_MIN_SHARE && referenceCpu / journal.cpuUsPerRequest >= JOURNAL_MIN_SHARE)],
    ['open-loop p99 < 10 ms at half capacity', fmt(ol?.p99Ms, 1), check(ol && ol.p99Ms < 10)],
    ['mapper ≥ 40 % of JSON.parse throughput (20 KB / 1 MB)', `${fmt((small20?.throughputRatio ?? Number.NaN) * 100)} % / ${fmt((large?.throughputRatio ?? Number.NaN) * 100)} %`,
      check(small20 && large ? Math.min(small20.throughputRatio, large.throughputRatio) >= 0.4 : undefined)],
    ['1 MB read never blocks the event loop > 20 ms (max at 1 connection, embedded / xml-http)', `${fmt(s1mb?.eventLoopMaxMs, 1)} / ${fmt(r1mb?.eventLoopMaxMs, 1)}`,
      check(s1mb && r1mb && Math.max(s1mb.eventLoopMaxMs, r1mb.eventLoopMaxMs) <= 20)],
    ['hostile ~9 MiB documents never block the event loop > 20 ms (longest, any shape)', `${fmt(hostileMax, 1)} ms`,
      check(hostileMax === undefined ? undefined : hostileMax <= 20)],
    ['peak RSS < 250 MB at 200 connections', mb(s200?.peakRssMB), check(s200?.peakRssMB === undefined ? undefined : s200.peakRssMB < 250)],
    ['~9 MiB journal never blocks the event loop > 20 ms (max at 1 connection, embedded / xml-http)', hugeRuns.map((r) => fmt(r?.eventLoopMaxMs, 1)).join(' / '),
      check(hugeMax === undefined ? undefined : hugeMax <= 20)],
    ['peak RSS < 250 MB with 1 MB reads at 50 and 200 connections (2f / 2g / 3e / 3f)', rssRuns.map((r) => mb(r?.peakRssMB)).join(' / '),
      check(rssMax === undefined ? undefined : rssMax < 250)],
    ['~3.9 MiB FHIR pages never block the event loop > 20 ms (8d, 3 connections; peak RSS beside)', `${fmt(fhirLargePages?.eventLoopMaxMs, 1)} ms, ${mb(fhirLargePages?.peakRssMB)} MB`,
      check(fhirLargePages === undefined ? undefined : fhirLargePages.eventLoopMaxMs <= 20)],
    ["FHIR Composition search ≤ 1.5× the COS read's CPU per request, Tolvan's 6 notes (10b / 10a)", fmt(fhirRatio(fhir6), 2), check(fhirRatio(fhir6) === undefined ? undefined : (fhirRatio(fhir6) as number) <= 1.5)],
    [`FHIR Composition search ≤ ${FHIR_MANY_NOTES_MAX}× the COS read's CPU per request, ${JOURNAL_NOTES} notes (10d / 10c), peak RSS < 250 MB under both`,
      `${fmt(fhirRatio(fhir100), 2)}, ${fhir100.map((r) => mb(r?.peakRssMB)).join(' / ')} MB`,
      check(fhirRatio(fhir100) === undefined ? undefined : (fhirRatio(fhir100) as number) <= FHIR_MANY_NOTES_MAX && (worst(fhir100.map((r) => r?.peakRssMB)) ?? 0) < 250)],
    ['verified JWT < 10 µs per request', `${fmt(jwt?.cachedUs, 2)} µs`, check(jwt && jwt.cachedUs < 10)],
    [`access-log page of 100, PostgreSQL with 1,000,000 rows: ≥ 1,000 req/s with p99 < 50 ms, ${ACCESS_LOG_CONNECTIONS} connections (first / 20th page)`,
      `${fmt(log1?.rps)} / ${fmt(log20?.rps)} req/s, p99 ${fmt(log1?.p99Ms, 1)} / ${fmt(log20?.p99Ms, 1)} ms`,
      check(log1 && [log1, log20].every((r) => r === undefined || (r.rps >= 1000 && r.p99Ms < 50 && r.errors + r.non2xx === 0)))],
    [`a read as a proxy ≤ ${fmt(PROXY_MAX_EXTRA * 100)} % more server CPU than the same read by the patient (12b against 12a, medians)`,
      proxyRun === undefined ? '–' : `${fmt(proxyExtra(proxyRun) * 100, 1)} %`, check(proxyRun === undefined ? undefined : proxyExtra(proxyRun) <= PROXY_MAX_EXTRA)],
  ]));
  write(`\ntotal bench time ${fmt((Date.now() - started) / 1000)} s; logs in ${path.relative(process.cwd(), ROOT)}/logs`);

  mkdirSync(path.join(ROOT, 'results'), { recursive: true });
  const file = path.join(ROOT, 'results', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), node: process.version, seconds: SECONDS, closed, open, side, conditional, mapper, jwt, hostile, tracing: tracingRuns, slowReaders, signIn: signInRun, proxy: proxyRun }, null, 1));
  write(`results: ${path.relative(process.cwd(), file)}`);
  await sleep(10);
}

type ServiceEnv = (name: string, extra?: Record<string, string>) => Record<string, string>;

/** The contract's defaults, given explicitly so that the bound the table prints is the one in force. */
const SLOW_READER_LIMITS = { graceMs: 10_000, minBytesPerS: 16_384 };

/** Part 9 (bench/slow-reader.ts): 9a, 9b and 9c, each from a fresh xml-http service (RSS never falls back). */
async function measureSlowReaderPart(targets: Target[], ehrDir: string, serviceEnv: ServiceEnv, hugeHeaders: Record<string, string>): Promise<SlowReaderResult[]> {
  const sim = await Target.start('ehr-simulator-slow-reader', 'scripts/ehr-sim.ts', {
    EHR_DATA_DIR: ehrDir, DATA_DIR: path.join(ROOT, 'state', 'simulator-slow-reader'), LOG_LEVEL: 'warn',
    // BENCH_SIM_VALIDATORS=off: an EHR without validators, every caller's answer fetched and mapped anew (issue 56 item 5).
    EHR_SIM_VALIDATORS: process.env.BENCH_SIM_VALIDATORS || 'on',
  }, 1, false);
  targets.push(sim);
  const results: SlowReaderResult[] = [];
  // 9c: 9b as it was before SEND_MAX_LARGE_ANSWERS (issue 44 item 12), the limit lifted.
  const runsOf: Array<[string, boolean, Record<string, string>]> = [['9a. xml-http, 9 MiB journal, 60 callers asking at once, never reading', false, {}],
    ['9b. xml-http, 9 MiB journal, 60 callers asking one after another, never reading', true, {}],
    ['9c. as 9b, SEND_MAX_LARGE_ANSWERS lifted (100000)', true, { SEND_MAX_LARGE_ANSWERS: '100000' }]];
  for (const [scenario, oneAfterAnother, extra] of runsOf) {
    if (!runs(scenario.slice(0, 2))) continue;
    const service = await startService(targets, `service-slow-reader-${scenario.slice(0, 2)}`, serviceEnv('slow-reader', {
      EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.origin,
      SEND_GRACE_MS: String(SLOW_READER_LIMITS.graceMs), SEND_MIN_BYTES_PER_S: String(SLOW_READER_LIMITS.minBytesPerS), ...extra,
    }));
    results.push(await measureSlowReaders(service, scenario, LARGE_PATH, hugeHeaders, SLOW_READER_LIMITS, oneAfterAnother));
    await service.stop();
  }
  await sim.stop();
  return results;
}

/** Part 5 (bench/tracing.ts): the 20 KB read at 50 connections, tracing off and on, in alternating rounds. */
async function measureTracing(
  targets: Target[], ehrDir: string, serviceEnv: ServiceEnv, headers: Record<string, string>,
): Promise<{ results: TracingResult[]; exports: number; bytes: number }> {
  const sink = await OtlpSink.start();
  const sim = await Target.start('ehr-simulator-tracing', 'scripts/ehr-sim.ts', {
    EHR_DATA_DIR: ehrDir, DATA_DIR: path.join(ROOT, 'state', 'simulator-tracing'), LOG_LEVEL: 'warn',
  }, 1, false);
  targets.push(sim);
  const results: TracingResult[] = [];
  try {
    const adapters: Array<[string, Record<string, string>]> = [['embedded', {}], ['xml-http', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.origin }]];
    for (const [adapter, adapterEnv] of adapters) {
      const off = await startService(targets, `tracing-${adapter}-off`, serviceEnv(`tracing-${adapter}-off`, adapterEnv));
      const on = await startService(targets, `tracing-${adapter}-on`, serviceEnv(`tracing-${adapter}-on`, { ...adapterEnv, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }));
      await sanityCheck(off.origin, SMALL_PATH, headers, 2);
      await sanityCheck(on.origin, SMALL_PATH, headers, 2);
      const result: TracingResult = { adapter, off: [], on: [] };
      for (let round = 1; round <= TRACING_ROUNDS; round++) {
        result.off.push(await closedLoop(off, `5. ${adapter}, tracing off`, SMALL_PATH, headers, 50));
        result.on.push(await closedLoop(on, `5. ${adapter}, tracing on`, SMALL_PATH, headers, 50));
      }
      results.push(result);
      await off.stop();
      await on.stop();
    }
    await sim.stop();
    if (sink.exports === 0) throw new Error('tracing was on but no span reached the OTLP sink');
    return { results, exports: sink.exports, bytes: sink.bytes };
  } finally {
    await sink.close();
  }
}

/**
 * Part 12 (bench/proxy-read.ts): one service with PROXY_GRANTS=on and one active grant in its DATA_DIR;
 * the 20 KB lab-results read by the patient (12a) and by the proxy (12b), alternating (the order swapped each round), 50 connections.
 */
async function measureProxyRead(targets: Target[], serviceEnv: ServiceEnv, key: string, issuer: BenchIssuer): Promise<ProxyReadResult> {
  const env = serviceEnv('proxy', { PROXY_GRANTS: 'on' });
  seedProxyGrant(env.DATA_DIR as string, BENCH_PATIENT);
  const service = await startService(targets, 'service-proxy', env);
  // Both tokens may read medications too: the proxy's 403 there is the grant's, not the scope's.
  const scope = `${PROXY_READ_SCOPE} user/MedicationPrescription-read`;
  const own = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${await issuer.sign(BENCH_PATIENT, scope)}` };
  const proxy = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${await issuer.sign(PROXY_GRANTEE, scope)}`, patient: BENCH_PATIENT };
  await checkProxyReads(service.origin, own, proxy, SMALL_PATH);
  // Both paths warmed before anything is measured, and the order swapped every round: the first runs
  // after a start carry the JIT's work, which would otherwise fall on whichever read goes first.
  for (const headers of [own, proxy]) await autocannon({ url: service.origin + PROXY_READ_PATH, connections: 50, duration: WARMUP_SECONDS, headers, timeout: 30 });
  const result: ProxyReadResult = { own: [], proxy: [] };
  const measure = async (who: 'own' | 'proxy'): Promise<void> => {
    if (who === 'own' && runs('12a')) result.own.push(await closedLoop(service, '12a. the patient', PROXY_READ_PATH, own, 50));
    if (who === 'proxy' && runs('12b')) result.proxy.push(await closedLoop(service, '12b. a proxy', PROXY_READ_PATH, proxy, 50));
  };
  for (let round = 1; round <= PROXY_ROUNDS; round++) {
    for (const who of round % 2 === 1 ? ['own', 'proxy'] as const : ['proxy', 'own'] as const) await measure(who);
  }
  await service.stop();
  return result;
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
