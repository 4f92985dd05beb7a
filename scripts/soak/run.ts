/**
 * One soak run, start to finish: the service as its own process (`node --import tsx src/server.ts`)
 * on loopback with the EHR simulator (its own process) or the embedded EHR, a loopback issuer, the
 * audit trail in a PostgreSQL database of the run's own and rate limits in Redis; a bounded open-loop
 * mixed load; memory sampled throughout; then the checks. Everything started is stopped and
 * everything created is removed, whatever happens, also when `signal` aborts the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import {
  checkAnswered, checkAudit, checkMemory, checkNoServerErrors, checkStatuses, percentile, type CheckResult,
} from './checks.js';
import { ChildNode, freePort, waitFor } from './children.js';
import { auditRows, createDatabase, databaseUrlFor, dropDatabase, redisClient, redisKeys, type AuditRow } from './infra.js';
import { SoakIssuer } from './issuer.js';
import { runLoad, sendPlanned, type LoadResult, type Outcome } from './load.js';
import type { SoakOptions } from './options.js';
import { ALL_SCOPES, LoadPlan, PEOPLE, seededRandom, type PlanFixtures, type PlannedRequest } from './plan.js';
import { MemorySampler, metricValue, scrapeMetrics, type MemorySample } from './sampler.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ZONE = 'Europe/Stockholm';
const MIB = 1024 * 1024;
const RATE_LIMIT_NAMESPACE = 'pdas-rl:';
const KEYS_PER_RUN = 4;

export interface SoakReport {
  ok: boolean;
  aborted: boolean;
  runId: string;
  checks: CheckResult[];
  summary: string;
  load?: LoadResult;
  samples: MemorySample[];
  /** Outcome rows only: a write's attempt row (stored before the EHR is asked) is not counted here. */
  auditRowCount: number;
  /** API answers of 503 "overloaded" before the first normal answer after start-up. */
  startupShed: number;
}

type Log = (line: string) => void;

