import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/adapters/ehr-embedded/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/adapters/ehr-simulator/index.js';
import { TestIssuer } from '../support/test-issuer.js';

const KEY = 'shutdown-test-key-0123456789';
const ADULT = '191212121212';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The service as `npm start` runs it, in its own process, so a real SIGTERM can be sent to it. */
describe('graceful shutdown on SIGTERM', () => {
  let dir: string;
  let sim: EhrSimulator;
  let issuer: TestIssuer;
  let child: ChildProcess;
  let base: string;
  const output: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-shutdown-'));
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: 'Europe/Stockholm' });
    sim = await startEhrSimulator({ dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: 'Europe/Stockholm' });
    issuer = await TestIssuer.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', DATA_DIR: path.join(dir, 'data'),
        EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url, AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `test:${KEY}`,
        LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '8000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${base}/health/live`).then((r) => r.ok, () => false);
      if (up) return;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`service did not start:\n${output.join('')}`);
  }, 30_000);

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await sim.close();
    await issuer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, flushes the audit trail and exits 0', async () => {
    const token = await issuer.sign({ patient: ADULT, scope: 'user/JournalNote-read' });
    const headers = { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` };
    expect((await fetch(`${base}/patients/journalnotes/`, { headers })).status).toBe(200);

    sim.faults.delay(1500, { path: /journalnotes/ });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const inFlight = fetch(`${base}/patients/journalnotes/`, { headers: { ...headers, 'x-request-id': 'in-flight-1' } });
    await new Promise((r) => setTimeout(r, 400));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${base}/health/live`).then((r) => r.status, (e: Error) => e.name);
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as unknown[]).length).toBeGreaterThan(0);
    expect(refused).not.toBe(200);
    expect(await exited).toBe(0);
    const trail = await readFile(path.join(dir, 'data', 'audit', 'audit-trail.jsonl'), 'utf8');
    expect(trail).toContain('"requestId":"in-flight-1"');
    expect(output.join('')).toContain('shut down cleanly');
  }, 20_000);
});
