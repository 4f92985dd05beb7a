/**
 * Issue 54, threat 66: the rest-hook channel against real loopback receivers of the test's own. A
 * notification is a POST of the Bundle with the subscription's headers; a redirect is an answer, never
 * followed; a receiver that never answers, trickles its head or streams an endless body costs one
 * attempt bounded by its deadline and a small cap; a receiver holding its sockets holds only its own.
 */
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RestHookChannel } from '../../../src/adapters/notification-channel/rest-hook-channel.js';
import type { Delivery, DeliveryOutcome } from '../../../src/ports/notification-channel.port.js';
import { pollUntil } from '../../support/poll.js';
import { expectDeadlineKept } from '../../support/scheduling.js';
import { hold, receiver, status, type Receiver } from '../../support/notification-receivers.js';

const BODY = JSON.stringify({ resourceType: 'Bundle', type: 'history', entry: [] });
const open: Array<{ close(): Promise<void> }> = [];
const track = <T extends { close(): Promise<void> }>(thing: T): T => {
  open.push(thing);
  return thing;
};
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

const channelOf = (options: Partial<ConstructorParameters<typeof RestHookChannel>[0]> = {}) =>
  track(new RestHookChannel({ allowLoopback: true, ...options }));
const delivery = (endpoint: string, over: Partial<Delivery> = {}): Delivery => ({ endpoint, headers: [], body: BODY, timeoutMs: 5000, ...over });
const listening = async (r: Receiver): Promise<Receiver> => track(r);

