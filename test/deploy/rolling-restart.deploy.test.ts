/**
 * Issue 38: the image as a region runs it (docs/operations.md#scaling-out). Three containers of it
 * with production settings (a token issuer and subscription keys, the audit trail in one PostgreSQL
 * database, rate limits in one Redis, the EHR over HTTP: the simulator, on loopback) behind HAProxy,
 * which routes on /health/ready. Under a paced load of reads and writes the containers are restarted
 * one at a time (`podman stop -t 30`, then start, each back and routed before the next), and every
 * request must still be answered as it deserves and audited exactly once; then a burst under one key
 * shows one rate limit shared by the three (its refusals tallied, the first on each instance audited), and each instance ends ready.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../bench/util.js';
import { runLoad, sendPlanned, type Outcome } from '../../scripts/soak/load.js';
import { ALL_SCOPES, PEOPLE } from '../../scripts/soak/plan.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { runScript } from '../support/run-script.js';
import { TestIssuer } from '../support/test-issuer.js';
import { runCleanup, type CleanupStep } from './support/cleanup.js';
import { Haproxy, type ServerStats } from './support/haproxy.js';
import { Instances } from './support/instances.js';
import { auditRows, createDatabase, databaseUrlFor, adminDatabaseUrl, deleteCounters, dropDatabase, redisUrl } from './support/stores.js';
import { auditProblems, failure, openBooking, Traffic } from './support/traffic.js';

const ZONE = 'Europe/Stockholm';
const RATE_LIMIT_MAX = 30;
const RATE_LIMIT_WINDOW_MS = 10_000;
/** The load, 20 requests a second, is spread over 12 subscription names: under 2 a second each, 17 of the 30 a window allows. */
const LOAD_RATE = 20;
const LOAD_KEYS = 12;
const REQUEST_TIMEOUT_MS = 20_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(inject('deploySkip') !== '')('three instances of the image behind HAProxy', () => {
  const runId = randomBytes(4).toString('hex');
  const prefix = `deploy-${runId}-`;
  const names = [...Array.from({ length: LOAD_KEYS }, (_, i) => `deploy${runId}load${i}`), `deploy${runId}burst`];
  const keys = new Map(names.map((name) => [name, randomBytes(18).toString('hex')]));
  const keyOf = (name: string): string => keys.get(name) as string;
  const database = `pdas_deploy_${runId}`;
  const cleanup: CleanupStep[] = [];
  const sent: Outcome[] = [];
  let instances: Instances;
  let haproxy: Haproxy;
  let traffic: Traffic;
  let booking: string;
  let sim: EhrSimulator;
  const keyFiles = { chain: '' };

  const routed = async (name: string): Promise<string | undefined> => (await haproxy.servers()).get(name)?.status;
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) if (await check().catch(() => false)) return;
    throw new Error(`${what}: not within ${timeoutMs} ms`);
  };

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-deploy-'));
    cleanup.push(['remove the temporary folder', () => rm(dir, { recursive: true, force: true })]);
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: ZONE });
    sim = await startEhrSimulator({ dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: ZONE });
    cleanup.push(['stop the EHR simulator', () => sim.close()]);
    const issuer = await TestIssuer.start();
    cleanup.push(['stop the token issuer', () => issuer.close()]);
    await createDatabase(database);
    cleanup.push([`drop database ${database}`, () => dropDatabase(database)]);
    cleanup.push(['delete the rate-limit counters', () => deleteCounters(`deploy${runId}`)]);

    // The secrets the service reads from files, as files from a secret store, as deploy/ mounts them:
    // the chain key (docs/operations.md#the-chain-key), and one cursor and FHIR id secret for all
    // instances, as docs/fhir-api.md#settings asks (else each would make its own in its DATA_DIR).
    const secretFile = async (name: string, text: string): Promise<string> => {
      const file = path.join(dir, name);
      await writeFile(file, `${text}\n`, { mode: 0o600 });
      return file;
    };
    const chainKeyFile = await secretFile('audit-chain-key', `deploy-${runId}:${randomBytes(32).toString('hex')}`);
    keyFiles.chain = chainKeyFile;
    const ports: Array<[number, number]> = [];
    for (let i = 0; i < 3; i++) ports.push([await freePort(), await freePort()]);
    instances = new Instances(inject('deployImage'), runId, ports, {
      AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url, EHR_TIMEZONE: ZONE,
      REDIS_URL: redisUrl(), RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), RATE_LIMIT_WINDOW_MS: String(RATE_LIMIT_WINDOW_MS),
      SHUTDOWN_TIMEOUT_MS: '20000', LOG_LEVEL: 'info',
      // Required outside demo mode (issue 52 item 18); the image's example runs in bare-base.deploy.test.ts's demo.
      RELEASE_POLICY_FILE: 'none',
    }, {
      DATABASE_URL: databaseUrlFor(adminDatabaseUrl(), database),
    }, {
      SUBSCRIPTION_KEYS_FILE: await secretFile('subscription-keys', names.map((n) => `${n}:${keyOf(n)}`).join('\n')),
      AUDIT_CHAIN_KEY_FILE: chainKeyFile,
      FHIR_ID_SECRET_FILE: await secretFile('fhir-id-secret', randomBytes(24).toString('hex')),
      ACCESS_LOG_CURSOR_SECRET_FILE: await secretFile('access-log-cursor-secret', randomBytes(24).toString('hex')),
    });
    cleanup.push(['remove the containers, their volumes and secrets', () => instances.removeAll()]);
    await instances.createSecrets();
    for (const instance of instances.list) await instances.create(instance);
    for (const instance of instances.list) {
      if (!(await instances.ready(instance)).ready) throw new Error(`${instance.name} did not become ready\n${await instances.report(instance)}`);
    }
    haproxy = await Haproxy.start(dir, await freePort(), await freePort(), instances.list.map((i) => ({ name: i.name, port: i.port })));
    cleanup.push(['stop HAProxy', () => haproxy.stop()]);
    await until('HAProxy routes to all three', async () => [...(await haproxy.servers()).values()].filter((s) => s.status === 'UP').length === 3, 30_000);

    traffic = new Traffic(await issuer.sign({ patient: PEOPLE.adult, scope: ALL_SCOPES }));
    const pool = new Pool(haproxy.origin, { connections: 2 });
    const appointments = await pool.request({ method: 'GET', path: '/patients/appointments/', headers: traffic.headers(keyOf(names[0] as string)) });
    const found = openBooking(await appointments.body.json());
    if (found === undefined) throw new Error('the demo data has no booking in its arrival window now');
    booking = found;
    // The booking arrived and paid once, so that the load's writes answer OK or INFO (already done).
    sent.push(await sendPlanned(pool, traffic.arrival(keyOf(names[0] as string), booking), `${prefix}s-1`, REQUEST_TIMEOUT_MS, 0));
    sent.push(await sendPlanned(pool, traffic.payment(keyOf(names[0] as string), booking), `${prefix}s-2`, REQUEST_TIMEOUT_MS, 0));
    await pool.close();
  }, 180_000);

  afterAll(async () => {
    expect(await runCleanup(cleanup)).toEqual([]);
  }, 240_000);

  it('answers and audits every request while the containers restart one at a time (podman stop -t 30, start, ready, routed)', async () => {
    // Slow EHR answers for two of the reads, so that requests are in flight at each SIGTERM, as in production.
    sim.faults.delay(250, { path: /journalnotes|medications/ });
    const stopLoad = new AbortController();
    let n = 0;
    const loadStarted = performance.now();
    const sinceLoad = (): number => (performance.now() - loadStarted) / 1000;
    const load = runLoad({
      api: haproxy.origin, rate: LOAD_RATE, durationS: 240, maxInFlight: 64, requestTimeoutMs: REQUEST_TIMEOUT_MS, requestIdPrefix: `${prefix}l-`,
      next: () => { n += 1; return traffic.mixed(keyOf(names[n % LOAD_KEYS] as string), n, booking); }, signal: stopLoad.signal,
    });
    const restarts: string[] = [];
    const signalled: number[] = [];
    // However the restarts end, the load stops with them.
    try {
      await sleep(3000);
      for (const instance of instances.list) {
        const started = Date.now();
        signalled.push(sinceLoad());
        const stopped = await instances.stop(instance);
        await instances.start(instance);
        if (!(await instances.ready(instance)).ready) throw new Error(`${instance.name} was not ready again within 60 s\n${await instances.report(instance)}`);
        const ready = Date.now() - started;
        await until(`HAProxy routes to ${instance.name} again`, async () => (await routed(instance.name)) === 'UP', 30_000);
        restarts.push(`${instance.name}: stopped in ${stopped.ms} ms (exit ${stopped.exitCode}), ready ${ready} ms after the stop began, routed after ${Date.now() - started} ms`);
        expect(stopped.exitCode, `${instance.name} exited ${stopped.exitCode} on SIGTERM\n${await instances.report(instance)}`).toBe(0);
        await sleep(2000);
      }
      // At least 20 s of load, whatever the restarts took.
      await sleep(Math.max(1000, 20_000 - sinceLoad() * 1000));
    } finally {
      stopLoad.abort();
    }
    const result = await load;
    sim.faults.clear();
    sent.push(...result.outcomes);
    const inFlight = signalled.map((t) => result.outcomes.filter((o) => o.at <= t && o.at + o.ms / 1000 > t).length);
    const servers = await haproxy.servers();
    const sum = (pick: (s: ServerStats) => number): number => [...servers.values()].reduce((total, s) => total + pick(s), 0);
    console.log(`test:deploy: ${result.outcomes.length} requests in ${result.elapsedS.toFixed(1)} s through HAProxy; in flight at each SIGTERM: `
      + `${inFlight.join(', ')}; HAProxy sent ${sum((s) => s.redispatches)} requests refused by a stopping instance to another (${sum((s) => s.retries)} retried on the same one)\n  ${restarts.join('\n  ')}`);

    expect(result.notSent).toBe(0);
    expect(result.outcomes.length).toBeGreaterThan(LOAD_RATE * 15);
    expect(result.outcomes.filter((o) => o.kind === 'write').length).toBeGreaterThan(LOAD_RATE * 2);
    expect(sent.filter((o) => o.status !== o.expect || o.problem !== undefined).map(failure)).toEqual([]);
    for (const instance of instances.list) expect((await instances.logs(instance)).match(/"msg":"shut down cleanly"/g)?.length, instance.name).toBe(1);
    expect([...servers.values()].map((s) => s.answered2xx > 0 && s.answered5xx === 0)).toEqual([true, true, true]);

    const rows = await auditRows(databaseUrlFor(adminDatabaseUrl(), database), prefix);
    expect(auditProblems(sent, rows)).toEqual([]);
    expect(rows.filter((r) => r.phase !== 'attempt').length).toBe(sent.length);
  }, 300_000);

  it('shares one rate limit across the three: a burst of three times RATE_LIMIT_MAX under one key gets RATE_LIMIT_MAX answers', async () => {
    const before = await haproxy.servers();
    const pool = new Pool(haproxy.origin, { connections: 10 });
    const request = traffic.read(keyOf(`deploy${runId}burst`), 2);
    const burst: Outcome[] = [];
    // Refusals are tallied by the clock's minute (src/http/refusal-tally.ts): a burst across a minute's end is
    // audited once in each minute on each instance (6 rows of 3 in a CI run at 12:45). Begun where it ends within one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 60_000 - RATE_LIMIT_WINDOW_MS / 2) await sleep(60_000 - intoMinute + 200);
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, async (_, worker) => {
      for (let i = worker; i < 3 * RATE_LIMIT_MAX; i += 10) burst.push(await sendPlanned(pool, request, `${prefix}b-${i}`, REQUEST_TIMEOUT_MS, 0));
    }));
    const took = Date.now() - started;
    await pool.close();
    const after = await haproxy.servers();
    const reached = [...after].map(([name, s]) => s.answered2xx + s.answered4xx - ((before.get(name)?.answered2xx ?? 0) + (before.get(name)?.answered4xx ?? 0)));
    console.log(`test:deploy: burst of ${burst.length} in ${took} ms; per instance ${reached.join(', ')}`);

    // All in one window, or the count would be of two.
    expect(took).toBeLessThan(RATE_LIMIT_WINDOW_MS / 2);
    expect(reached.every((count) => count > 0)).toBe(true);
    expect(burst.filter((o) => o.status === 200).length).toBe(RATE_LIMIT_MAX);
    expect(burst.filter((o) => o.status === 429).length).toBe(2 * RATE_LIMIT_MAX);
    expect(burst.filter((o) => o.rateLimitHeader !== String(RATE_LIMIT_MAX)).map(failure)).toEqual([]);
    const rows = await auditRows(databaseUrlFor(adminDatabaseUrl(), database), `${prefix}b-`);
    const served = burst.filter((o) => o.status !== 429);
    const refused = new Set(burst.filter((o) => o.status === 429).map((o) => o.requestId));
    expect(auditProblems(served, rows.filter((r) => !refused.has(r.requestId)))).toEqual([]);
    // Refusals by the rate limit are tallied, not audited one by one (THREATS 58, issue 44 item 4): the
    // first of a kind in a minute is audited on each instance, the rest counted in its log.
    const refusalRows = rows.filter((r) => refused.has(r.requestId));
    expect(refusalRows.every((r) => r.status === 429 && r.phase !== 'attempt')).toBe(true);
    expect(refusalRows.length).toBeGreaterThan(0);
    expect(refusalRows.length).toBeLessThanOrEqual(instances.list.length);
  }, 120_000);

  it('ends with every instance ready, routed, healthy by the image\'s own HEALTHCHECK, and nothing in its DATA_DIR', async () => {
    for (const instance of instances.list) {
      expect((await instances.ready(instance, 10_000)).ready, instance.name).toBe(true);
      expect(await routed(instance.name), instance.name).toBe('UP');
      expect(await instances.healthcheck(instance), instance.name).toBe(0);
      // With PostgreSQL and every secret given, an instance keeps no state of its own: an emptyDir will do for DATA_DIR.
      expect(await instances.dataDirEntries(instance), instance.name).toEqual([]);
    }
  });

  it('issue 44 item 6: leaves one keyed chain, which verifies against the signed heads every instance logged, each start and stop', async () => {
    const heads = path.join(path.dirname(keyFiles.chain), 'heads.log');
    await writeFile(heads, (await Promise.all(instances.list.map((i) => instances.logs(i)))).join('\n'));
    const verify = await runScript('audit.ts', ['--verify', '--key-file', keyFiles.chain, '--head', heads], { DATABASE_URL: databaseUrlFor(adminDatabaseUrl(), database) });
    console.log(`test:deploy: ${verify.stdout.trim().split('\n').join('; ')}`);
    expect([verify.code, verify.stderr]).toEqual([0, '']);
    expect(verify.stdout).toMatch(new RegExp(`^Keyed with deploy-${runId} \\(\\d+ records\\)\\.$`, 'm'));
    // At each instance's two starts and its stop, at least: nine heads, every one holding its record's hash.
    const [, matched, given] = /^Signed heads: (\d+) of (\d+) found holding their hash\.$/m.exec(verify.stdout) ?? [];
    expect(Number(given)).toBeGreaterThanOrEqual(9);
    expect(matched).toBe(given);
  }, 60_000);
});
