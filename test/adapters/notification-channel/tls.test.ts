/** Issue 54: a receiver's certificate is checked as any TLS peer's; one that does not verify is unreachable (tls), never sent to. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestHookChannel } from '../../../src/adapters/notification-channel/rest-hook-channel.js';
import { opensslMissing } from '../../support/requirements.js';
import { TestPki } from '../../support/test-pki.js';

describe.skipIf(opensslMissing())('issue 54: the rest-hook channel over https', () => {
  let dir: string;
  let pki: TestPki;
  let server: Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-rest-hook-'));
    pki = new TestPki(dir, 'receiver-ca');
    const cert = pki.server('receiver');
    server = createServer({ cert: cert.cert, key: cert.key }, (_req, res) => {
      requests += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('a receiver whose certificate does not verify is unreachable (tls) and gets no request; one that does is delivered', async () => {
    const untrusting = new RestHookChannel({ allowLoopback: true });
    const trusting = new RestHookChannel({ allowLoopback: true, ca: pki.ca });
    try {
      expect(await untrusting.send({ endpoint: url, headers: [], body: '{}', timeoutMs: 5000 })).toEqual({ kind: 'unreachable', reason: 'tls' });
      expect(requests).toBe(0);
      expect(await trusting.send({ endpoint: url, headers: [], body: '{}', timeoutMs: 5000 })).toEqual({ kind: 'delivered', status: 200 });
      expect(requests).toBe(1);
    } finally {
      await untrusting.close();
      await trusting.close();
    }
  });
});
