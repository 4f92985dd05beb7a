/**
 * Where the time goes: the service under `node --cpu-prof` (pinned to core 0) while autocannon
 * (core 1) reads one document for a few seconds, then a summary of the profile: self time by
 * package / source folder and the heaviest functions.
 *
 *   node --import tsx bench/profile.ts [small|large] [--xml-http] [--seconds N]
 *   node --import tsx bench/profile.ts some.cpuprofile      (only the summary)
 *
 * The .cpuprofile lands in .data/bench/profiles (open it in Chrome DevTools or speedscope).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { BENCH_PATIENT, generateBenchFixtures } from './fixtures.js';
import { BenchIssuer } from './issuer.js';
import { fmt, freePort, pinned, pinSelf, table, waitFor, write } from './util.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const argv = process.argv.slice(2);
const which = argv.includes('large') ? 'large' : 'small';
const viaHttp = argv.includes('--xml-http');
const secondsAt = argv.indexOf('--seconds');
const SECONDS = secondsAt >= 0 ? Number(argv[secondsAt + 1]) : 8;
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
  const rows = (m: Map<string, number>, n: number): string[][] => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, us]) => [k, fmt(us / 1000), `${fmt((us / total) * 100, 1)} %`]);
  return [
    `busy ${fmt(total / 1000)} ms in ${path.basename(file)}\n`,
    table(['where (self time)', 'ms', 'share'], rows(buckets, 20)),
    '',
    table(['function (self time)', 'ms', 'share'], rows(functions, top)),
  ].join('\n');
}

async function main(): Promise<void> {
  pinSelf(1);
  const fixtures = await generateBenchFixtures(ROOT);
  const issuer = await BenchIssuer.start();
  const key = randomBytes(24).toString('hex');
  const headers = {
    'ocp-apim-subscription-key': key,
    authorization: `Bearer ${await issuer.sign(BENCH_PATIENT, 'user/JournalNote-read user/MedicationPrescription-read')}`,
  };
  const profiles = path.join(ROOT, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const before = new Set(readdirSync(profiles));
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    HOST: '127.0.0.1', EHR_DATA_DIR: fixtures.ehrDir, AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl,
    SUBSCRIPTION_KEYS: `bench:${key}`, RATE_LIMIT_MAX: '10000000', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
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
  const log = openSync(path.join(ROOT, 'logs', 'profile.log'), 'w');
  const [command, args] = pinned(0, process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--import', 'tsx', 'src/server.ts']);
  const server = spawn(command, args, { env: { ...env, PORT: String(port), DATA_DIR: dataDir }, stdio: ['ignore', log, log] });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor('service', async () => (await request(`${origin}/health/live`)).statusCode === 200);
  const url = origin + (which === 'large' ? '/patients/journalnotes/' : '/patients/medications/');
  const r = await autocannon({ url, connections: which === 'large' ? 10 : 50, duration: SECONDS, headers });
  write(`${which}${viaHttp ? ' via xml-http' : ''}: ${fmt(r.requests.total / r.duration)} req/s, p99 ${fmt(r.latency.p99, 1)} ms, non-2xx ${r.non2xx}\n`);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  for (const c of children) c.kill('SIGTERM');
  await issuer.close();
  const fresh = readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
  for (const f of fresh) write(summarise(path.join(profiles, f)));
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
