/**
 * Where the time goes: the service under `node --cpu-prof` (pinned to core 0) while autocannon
 * (core 1) reads one document for a few seconds, then a summary of the profile: self time by
 * package / source folder and the heaviest functions.
 *
 *   node --import tsx bench/profile.ts [small|large|fhir|appointments|journal] [--notes] [--xml-http] [--seconds N] [--alloc|--promoted] [--rate N]
 *   node --import tsx bench/profile.ts some.cpuprofile      (only the summary)
 *
 * With --alloc it samples allocations instead (bench/alloc-probe.mjs, collected objects included,
 * after a warm-up) and prints bytes allocated per request by package and function: the garbage
 * that drives collection pauses and peak RSS. With --promoted, only what outlived the young
 * generation's collections (promoted to the old generation, whether it died there later or still
 * lives): what fills the old generation and so sets how often a full collection comes.
 *
 * The profile lands in .data/bench/profiles (open it in Chrome DevTools or speedscope).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { BENCH_PATIENT, DEMO_PATIENT, generateBenchFixtures, NOTES_PATIENT } from './fixtures.js';
import { BenchIssuer } from './issuer.js';
import { openLoop } from './open-loop.js';
import {
  buildService, fmt, freePort, pinned, pinSelf, SERVICE_ENTRY, serviceNodeFlags, table, waitFor, write,
} from './util.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const argv = process.argv.slice(2);
const which = (['large', 'fhir', 'appointments', 'journal'] as const).find((w) => argv.includes(w)) ?? 'small';
/**
 * `fhir`: Tolvan's journal as the FHIR API's Composition search (bench/run.ts part 10), with `--notes` the
 * 100-note journal (10d); `appointments` and `journal`: his COS reads (2k, 2l).
 */
const FHIR_PATIENT = argv.includes('--notes') ? NOTES_PATIENT : DEMO_PATIENT;
const PATHS = {
  small: '/patients/medications/', large: '/patients/journalnotes/', fhir: '/fhir/Composition', appointments: '/patients/appointments/', journal: '/patients/journalnotes/',
} as const;
const viaHttp = argv.includes('--xml-http');
const secondsAt = argv.indexOf('--seconds');
const SECONDS = secondsAt >= 0 ? Number(argv[secondsAt + 1]) : 8;
const PROMOTED = argv.includes('--promoted');
const ALLOC = argv.includes('--alloc') || PROMOTED;
const rateAt = argv.indexOf('--rate');
/** `--rate N`: Poisson arrivals at N req/s (bench/open-loop.ts) instead of autocannon's closed loop. */
const RATE = rateAt >= 0 ? Number(argv[rateAt + 1]) : undefined;
const WARMUP_SECONDS = 2;
const ROOT = path.resolve('.data/bench');

