/**
 * Every connection the API takes is watched by the same guards (src/http/app.ts): a GET with a body
 * closes its connection (threat 8), a caller that never reads is cut, a drain answers what was sent.
 * They are listeners on the one HTTP server. fastify, told `HOST=localhost`, binds every address the name
 * resolves to, each on a server of its own with none of them; the service binds one.
 */
import dns from 'node:dns';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { listen } from '../../src/start/listen.js';

type Lookup = (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

/** Everything the service writes on one connection after `bytes`, until it closes it (or 3 s pass: kept open). */
const untilClosed = (host: string, port: number, bytes: string): Promise<string> => new Promise((resolve, reject) => {
  const socket = connect(port, host);
  let text = '';
  const kept = setTimeout(() => {
    socket.destroy();
    resolve(`${text}(kept open)`);
  }, 3000);
  socket.on('data', (d) => { text += d.toString(); });
  socket.on('close', () => {
    clearTimeout(kept);
    resolve(text);
  });
  socket.on('error', reject);
  socket.write(bytes);
});

describe('HOST=localhost on a machine where it names 127.0.0.1 and ::1', () => {
  let dataDir: string;
  let runtime: Runtime;
  let port: number;

  beforeAll(async () => {
    // As /etc/hosts says on most machines (this one may name 127.0.0.1 alone): both loopback addresses.
    const real = dns.lookup.bind(dns) as unknown as Lookup;
    vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
      if (hostname !== 'localhost' || !all || typeof callback !== 'function') return (real as (...args: unknown[]) => void)(hostname, options, callback);
      process.nextTick(() => (callback as Parameters<Lookup>[2])(null, [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]));
    }) as typeof dns.lookup);
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-one-listener-'));
    const config = loadConfig({ DATA_DIR: dataDir, HOST: 'localhost', PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent' });
    runtime = await compose(config, createLogger('silent'));
    const bound = await listen(runtime, config);
    port = Number(new URL(bound.api).port);
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // Failed before: fastify bound ::1 too, on a second server, where a GET with a body was answered
  // keep-alive and the request pipelined behind it was read and answered.
  it('binds one address, and on every address it answers, a GET with a body closes its connection before anything behind it', async () => {
    const addresses = runtime.app.addresses().map((a) => (typeof a === 'string' ? a : a.address));
    expect(addresses).toHaveLength(1);
    const get = (body: string): string => `GET /health/live HTTP/1.1\r\nHost: localhost\r\n${body === '' ? '' : `Content-Length: ${body.length}\r\n`}\r\n${body}`;
    for (const host of ['127.0.0.1', '::1']) {
      const received = await untilClosed(host, port, get('hello') + get('')).catch((err: NodeJS.ErrnoException) => err.code ?? 'error');
      if (!addresses.includes(host)) {
        expect([host, received]).toEqual([host, 'ECONNREFUSED']);
        continue;
      }
      expect([host, received.match(/^HTTP\/1\.1 \d+/gm)]).toEqual([host, ['HTTP/1.1 200']]);
      expect(received).toMatch(/\r\nconnection: close\r\n/i);
    }
  });
});

// Hostile review (helper-84, F3): `localhost` passes the loopback check by its name, so a machine whose
// hosts file sent it elsewhere would have plain HTTP bound there without ALLOW_PLAIN_HTTP.
describe('HOST=localhost on a machine where it names no loopback address', () => {
  let dataDir: string;
  let runtime: Runtime | undefined;

  afterAll(async () => {
    vi.restoreAllMocks();
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses to start, naming HOST and what to set it to, and binds nothing', async () => {
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => ({ address: '192.0.2.10', family: 4 })) as unknown as typeof dns.promises.lookup);
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-one-listener-'));
    const config = loadConfig({ DATA_DIR: dataDir, HOST: 'localhost', PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent' });
    runtime = await compose(config, createLogger('silent'));
    await expect(listen(runtime, config)).rejects.toThrow('HOST localhost names 192.0.2.10, not a loopback address: set HOST=127.0.0.1, or name this machine\'s loopback in its hosts file');
    expect(runtime.app.addresses()).toEqual([]);
  });
});
