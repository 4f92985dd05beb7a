import { readDocument } from '../../support/document-reads.js';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { ADULT, startSimulatedEhr, timed, type SimulatedEhr } from './simulated-ehr.js';

const MIB = 1024 * 1024;

/** A full collection before measuring, so garbage of earlier tests is not counted as held. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** A loopback TCP relay that counts the bytes the server sends towards the client. */
class CountingProxy {
  received = 0;
  url = '';
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => { client.destroy(); upstream.destroy(); });
      }
      upstream.on('data', (chunk: Buffer) => { this.received += chunk.length; });
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(target: URL): Promise<CountingProxy> {
    const proxy = new CountingProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    return proxy;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('XmlHttpEhr refuses oversized answers without holding them (threat 27 of docs/threat-model.md#the-upstream-ehr-api10)', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterAll(() => t.close());

  it('stops reading a 50 MB streamed body at the 10 MiB default cap, without holding 50 MB', async () => {
    // A generous deadline, so it is the cap and not the clock that ends the call.
    const ehr = t.adapter({ timeoutMs: 10_000 });
    // Warm up first, so code loaded on first use does not count as memory held.
    await readDocument(ehr, 'journalnotes', ADULT, {});
    t.sim.faults.oversized(50 * 1000 * 1000, { times: 1 });
    collectGarbage();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    const sample = (): void => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    };
    const sampler = setInterval(sample, 2);
    const { error } = await timed(() => readDocument(ehr, 'journalnotes', ADULT, {}));
    clearInterval(sampler);
    sample();
    expect(error).toBeInstanceOf(EhrError);
    // The cap ended the call, not the 10 s deadline: that would have been a timeout.
    expect(error).toMatchObject({ failure: 'bad-response', message: 'EHR answer is larger than the limit' });
    // Buffers are the precise measure: the kept 10 MiB plus socket reads not yet collected come to
    // about 20 MiB; read whole, the body alone would be over 47 MiB, twice that with the socket reads.
    expect(peak.arrayBuffers - before.arrayBuffers).toBeLessThan(30 * MIB);
    // RSS also moves with heap and allocator noise (the simulator shares this process): a coarse
    // bound only; reading the body whole measured over 80 MiB here.
    expect(peak.rss - before.rss).toBeLessThan(64 * MIB);
  });

  it('stops reading at the cap: most of a 50 MB body never crosses the wire', async () => {
    const proxy = await CountingProxy.start(new URL(t.sim.url));
    try {
      const ehr = t.adapter({ baseUrl: proxy.url, timeoutMs: 10_000 });
      t.sim.faults.oversized(50 * 1000 * 1000, { times: 1 });
      await expect(readDocument(ehr, 'journalnotes', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
      expect(proxy.received).toBeGreaterThan(10 * MIB);
      expect(proxy.received).toBeLessThan(20 * MIB);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a declared Content-Length over the cap before reading any of it', async () => {
    const ehr = t.adapter({ timeoutMs: 10_000, maxBodyBytes: 64 * 1024 });
    t.sim.faults.oversized(5 * MIB, { times: 1, declareLength: true });
    const before = t.sim.requests;
    const { error } = await timed(() => readDocument(ehr, 'journalnotes', ADULT, {}));
    expect(error).toMatchObject({ failure: 'bad-response', message: 'EHR answer declares a length over the limit' });
    expect(t.sim.requests - before).toBe(1);
  });

  it('honours a smaller cap set by configuration, and a document within it still reads', async () => {
    const ehr = t.adapter({ timeoutMs: 10_000, maxBodyBytes: 4 * 1024 });
    await expect(readDocument(ehr, 'journalnotes', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    await expect(readDocument(ehr, 'videomeetings', ADULT, {})).resolves.toBeInstanceOf(Array);
  });
});
