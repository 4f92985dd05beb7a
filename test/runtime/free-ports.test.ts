// A test's server whose address is fixed before it starts takes its port from freePort. A port of the
// system's ephemeral range can be taken by any outgoing connection before the server listens (CI of
// a137b54: EADDRINUSE on a sign-in service's port), so none is drawn from that range.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BROWSER_REFUSED_PORTS, ephemeralPorts, freePort } from '../../bench/util.js';

describe('freePort', () => {
  it('draws ports that no outgoing connection can take first, and that a server can then listen on', async () => {
    const [first, last] = ephemeralPorts();
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(ports.filter((port) => port >= first && port <= last)).toEqual([]);
    for (const port of ports.slice(0, 3)) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('never draws a port a browser refuses to open (Chromium: ERR_UNSAFE_PORT on 10080, CI of 83d0223)', async () => {
    const [first] = ephemeralPorts();
    const floor = 10_000;
    // A draw that lands on 10080 first, then on the port after it.
    const draws = [10_080.5, 10_081.5].map((port) => (port - floor) / (first - floor));
    const port = await freePort(() => draws.shift() ?? Math.random());
    expect(BROWSER_REFUSED_PORTS.has(port)).toBe(false);
    expect(BROWSER_REFUSED_PORTS.has(10_080)).toBe(true);
  });
});