describe('issue 54: the rest-hook channel delivers a notification', () => {
  it('POSTs the Bundle as application/fhir+json with the subscription\'s headers after ours; a 2xx is delivered', async () => {
    const r = await listening(await receiver(status(200)));
    const channel = channelOf();
    const outcome = await channel.send(delivery(`${r.url}/notify/lab?x=1`, {
      headers: [['Authorization', 'Bearer receiver-secret'], ['X-Tenant', 'south'], ['X-Tenant', 'north'],
        ['Content-Type', 'text/plain'], ['Host', 'evil.example'], ['Content-Length', '1'], ['Transfer-Encoding', 'chunked']],
    }));
    expect(outcome).toEqual({ kind: 'delivered', status: 200 });
    const [got] = r.received;
    expect(got).toMatchObject({ method: 'POST', url: '/notify/lab?x=1', body: BODY });
    expect(got?.headers).toMatchObject({
      'content-type': 'application/fhir+json; charset=utf-8', host: `127.0.0.1:${r.port}`, 'content-length': String(Buffer.byteLength(BODY)),
      authorization: 'Bearer receiver-secret', 'x-tenant': 'south, north',
    });
    expect(got?.headers['transfer-encoding']).toBeUndefined();
    // Ours first, then theirs, in the order given; none of theirs replaces ours.
    const names = (got?.rawHeaders ?? []).filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names.filter((n) => n === 'content-type' || n === 'host' || n === 'content-length')).toHaveLength(3);
    expect(names.indexOf('content-type')).toBeLessThan(names.indexOf('authorization'));
  });

  it.each([201, 202, 204])('%i is delivered', async (code) => {
    const r = await listening(await receiver(status(code)));
    expect(await channelOf().send(delivery(r.url))).toEqual({ kind: 'delivered', status: code });
  });

  it.each([500, 503, 404, 401, 429, 400])('%i is refused, with its status', async (code) => {
    const r = await listening(await receiver(status(code)));
    expect(await channelOf().send(delivery(r.url))).toEqual({ kind: 'refused', status: code });
  });

  it.each([301, 302, 303, 307, 308])('a %i is refused and never followed: the redirect\'s target sees no request', async (code) => {
    const target = await listening(await receiver(status(200)));
    const r = await listening(await receiver(status(code, { location: `${target.url}/elsewhere` })));
    expect(await channelOf().send(delivery(r.url))).toEqual({ kind: 'refused', status: code });
    expect(r.received).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  it('a receiver that is not there is unreachable (connection)', async () => {
    const r = await receiver(status(200));
    await r.close();
    expect(await channelOf().send(delivery(r.url))).toEqual({ kind: 'unreachable', reason: 'connection' });
  });
});

describe('issue 54: a slow or hostile receiver costs one bounded attempt (threat 66)', () => {
  it('a receiver that never answers: timeout, within the deadline', async () => {
    const r = await listening(await receiver(hold));
    const started = Date.now();
    expect(await channelOf().send(delivery(r.url, { timeoutMs: 400 }))).toEqual({ kind: 'unreachable', reason: 'timeout' });
    expectDeadlineKept(Date.now() - started, 400, 'gave up');
    expect(r.received).toHaveLength(1);
  });

  it('a receiver that trickles its answer\'s head, a header line at a time: timeout, within the deadline', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\n');
        const drip = setInterval(() => socket.writable && socket.write('X-Drip: 1\r\n'), 50);
        socket.on('close', () => clearInterval(drip));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }) });
    const started = Date.now();
    const outcome = await channelOf().send(delivery(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeoutMs: 600 }));
    expect(outcome).toEqual({ kind: 'unreachable', reason: 'timeout' });
    expectDeadlineKept(Date.now() - started, 600, 'gave up');
  });

  it('a receiver that streams an endless body: delivered by its status, and its connection cut after a small cap', async () => {
    let written = 0;
    const r = await listening(await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    }));
    // A deadline far past the test's own timeout: only the cap can end the attempt in time.
    expect(await channelOf().send(delivery(r.url, { timeoutMs: 600_000 }))).toEqual({ kind: 'delivered', status: 200 });
    const stillOpen = await pollUntil(async () => r.open.size, (n) => n === 0, 2000);
    expect(stillOpen, 'the receiver\'s connection is closed').toBe(0);
    expect(written).toBeGreaterThan(64 * 1024);
  });

  it('a small answer body is read to its end and the connection kept for the next notification', async () => {
    const r = await listening(await receiver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
    const channel = channelOf({ connectionsPerOrigin: 1 });
    for (let i = 0; i < 3; i++) expect(await channel.send(delivery(r.url))).toEqual({ kind: 'delivered', status: 200 });
    expect(r.connections).toBe(1);
  });

  it('a receiver holding its sockets does not hold deliveries to another: those go through while its own wait', async () => {
    const stuck = await listening(await receiver(hold));
    const other = await listening(await receiver(status(204)));
    const channel = channelOf({ connectionsPerOrigin: 2 });
    const settled: DeliveryOutcome[] = [];
    const waiting = Array.from({ length: 6 }, () => channel.send(delivery(stuck.url, { timeoutMs: 60_000 })).then((o) => { settled.push(o); return o; }));
    expect(await pollUntil(async () => stuck.received.length, (n) => n === 2, 2000)).toBe(2);
    const others = await Promise.all(Array.from({ length: 8 }, () => channel.send(delivery(other.url))));
    expect(others).toEqual(Array.from({ length: 8 }, () => ({ kind: 'delivered', status: 204 })));
    expect(other.received).toHaveLength(8);
    // The stuck receiver got two connections and two requests, no more, and none of its deliveries has ended.
    expect([stuck.connections, stuck.received.length, settled.length]).toEqual([2, 2, 0]);
    await channel.close();
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 6 }, () => ({ kind: 'unreachable', reason: 'connection' })));
  });

  it('deliveries to one receiver are bounded: at most connectionsPerOrigin connections and requests at once', async () => {
    const r = await listening(await receiver((_req, res) => setTimeout(() => res.writeHead(200).end(), 20)));
    const channel = channelOf({ connectionsPerOrigin: 3 });
    const outcomes = await Promise.all(Array.from({ length: 15 }, () => channel.send(delivery(r.url))));
    expect(outcomes.every((o) => o.kind === 'delivered')).toBe(true);
    expect(r.received).toHaveLength(15);
    expect(r.mostWaiting).toBeLessThanOrEqual(3);
    expect(r.connections).toBeLessThanOrEqual(3);
  });
});

describe('issue 54: a delivery the engine did not check is refused before any connection', () => {
  it.each([
    ['an endpoint that is not an http(s) URL', delivery('ftp://127.0.0.1/x')],
    ['an endpoint with userinfo', delivery('http://u:p@127.0.0.1:1/')],
    ['a relative endpoint', delivery('/hook')],
    ['a header value splitting the request', delivery('http://127.0.0.1:1/', { headers: [['X-A', 'b\r\nHost: evil']] })],
    ['a header name that is no token', delivery('http://127.0.0.1:1/', { headers: [['X A', 'b']] })],
    ['no deadline', delivery('http://127.0.0.1:1/', { timeoutMs: 0 })],
    ['a deadline that is no number', delivery('http://127.0.0.1:1/', { timeoutMs: Number.NaN })],
  ])('%s: RangeError', async (_, bad) => {
    await expect(channelOf().send(bad)).rejects.toThrow(RangeError);
  });

  it('after close, a delivery is unreachable (connection) and nothing is sent', async () => {
    const r = await listening(await receiver(status(200)));
    const channel = channelOf();
    await channel.close();
    expect(await channel.send(delivery(r.url))).toEqual({ kind: 'unreachable', reason: 'connection' });
    expect(r.connections).toBe(0);
  });
});
