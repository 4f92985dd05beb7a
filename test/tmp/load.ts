import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { request } from 'undici';
import { BENCH_PATIENT, generateBenchFixtures } from '../../bench/fixtures.js';
import { BenchIssuer } from '../../bench/issuer.js';
import { serviceNodeFlags, SERVICE_ENTRY, buildService } from '../../bench/util.js';

const conns = Number(process.argv[2] ?? 50);
const snapAt = Number(process.argv[3] ?? 0);
const extraFlags = (process.env.FLAGS ?? '').split(' ').filter(Boolean);
buildService();
const fx = await generateBenchFixtures();
const issuer = await BenchIssuer.start();
const key = randomBytes(16).toString('hex');
const sim = spawn(process.execPath, ['--import', 'tsx', 'scripts/ehr-sim.ts'], { env: { ...process.env, EHR_DATA_DIR: fx.ehrDir, DATA_DIR: '/tmp/simstate', EHR_SIM_PORT: '18090', LOG_LEVEL: 'warn' }, stdio: 'inherit' });
const svc = spawn(process.execPath, [...serviceNodeFlags(), ...extraFlags, SERVICE_ENTRY], { cwd: process.cwd(), env: { ...process.env, DATA_DIR: '/tmp/svcstate', EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:18090', PORT: '18091', HOST: '127.0.0.1', METRICS_PORT: '0', AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl, SUBSCRIPTION_KEYS: `bench:${key}`, RATE_LIMIT_MAX: '10000000', LOG_LEVEL: 'warn' }, stdio: 'inherit' });
const token = await issuer.sign(BENCH_PATIENT, 'user/JournalNote-read user/MedicationPrescription-read');
const headers = { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}` };
for (let i = 0; i < 100; i++) {
  try { const r = await request('http://127.0.0.1:18091/health/ready'); await r.body.dump(); if (r.statusCode === 200) break; } catch { /* not yet */ }
  await new Promise((r) => setTimeout(r, 200));
}
const url = 'http://127.0.0.1:18091/patients/journalnotes/';
const first = await request(url, { headers }); const body = await first.body.text(); console.log('status', first.statusCode, body.length);
const peaks: number[] = [];
const timer = setInterval(() => { try { const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${svc.pid}/status`, 'utf8')); if (m) peaks.push(Number(m[1]) / 1024); } catch { /* */ } }, 50);
if (snapAt > 0) setTimeout(() => svc.kill('SIGUSR2'), snapAt * 1000);
const r = await autocannon({ url, connections: conns, duration: Number(process.env.SECONDS ?? 8), headers, timeout: 30 });
clearInterval(timer);
console.log('rps', r.requests.average, 'non2xx', r.non2xx, 'p50', r.latency.p50, 'peak rss', Math.max(...peaks).toFixed(0));
svc.kill('SIGTERM'); sim.kill('SIGTERM'); await issuer.close();
