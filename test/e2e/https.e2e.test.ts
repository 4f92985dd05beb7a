import { copyFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type ConnectionOptions } from 'node:tls';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';
import { TestIssuer } from '../support/test-issuer.js';
import { TestPki, type IssuedCertificate } from '../support/test-pki.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { opensslMissing } from '../support/requirements.js';

const ADULT = '191212121212';
const KEY = 'https-test-subscription-key-0123';

interface Service {
  runtime: Runtime;
  origin: string;
  port: number;
  logLines: string[];
}

async function startService(dir: string, issuer: TestIssuer, env: Record<string, string>): Promise<Service> {
  const logLines: string[] = [];
  const config = loadConfig({
    DATA_DIR: path.join(dir, `data-${Math.random().toString(36).slice(2)}`), PORT: '0', LOG_LEVEL: 'debug',
    AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `test:${KEY}`, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none', ...env,
  });
  const runtime = await compose(config, createLogger('debug', { write: (l: string) => void logLines.push(l) }));
  const origin = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  return { runtime, origin, port: Number(new URL(origin).port), logLines };
}

/** A TLS handshake only: what the server presents, or why it refused. */
function handshake(port: number, options: ConnectionOptions): Promise<{ fingerprint256: string; protocol: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...options }, () => {
      const result = { fingerprint256: socket.getPeerCertificate().fingerprint256, protocol: socket.getProtocol() };
      socket.end();
      resolve(result);
    });
    socket.once('error', reject);
  });
}

describe.skipIf(opensslMissing())('issue 15: HTTPS towards callers', () => {
  let dir: string;
  let pki: TestPki;
  let issuer: TestIssuer;
  let service: Service;
  let certFile: string;
  let keyFile: string;
  let token: string;

  const read = async (agent: Agent, origin = service.origin) => {
    const res = await request(`${origin}/patients/appointments/`, {
      dispatcher: agent, headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-https-'));
    pki = new TestPki(dir);
    const first = pki.server('api-1');
    certFile = path.join(dir, 'live.crt');
    keyFile = path.join(dir, 'live.key');
    copyFileSync(first.certFile, certFile);
    copyFileSync(first.keyFile, keyFile);
    issuer = await TestIssuer.start();
    token = await issuer.sign({ patient: ADULT, scope: 'user/Appointment-read' });
    service = await startService(dir, issuer, { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
  });

  afterAll(async () => {
    await service?.runtime.close();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('issue 15 item 1: reads patient data over HTTPS, with HSTS on the answer', async () => {
    expect(service.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const agent = new Agent({ connect: { ca: pki.ca } });
    try {
      const res = await read(agent);
      expect(res.status).toBe(200);
      expect(Array.isArray(JSON.parse(res.body))).toBe(true);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await agent.close();
    }
  });

  it('issue 15 item 1: speaks TLS 1.2 with a forward-secret AEAD suite, refuses TLS 1.1 and other TLS 1.2 suites', async () => {
    const tls12 = await handshake(service.port, { ca: pki.ca, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
    expect(tls12.protocol).toBe('TLSv1.2');
    expect((await handshake(service.port, { ca: pki.ca })).protocol).toBe('TLSv1.3');
    // The client is made willing (security level 0); the server must be the one that says no.
    await expect(handshake(service.port, { ca: pki.ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).rejects.toThrow();
    await expect(handshake(service.port, { ca: pki.ca, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA256' })).rejects.toThrow();
  });

  it('issue 15 item 1: plain HTTP on the TLS port gets no HTTP answer', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = httpGet(`http://127.0.0.1:${service.port}/health/live`, (res) => resolve(`status ${res.statusCode}`));
      req.setTimeout(5000, () => req.destroy(new Error('timeout')));
      req.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(outcome).not.toMatch(/^status/);
    expect(outcome).not.toBe('timeout');
  });

  it('issue 15 item 1: a rotated certificate is served to new connections without a restart; a half-written one is not', async () => {
    const before = (await handshake(service.port, { ca: pki.ca })).fingerprint256;
    const next: IssuedCertificate = pki.server('api-2');
    const agent = new Agent({ connect: { ca: pki.ca }, pipelining: 1 });
    try {
      expect((await read(agent)).status).toBe(200);
      // Half of the new certificate, as a copy interrupted mid-way leaves it.
      writeFileSync(certFile, next.cert.subarray(0, Math.floor(next.cert.length / 2)));
      await waitFor(() => service.logLines.some((l) => l.includes('do not make a usable certificate')));
      expect((await handshake(service.port, { ca: pki.ca })).fingerprint256).toBe(before);
      expect((await read(agent)).status).toBe(200);

      writeFileSync(keyFile, next.key);
      writeFileSync(certFile, next.cert);
      await waitFor(async () => (await handshake(service.port, { ca: pki.ca })).fingerprint256 !== before);
      const after = await handshake(service.port, { ca: pki.ca });
      expect(after.fingerprint256).not.toBe(before);
      expect(service.logLines.some((l) => l.includes('TLS certificate reloaded'))).toBe(true);
      // The new context is held to the same protocol floor and suites as the first.
      await expect(handshake(service.port, { ca: pki.ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).rejects.toThrow();
      await expect(handshake(service.port, { ca: pki.ca, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' })).rejects.toThrow();
      const fresh = new Agent({ connect: { ca: pki.ca } });
      expect((await read(fresh)).status).toBe(200);
      await fresh.close();
    } finally {
      await agent.close();
    }
  });

  it('issue 15 item 1: plain HTTP on a non-loopback HOST (ALLOW_PLAIN_HTTP=true) says so in the log, and sends no HSTS', async () => {
    const plain = await startService(dir, issuer, { HOST: '0.0.0.0', ALLOW_PLAIN_HTTP: 'true' });
    try {
      expect(plain.origin).toMatch(/^http:/);
      expect(plain.logLines.some((l) => l.includes('plain HTTP on a non-loopback address (ALLOW_PLAIN_HTTP=true)'))).toBe(true);
      const res = await request(`${plain.origin}/patients/appointments/`, { headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` } });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.runtime.close();
    }
  });

  describe('with TLS_CLIENT_CA_FILE (a gateway in front)', () => {
    let gatewayPki: TestPki;
    let gated: Service;

    beforeAll(async () => {
      gatewayPki = new TestPki(dir, 'gateway-ca');
      const cert = pki.server('api-gated');
      gated = await startService(dir, issuer, { TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile, TLS_CLIENT_CA_FILE: gatewayPki.caFile });
    });

    afterAll(async () => {
      await gated?.runtime.close();
    });

    it('issue 15 item 1: a client certificate is required and checked against the gateway CA', async () => {
      const gateway = gatewayPki.client('gateway');
      const stranger = pki.client('stranger');
      const withCert = new Agent({ connect: { ca: pki.ca, cert: gateway.cert, key: gateway.key } });
      const without = new Agent({ connect: { ca: pki.ca } });
      const wrongCa = new Agent({ connect: { ca: pki.ca, cert: stranger.cert, key: stranger.key } });
      try {
        expect((await read(withCert, gated.origin)).status).toBe(200);
        await expect(read(without, gated.origin)).rejects.toThrow();
        await expect(read(wrongCa, gated.origin)).rejects.toThrow();
      } finally {
        await Promise.all([withCert.close(), without.close(), wrongCa.close()]);
      }
    });
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
