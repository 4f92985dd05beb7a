import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';
import { TestIssuer } from '../support/test-issuer.js';
import { pollUntil } from '../support/poll.js';
import { TestPki } from '../support/test-pki.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { inheritedEnv } from '../support/compile-cache.js';
import { opensslMissing } from '../support/requirements.js';

const ADULT = '191212121212';

const KEY = 'mtls-test-subscription-key-0123';
const TIMEOUT_MS = 4000;

describe.skipIf(opensslMissing())('issue 15: mutual TLS to the EHR', () => {
  let dir: string;
  let ehrDataDir: string;
  let pki: TestPki;
  let otherPki: TestPki;
  let sim: EhrSimulator;
  let issuer: TestIssuer;
  let token: string;
  const open: Runtime[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-mtls-'));
    ehrDataDir = path.join(dir, 'ehr');
    await generateDemoData(ehrDataDir, { now: Date.now(), zone: 'Europe/Stockholm' });
    pki = new TestPki(dir, 'region-ca');
    otherPki = new TestPki(dir, 'other-ca');
    const server = pki.server('ehr');
    sim = await startEhrSimulator({
      dataDir: ehrDataDir, stateFile: path.join(dir, 'sim-state.json'), zone: 'Europe/Stockholm',
      tls: { cert: server.cert, key: server.key, clientCa: pki.ca },
    });
    issuer = await TestIssuer.start();
    token = await issuer.sign({ patient: ADULT, scope: 'user/Appointment-read' });
  });

  afterAll(async () => {
    for (const runtime of open) await runtime.close();
    await sim?.close();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The service on xml-http towards the simulator with these EHR_TLS_* settings, and a read through it. */
  async function serviceWith(env: Record<string, string>): Promise<{ read: () => Promise<{ status: number; headers: Record<string, unknown>; body: unknown; ms: number }>; lines: string[] }> {
    const lines: string[] = [];
    const config = loadConfig({
      DATA_DIR: path.join(dir, `data-${open.length}`), PORT: '0', LOG_LEVEL: 'info', AUTH_ISSUER: issuer.issuer, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none',
      SUBSCRIPTION_KEYS: `test:${KEY}`, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url, EHR_TIMEOUT_MS: String(TIMEOUT_MS), ...env,
    });
    const runtime = await compose(config, createLogger('info', { write: (l: string) => void lines.push(l) }));
    open.push(runtime);
    const read = async () => {
      const started = Date.now();
      const res = await runtime.app.inject({
        method: 'GET', url: '/patients/appointments/', headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` },
      });
      return { status: res.statusCode, headers: res.headers, body: res.json(), ms: Date.now() - started };
    };
    return { read, lines };
  }

  async function readThrough(env: Record<string, string>): Promise<{ status: number; body: unknown; ms: number; log: string }> {
    const service = await serviceWith(env);
    const res = await service.read();
    return { ...res, log: service.lines.join('') };
  }

  it('issue 15 item 2: reads through the EHR that requires a client certificate, presenting EHR_TLS_CERT_FILE', async () => {
    expect(sim.url).toMatch(/^https:/);
    const client = pki.client('service');
    const res = await readThrough({ EHR_TLS_CA_FILE: pki.caFile, EHR_TLS_CERT_FILE: client.certFile, EHR_TLS_KEY_FILE: client.keyFile });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });

  it('issue 15 item 2: without a client certificate the read is 502 within the deadline, and the log says what to check', async () => {
    const res = await readThrough({ EHR_TLS_CA_FILE: pki.caFile });
    expect(res.status).toBe(502);
    // 502, not the 504 of the EHR deadline: the failed handshake is reported, not waited out.
    expect(res.body).toEqual({ statusCode: 502, message: expect.any(String) });
    expect(res.log).toMatch(/EHR TLS handshake failed \([A-Z_0-9]+\): the EHR (?:refused|closed).*client certificate; check EHR_TLS_CERT_FILE/);
    expect(res.log).not.toContain(ADULT);
  });

  it('issue 15 item 2: a client certificate of another CA is refused by the EHR: 502, the same log line', async () => {
    const stranger = otherPki.client('stranger');
    const res = await readThrough({ EHR_TLS_CA_FILE: pki.caFile, EHR_TLS_CERT_FILE: stranger.certFile, EHR_TLS_KEY_FILE: stranger.keyFile });
    expect(res.status).toBe(502);
    expect(res.log).toMatch(/EHR TLS handshake failed \([A-Z_0-9]+\): the EHR (?:refused|closed).*client certificate; check EHR_TLS_CERT_FILE/);
  });

  it('issue 15 item 2: an EHR certificate the service does not trust is 502, and the log names EHR_TLS_CA_FILE', async () => {
    const client = pki.client('service-2');
    const res = await readThrough({ EHR_TLS_CA_FILE: otherPki.caFile, EHR_TLS_CERT_FILE: client.certFile, EHR_TLS_KEY_FILE: client.keyFile });
    expect(res.status).toBe(502);
    expect(res.log).toMatch(/EHR TLS handshake failed \([A-Z_0-9]+\): the EHR's certificate is not trusted; check EHR_TLS_CA_FILE/);
  });

  it('issue 15 item 2: certificate failures count against the EHR: after five the breaker answers 503 with Retry-After, never a hang', async () => {
    const service = await serviceWith({ EHR_TLS_CA_FILE: pki.caFile });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await service.read()).status);
    expect(statuses).toEqual([502, 502, 502, 502, 502]);
    const open = await service.read();
    expect(open.status).toBe(503);
    expect(open.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('takes a rotated client certificate without a restart: EHR_TLS_CERT_FILE and _KEY_FILE rewritten, new connections present it', async () => {
    // Files the service was started with: first a pair the EHR refuses, then rewritten with one it trusts.
    const refused = otherPki.client('before-rotation');
    const trusted = pki.client('after-rotation');
    const certFile = path.join(dir, 'rotating.crt');
    const keyFile = path.join(dir, 'rotating.key');
    await copyFile(refused.certFile, certFile);
    await copyFile(refused.keyFile, keyFile);
    const service = await serviceWith({ EHR_TLS_CA_FILE: pki.caFile, EHR_TLS_CERT_FILE: certFile, EHR_TLS_KEY_FILE: keyFile });
    expect((await service.read()).status).toBe(502);

    // Half a rotation (a key that is not the certificate's) is not taken: the service says so and keeps the pair it has.
    // The service looks at the files once a second.
    const logged = (text: string) => pollUntil(async () => service.lines.some((l) => l.includes(text)), (seen) => seen, 8000);
    await copyFile(trusted.keyFile, keyFile);
    expect(await logged('do not make a usable client certificate')).toBe(true);
    await copyFile(trusted.certFile, certFile);
    expect(await logged('EHR client certificate reloaded')).toBe(true);
    expect((await service.read()).status).toBe(200);
    expect(service.lines.join('')).not.toContain(trusted.key.toString());
  });

  it('issue 15 item 2: `npm run ehr-sim` serves HTTPS and requires a client certificate with EHR_SIM_TLS_*', async () => {
    const server = pki.server('ehr-script');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/ehr-sim.ts'], {
      env: {
        ...inheritedEnv(), EHR_SIM_PORT: '0', EHR_DATA_DIR: ehrDataDir, DATA_DIR: path.join(dir, 'sim-script'), LOG_LEVEL: 'info',
        EHR_SIM_TLS_CERT_FILE: server.certFile, EHR_SIM_TLS_KEY_FILE: server.keyFile, EHR_SIM_TLS_CLIENT_CA_FILE: pki.caFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`simulator did not start: ${out}`)), 15_000);
        const seen = (d: Buffer): void => {
          out += d.toString();
          const found = /"url":"(https:\/\/[^"]+)"/.exec(out)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(found);
          }
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
      });
      const client = pki.client('script-client');
      const withCert = new Agent({ connect: { ca: pki.ca, cert: client.cert, key: client.key } });
      const without = new Agent({ connect: { ca: pki.ca } });
      try {
        const ok = await request(`${url}/ehr/v1/relationships/${ADULT}`, { dispatcher: withCert });
        expect(ok.statusCode).toBe(200);
        expect(await ok.body.text()).toContain('<');
        await expect(request(`${url}/ehr/v1/relationships/${ADULT}`, { dispatcher: without }).then((r) => r.body.text())).rejects.toThrow();
      } finally {
        await Promise.all([withCert.close(), without.close()]);
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
