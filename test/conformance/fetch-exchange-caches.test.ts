/**
 * The conformance kit asks the region's FHIR server as the service does (docs/upstream-fhir.md#the-conformance-kit):
 * past any cache in between, and never taking an answer a cache made itself. Re-review helper-194, F2: the kit's own
 * transport sent no Cache-Control, and through a cache its arrival check read the appointment back stale and called a
 * sound server NOT CONFORMANT. Failed before: no cache-control, and the Age 30 answer taken.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchExchange } from '../../src/conformance/fetch-exchange.js';

describe('the conformance kit\'s transport and caches', () => {
  let server: Server;
  let base = '';
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/fhir+json', ...(req.url === '/stale' ? { age: '30' } : {}) });
      res.end('{"resourceType":"Bundle","type":"searchset"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks every GET past caches, and refuses an answer a cache made (an Age over 0)', async () => {
    const exchange = fetchExchange(5000);
    expect((await exchange(`${base}/fresh`, { method: 'GET' })).status).toBe(200);
    expect([seen.at(-1)?.['cache-control'], seen.at(-1)?.pragma]).toEqual(['no-cache', 'no-cache']);
    await expect(exchange(`${base}/stale`, { method: 'GET' })).rejects.toMatchObject({ failure: 'bad-response' });
  });
});