/** Which bucket a frame's time goes to: a package, a source folder, or the engine itself. */
function bucketOf(url: string, name: string): string {
  if (name === '(garbage collector)') return '(GC)';
  if (name === '(program)' || name === '(idle)') return name;
  if (url === '') return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  const src = /\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (src) return src[1] ?? url;
  if (url.startsWith('node:')) return url.split('/')[0] ?? url;
  return url.replace(/^.*\/(bench|scripts)\//, '$1/');
}

/** The `n` largest entries of `m` as table rows: key, the amount as `show` writes it, share of `total`. */
function topRows(m: Map<string, number>, n: number, total: number, show: (amount: number) => string): string[][] {
  return [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([key, amount]) => [key, show(amount), `${fmt((amount / total) * 100, 1)} %`]);
}

export function summarise(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') continue;
    total += us;
    const bucket = bucketOf(url, functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const key = `${functionName || '(anonymous)'} ${bucket}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const rows = (m: Map<string, number>, n: number): string[][] => topRows(m, n, total, (us) => fmt(us / 1000));
  return [
    `busy ${fmt(total / 1000)} ms in ${path.basename(file)}\n`,
    table(['where (self time)', 'ms', 'share'], rows(buckets, 20)),
    '',
    table(['function (self time)', 'ms', 'share'], rows(functions, top)),
  ].join('\n');
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Bytes allocated per request, by bucket and function, from a sampling heap profile. */
export function summariseAllocations(file: string, requests: number, top = 25): string {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  let total = 0;
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number): void => void m.set(k, (m.get(k) ?? 0) + n);
  const visit = (node: HeapNode): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    if (node.selfSize > 0) {
      total += node.selfSize;
      const bucket = bucketOf(url, functionName);
      add(buckets, bucket, node.selfSize);
      add(functions, `${functionName || '(anonymous)'} ${bucket}:${lineNumber + 1}`, node.selfSize);
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  const rows = (m: Map<string, number>, n: number): string[][] => topRows(m, n, total, (bytes) => fmt(bytes / requests / 1024, 1));
  return [
    `allocated ${fmt(total / 2 ** 20)} MiB over ${requests} requests: ${fmt(total / requests / 1024, 1)} KiB per request (${path.basename(file)})\n`,
    table(['where (allocated here)', 'KiB/req', 'share'], rows(buckets, 20)),
    '',
    table(['function (allocated here)', 'KiB/req', 'share'], rows(functions, top)),
  ].join('\n');
}

async function main(): Promise<void> {
  pinSelf(1);
  buildService();
  const fixtures = await generateBenchFixtures(ROOT);
  const issuer = await BenchIssuer.start();
  const key = randomBytes(24).toString('hex');
  const headers = {
    'ocp-apim-subscription-key': key,
    authorization: `Bearer ${which === 'fhir'
      ? await issuer.sign(FHIR_PATIENT, 'patient/Composition.rs')
      : which === 'appointments' || which === 'journal'
        ? await issuer.sign(DEMO_PATIENT, 'user/Appointment-read user/JournalNote-read')
        : await issuer.sign(BENCH_PATIENT, 'user/JournalNote-read user/MedicationPrescription-read')}`,
  };
  const profiles = path.join(ROOT, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const before = new Set(readdirSync(profiles));
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    HOST: '127.0.0.1', EHR_DATA_DIR: fixtures.ehrDir, AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl,
    SUBSCRIPTION_KEYS: `bench:${key}`, RATE_LIMIT_MAX: '10000000', LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    // As bench/run.ts: every start outside demo mode names its release policy; the bench's reads have none.
    RELEASE_POLICY_FILE: 'none',
  };
  const children = [];
  if (viaHttp) {
    const simPort = await freePort();
    const [c, a] = pinned(1, process.execPath, ['--import', 'tsx', 'scripts/ehr-sim.ts']);
    const simDir = path.join(ROOT, 'state', 'profile-sim');
    rmSync(simDir, { recursive: true, force: true });
    const sim = spawn(c, a, { env: { ...env, EHR_SIM_PORT: String(simPort), DATA_DIR: simDir, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
    children.push(sim);
    Object.assign(env, { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: `http://127.0.0.1:${simPort}` });
    await waitFor('simulator', async () => (await request(`http://127.0.0.1:${simPort}/ehr/v1/relationships/000000000000`)).statusCode === 200);
  }
  const port = await freePort();
  const dataDir = path.join(ROOT, 'state', 'profile');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.join(ROOT, 'logs'), { recursive: true });
  const logFile = path.join(ROOT, 'logs', 'profile.log');
  const log = openSync(logFile, 'w');
  const profiling = ALLOC ? ['--import', './bench/alloc-probe.mjs'] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
  const [command, args] = pinned(0, process.execPath, [...serviceNodeFlags(), ...profiling, SERVICE_ENTRY]);
  const server = spawn(command, args, {
    env: { ...env, PORT: String(port), METRICS_PORT: '0', DATA_DIR: dataDir, ...(ALLOC ? { BENCH_ALLOC_PROFILE_DIR: profiles } : {}), ...(PROMOTED ? { BENCH_ALLOC_PROMOTED_ONLY: '1' } : {}) },
    stdio: ['ignore', log, log],
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor('service', async () => (await request(`${origin}/health/live`)).statusCode === 200, 30_000, { child: server, log: logFile });
  const url = origin + PATHS[which];
  const connections = which === 'large' ? Number(process.env.BENCH_PROFILE_CONNECTIONS ?? 10) : 50;
  if (ALLOC) {
    await autocannon({ url, connections, duration: WARMUP_SECONDS, headers });
    server.kill('SIGUSR2');
  }
  const r = RATE === undefined
    ? await autocannon({ url, connections, duration: SECONDS, headers })
    : await openLoop(origin, new URL(url).pathname, headers, RATE, SECONDS, WARMUP_SECONDS).then((o) => ({
      requests: { total: o.completed }, duration: SECONDS, latency: { p99: o.p99Ms }, non2xx: o.non2xx,
    }));
  write(`${which}${viaHttp ? ' via xml-http' : ''}${RATE === undefined ? '' : ` (open loop at ${RATE} req/s)`}: ${fmt(r.requests.total / r.duration)} req/s, p99 ${fmt(r.latency.p99, 1)} ms, non-2xx ${r.non2xx}\n`);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  for (const c of children) c.kill('SIGTERM');
  await issuer.close();
  const fresh = readdirSync(profiles).filter((f) => !before.has(f));
  for (const f of fresh.filter((name) => name.endsWith('.cpuprofile'))) write(summarise(path.join(profiles, f)));
  for (const f of fresh.filter((name) => name.endsWith('.heapprofile'))) write(summariseAllocations(path.join(profiles, f), r.requests.total));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]?.endsWith('.cpuprofile')) {
    write(summarise(path.resolve(process.argv[2])));
  } else {
    main().then(() => process.exit(0), (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
  }
}