/** Runs `fn` for each cleanup, newest first; a failing one is reported and the rest still run. */
class Cleanup {
  private readonly steps: Array<{ name: string; run: () => Promise<void> }> = [];
  readonly failures: string[] = [];
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }
  async runAll(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await Promise.race([step.run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 20 s')), 20_000).unref())]);
      } catch (err) {
        this.failures.push(`${step.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}

/** Children of every run in this process, for a last-resort kill when the process exits. */
export const runningChildren = new Set<ChildNode>();

function todayIn(zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

interface Booking {
  ContactId: string;
  TypedStartDateTime: string;
}

/** The booking of today whose arrival window (120 min before to 30 min after its start) stays open longest. */
function openBooking(results: unknown): string | undefined {
  const now = Date.now();
  const bookings = (Array.isArray(results) ? results : []).flatMap((r: { Booking?: Booking[] }) => r.Booking ?? []);
  return bookings
    .filter((b) => {
      const start = Date.parse(b.TypedStartDateTime);
      return now >= start - 120 * 60_000 && now <= start + 30 * 60_000 - 10 * 60_000;
    })
    .sort((a, b) => Date.parse(b.TypedStartDateTime) - Date.parse(a.TypedStartDateTime))[0]?.ContactId;
}

const identityForms = (id: string): string[] => [id, `${id.slice(0, 8)}-${id.slice(8)}`];

export async function runSoak(options: SoakOptions, signal: AbortSignal, log: Log = (line) => console.log(line)): Promise<SoakReport> {
  const runId = randomBytes(4).toString('hex');
  const cleanup = new Cleanup();
  const checks: CheckResult[] = [];
  const report: SoakReport = { ok: false, aborted: false, runId, checks, summary: '', samples: [], auditRowCount: 0, startupShed: 0 };
  let service: ChildNode | undefined;
  let load: LoadResult | undefined;
  let rows: AuditRow[] = [];
  let failure: string | undefined;
  const extra: string[] = [];
  const setupPrefix = `soak-${runId}-s-`;
  const loadPrefix = `soak-${runId}-l-`;

  try {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-soak-'));
    cleanup.add('remove temporary folder', () => rm(dir, { recursive: true, force: true }));
    log(`soak ${runId}: seed ${options.seed}, ${options.durationS} s at ${options.rate} req/s, EHR ${options.ehr}`);
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: ZONE });

    // PostgreSQL: a database of the run's own, since the service always writes to schema "audit".
    const database = `soak_${runId}`;
    await createDatabase(options.adminDatabaseUrl, database);
    cleanup.add(`drop database ${database}`, () => dropDatabase(options.adminDatabaseUrl, database));
    const databaseUrl = databaseUrlFor(options.adminDatabaseUrl, database);

    // Redis: reachable now, and the run's rate-limit counters (under its own subscription names) removed afterwards.
    const redis = redisClient(options.redisUrl);
    cleanup.add('close Redis', async () => void redis.disconnect());
    await redis.connect().catch((err: unknown) => {
      throw new Error(`Redis at REDIS_URL is unreachable (${err instanceof Error ? err.message : String(err)})`);
    });
    const names = Array.from({ length: KEYS_PER_RUN }, (_, i) => `soak${runId}${String.fromCharCode(97 + i)}`);
    cleanup.add('delete rate-limit counters', async () => {
      const keys = await redisKeys(redis, `${RATE_LIMIT_NAMESPACE}sub:soak${runId}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    const keys = names.map(() => randomBytes(18).toString('hex'));

    const issuer = await SoakIssuer.start();
    cleanup.add('stop issuer', () => issuer.close());

    let ehrEnv: Record<string, string>;
    if (options.ehr === 'xml-http') {
      const simPort = await freePort();
      const sim = ChildNode.start('ehr-sim', 'scripts/ehr-sim.ts', REPO_ROOT, {
        EHR_SIM_PORT: String(simPort), DATA_DIR: path.join(dir, 'sim'), EHR_DATA_DIR: path.join(dir, 'ehr'), EHR_TIMEZONE: ZONE, LOG_LEVEL: 'warn',
      });
      runningChildren.add(sim);
      cleanup.add('stop EHR simulator', async () => {
        await sim.stop(5000);
        runningChildren.delete(sim);
      });
      const simUrl = `http://127.0.0.1:${simPort}`;
      await waitFor(`${simUrl}/ehr/v1/relationships/000000000000`, 200, 30_000, () => sim.scan.tail.join('\n'));
      ehrEnv = { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: simUrl };
    } else {
      ehrEnv = { EHR_ADAPTER: 'embedded', EHR_DATA_DIR: path.join(dir, 'ehr') };
    }

    const lifetimeS = options.durationS + 900;
    const claims = {
      adult: { sub: 'soak-person-adult', patient: PEOPLE.adult, scope: ALL_SCOPES },
      actor: { sub: 'soak-person-actor', patient: PEOPLE.actor, scope: ALL_SCOPES },
      kiosk: { sub: 'soak-kiosk', client_id: 'soak-kiosk', scope: ALL_SCOPES },
    };
    const tokens = {
      adult: await issuer.sign(claims.adult, lifetimeS),
      actor: await issuer.sign(claims.actor, lifetimeS),
      kiosk: await issuer.sign(claims.kiosk, lifetimeS),
      narrow: await issuer.sign({ sub: 'soak-narrow', patient: PEOPLE.adult, scope: 'user/JournalNote-read' }, lifetimeS),
      expired: await issuer.sign(claims.adult, -600),
      foreign: await issuer.sign(claims.adult, lifetimeS, true),
    };
    let fresh = await issuer.sign(claims.adult, 180);

    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    const metricsPort = await freePort();
    const metricsOrigin = `http://127.0.0.1:${metricsPort}`;
    const rateLimitMax = Math.max(1000, Math.ceil(options.rate * 5 * 2));
    // What no log line may hold: keys, tokens (their signatures; the minted ones are added as they come), identity numbers.
    const forbidden: string[] = [
      ...keys, ...[...Object.values(tokens), fresh].map((t) => t.slice(-40)),
      ...Object.values(PEOPLE).flatMap(identityForms),
    ];
    // The chain key a production start needs (docs/operations.md#the-chain-key): one of the soak's own, outside DATA_DIR.
    const chainKeyFile = path.join(dir, 'audit-chain-key');
    await writeFile(chainKeyFile, `soak:${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    service = ChildNode.start('service', 'src/server.ts', REPO_ROOT, {
      PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: String(metricsPort), DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: options.logLevel,
      ...ehrEnv, EHR_TIMEZONE: ZONE, AUTH_ISSUER: issuer.issuer, AUTH_CLIENT_IDS: 'soak-kiosk', AUDIT_CHAIN_KEY_FILE: chainKeyFile,
      SUBSCRIPTION_KEYS: names.map((n, i) => `${n}:${keys[i]}`).join(','),
      RATE_LIMIT_MAX: String(rateLimitMax), RATE_LIMIT_NO_KEY_MAX: String(rateLimitMax), RATE_LIMIT_WINDOW_MS: '5000',
      DATABASE_URL: databaseUrl, REDIS_URL: options.redisUrl, SHUTDOWN_TIMEOUT_MS: '10000',
      // Said, as every start outside demo mode must (docs/release-policy.md): the soak measures reads, not the policy.
      RELEASE_POLICY_FILE: 'none',
      ...options.serviceEnv,
    }, forbidden);
    const svc = service;
    runningChildren.add(svc);
    cleanup.add('stop service', async () => {
      await svc.stop(15_000);
      runningChildren.delete(svc);
    });
    await waitFor(`${api}/health/ready`, 200, 60_000, () => svc.scan.tail.join('\n'));

    // Set-up over the API itself: today's open bookings, their first arrival and payment.
    const pool = new Pool(api, { connections: 8 });
    cleanup.add('close set-up client', () => pool.close());
    let setupSeq = 0;
    const setup = (p: PlannedRequest): Promise<Outcome> => sendPlanned(pool, p, `${setupPrefix}${++setupSeq}`, options.requestTimeoutMs, 0);
    const getJson = async (label: string, pathAndQuery: string, token: string, patient?: string): Promise<unknown> => {
      const res = await pool.request({
        method: 'GET', path: pathAndQuery, signal: AbortSignal.timeout(10_000),
        headers: { 'ocp-apim-subscription-key': keys[0] as string, authorization: `Bearer ${token}`, 'x-request-id': `${setupPrefix}${++setupSeq}`, ...(patient ? { patient } : {}) },
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`set-up ${label}: ${res.statusCode} ${text.slice(0, 200)}`);
      return JSON.parse(text);
    };
    // Load shedding samples the event loop from start-up; count what a caller would see before the first normal answer.
    for (let attempt = 0; ; attempt++) {
      const res = await pool.request({
        method: 'GET', path: '/patients/attentionsignals/', signal: AbortSignal.timeout(10_000),
        headers: { 'ocp-apim-subscription-key': keys[0] as string, authorization: `Bearer ${tokens.adult}`, 'x-request-id': `${setupPrefix}${++setupSeq}` },
      });
      const text = await res.body.text();
      if (res.statusCode === 200) break;
      if (res.statusCode !== 503 || attempt >= 100) throw new Error(`set-up: first read answered ${res.statusCode} ${text.slice(0, 200)}`);
      report.startupShed += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const adultBooking = openBooking(await getJson('adult appointments', '/patients/appointments/', tokens.adult));
    const minorBooking = openBooking(await getJson('minor appointments', '/patients/appointments/', tokens.actor, PEOPLE.minor));
    if (adultBooking === undefined || minorBooking === undefined) throw new Error('set-up: no booking of today with an open arrival window');

    const fixtures: PlanFixtures = {
      keys, tokens: { ...tokens, freshAdult: () => fresh }, bookings: { adult: adultBooking, minor: minorBooking }, today: todayIn(ZONE),
    };
    const plan = new LoadPlan(fixtures, seededRandom(options.seed));
    const firstWrites = plan.all().filter((p) => ['self arrival', 'self payment', 'guardian: minor arrival', 'guardian: minor payment'].includes(p.label));
    for (const p of firstWrites) {
      const o = await setup(p);
      if (o.status !== 200 || o.problem !== undefined) throw new Error(`set-up ${p.label}: ${o.status} ${o.problem ?? ''}`);
    }
    // Preflight: every kind of request once, so a plan that is wrong shows before five minutes of load.
    const preflight: string[] = [];
    for (const p of plan.all()) {
      const o = await setup(p);
      if (o.status !== p.expect || o.problem !== undefined) preflight.push(`${p.label}: expected ${p.expect}, got ${o.status}${o.problem ? ` (${o.problem})` : ''}`);
    }
    checks.push({ name: 'preflight: each kind of request once', ok: preflight.length === 0, detail: `${plan.all().length} kinds`, problems: preflight });

    // The load, with memory sampled and a new adult token minted every second (bounded: 180 s each).
    const sampler = new MemorySampler(svc, metricsOrigin, options.sampleMs);
    const minting = setInterval(() => {
      void issuer.sign(claims.adult, 180).then((t) => {
        fresh = t;
        if (forbidden.length < 2000) forbidden.push(t.slice(-40));
      }, () => undefined);
    }, 1000);
    const progressEvery = Math.max(5, Math.round(options.durationS / 10)) * 1000;
    const loadStarted = Date.now();
    const progress = setInterval(() => {
      const s = sampler.samples[sampler.samples.length - 1];
      log(`  t=${Math.round((Date.now() - loadStarted) / 1000)} s, RSS ${s ? (s.rss / MIB).toFixed(0) : '?'} MiB, heap ${s?.heapUsed ? (s.heapUsed / MIB).toFixed(0) : '?'} MiB, service log lines ${svc.scan.lines}`);
    }, progressEvery);
    sampler.start();
    try {
      load = await runLoad({
        api, rate: options.rate, durationS: options.durationS, maxInFlight: options.maxInFlight,
        requestTimeoutMs: options.requestTimeoutMs, requestIdPrefix: loadPrefix, next: () => plan.next(), signal,
        shouldStop: () => (svc.running ? undefined : `the service exited (${svc.exitCode ?? svc.signal})`),
      });
    } finally {
      clearInterval(minting);
      clearInterval(progress);
      await sampler.stop();
    }
    report.samples = sampler.samples;
    report.load = load;
    if (signal.aborted) {
      report.aborted = true;
      failure = 'aborted';
      return report;
    }

    // Redis held the limits: the run's counters exist, and the service never let a request through unchecked.
    const counters = await redisKeys(redis, `${RATE_LIMIT_NAMESPACE}sub:soak${runId}*`).catch(() => [] as string[]);
    const metrics = await scrapeMetrics(metricsOrigin);
    const unenforced = metrics === undefined ? undefined : metricValue(metrics, 'pdas_rate_limit_unenforced_total');
    const limited = load.outcomes.filter((o) => o.rateLimitHeader === String(rateLimitMax)).length;
    const redisProblems: string[] = [];
    if (counters.length === 0) redisProblems.push('no rate-limit counters of this run in Redis');
    if (unenforced !== 0) redisProblems.push(`pdas_rate_limit_unenforced_total is ${unenforced}`);
    if (limited === 0) redisProblems.push('no answer carried X-RateLimit-Limit');
    checks.push({ name: 'rate limits held in Redis', ok: redisProblems.length === 0, detail: `${counters.length} counters, ${limited} answers with X-RateLimit-Limit ${rateLimitMax}, unenforced ${unenforced}`, problems: redisProblems });

    rows = await auditRows(databaseUrl, loadPrefix);
    report.auditRowCount = rows.filter((row) => row.phase !== 'attempt').length;
    checks.push(checkAudit(load.outcomes, rows));
    checks.push(checkStatuses(load.outcomes));
    checks.push(checkNoServerErrors(load.outcomes));
    checks.push(checkAnswered(load));
    checks.push(checkMemory(sampler.samples, options));

    // A clean stop under no load: SIGTERM, in-flight work finished, exit 0.
    await svc.stop(15_000);
    runningChildren.delete(svc);
    const exitProblems = svc.exitCode === 0 ? [] : [`exit code ${svc.exitCode}, signal ${svc.signal}`];
    checks.push({ name: 'service stopped cleanly on SIGTERM', ok: exitProblems.length === 0, detail: `exit code ${svc.exitCode}`, problems: exitProblems });
    const leaks = svc.scan.leaks;
    checks.push({
      name: 'service log: no error lines, no secrets or identity numbers', ok: svc.scan.errors.length === 0 && leaks.length === 0,
      detail: `${svc.scan.lines} lines, ${svc.scan.warnings} warnings, ${svc.scan.errors.length} errors, ${leaks.length} with a secret or identity number`,
      problems: [...svc.scan.errors.slice(0, 5), ...leaks.slice(0, 5).map((l) => `leak: ${l}`)],
    });
    report.ok = checks.every((c) => c.ok);
    return report;
  } catch (err) {
    failure = err instanceof Error ? err.message : String(err);
    if (service && !service.running) extra.push(`service exited (${service.exitCode ?? service.signal}); last log lines:\n${service.scan.tail.join('\n')}`);
    return report;
  } finally {
    await cleanup.runAll();
    if (cleanup.failures.length > 0) {
      checks.push({ name: 'clean-up', ok: false, detail: `${cleanup.failures.length} steps failed`, problems: cleanup.failures });
      report.ok = false;
    }
    if (failure !== undefined) {
      report.ok = false;
      checks.push({ name: 'run', ok: false, detail: failure, problems: [failure, ...extra] });
    }
    report.summary = summarize(report, options, rows.length);
  }
}

function summarize(report: SoakReport, options: SoakOptions, auditRowCount: number): string {
  const lines: string[] = [];
  const load = report.load;
  lines.push(`SOAK SUMMARY — run ${report.runId}, seed ${options.seed}, EHR ${options.ehr}, planned ${options.durationS} s at ${options.rate} req/s`);
  if (load) {
    const answered = load.outcomes.filter((o) => o.status !== 0);
    const statuses = new Map<number, number>();
    for (const o of load.outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const sorted = answered.map((o) => o.ms).sort((a, b) => a - b);
    const fmt = (ms: number): string => (Number.isNaN(ms) ? '-' : ms.toFixed(1));
    lines.push(`  requests: ${load.outcomes.length + load.notSent} due, ${load.outcomes.length} sent, ${answered.length} answered, ${load.outcomes.length - answered.length} unanswered, ${load.notSent} not sent`);
    lines.push(`  rate: ${(load.outcomes.length / load.elapsedS).toFixed(1)} req/s over ${load.elapsedS.toFixed(1)} s; at most ${load.maxInFlightSeen} in flight`);
    lines.push(`  statuses: ${[...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s === 0 ? 'none' : s}: ${n}`).join(', ')}`);
    lines.push(`  latency ms (all answered): p50 ${fmt(percentile(sorted, 50))}, p90 ${fmt(percentile(sorted, 90))}, p99 ${fmt(percentile(sorted, 99))}, max ${fmt(sorted[sorted.length - 1] ?? NaN)}`);
    const steady = answered.filter((o) => o.at >= options.warmupS).map((o) => o.ms).sort((a, b) => a - b);
    lines.push(`  latency ms after the ${options.warmupS} s warm-up: p50 ${fmt(percentile(steady, 50))}, p99 ${fmt(percentile(steady, 99))}, max ${fmt(steady[steady.length - 1] ?? NaN)}`);
    const slowest = [...answered].sort((a, b) => b.ms - a.ms).slice(0, 3);
    lines.push(`  slowest: ${slowest.map((o) => `${o.label} at ${o.at.toFixed(1)} s: ${fmt(o.ms)} ms`).join('; ')}`);
    for (const kind of ['read', 'write', 'refused'] as const) {
      const ms = answered.filter((o) => o.kind === kind).map((o) => o.ms).sort((a, b) => a - b);
      lines.push(`    ${kind.padEnd(7)} ${String(ms.length).padStart(6)} requests: p50 ${fmt(percentile(ms, 50))}, p99 ${fmt(percentile(ms, 99))}`);
    }
  }
  if (report.samples.length > 0) {
    const first = report.samples[0] as MemorySample;
    const last = report.samples[report.samples.length - 1] as MemorySample;
    const heap = (s: MemorySample): string => (s.heapUsed === undefined ? '?' : (s.heapUsed / MIB).toFixed(1));
    lines.push(`  memory: ${report.samples.length} samples every ${options.sampleMs} ms; RSS ${(first.rss / MIB).toFixed(1)} → ${(last.rss / MIB).toFixed(1)} MiB, heap ${heap(first)} → ${heap(last)} MiB`);
  }
  lines.push(`  audit rows: ${auditRowCount}; start-up 503s before the first normal answer: ${report.startupShed}`);
  lines.push('  checks:');
  for (const c of report.checks) {
    lines.push(`    ${c.ok ? 'PASS' : 'FAIL'}  ${c.name} — ${c.detail}`);
    for (const p of c.problems.slice(0, 10)) lines.push(`          ${p}`);
  }
  lines.push(`  RESULT: ${report.aborted ? 'ABORTED' : report.ok ? 'PASS' : 'FAIL'}`);
  return lines.join('\n');
}
