/**
 * A write whose deadline passes is one the EHR may have made (docs/contract.md#errors): it is told as a
 * timeout, which the write's caller hears as "may or may not have been made", never as an EHR that
 * could not be reached, whatever other connections to the EHR were doing at the time. Hostile review
 * helper-87, F1: a PUT the EHR had received was `unreachable` when another connection was still being
 * opened as the deadline passed (an overloaded EHR), and the kiosk was told nothing had been made.
 */
import { createServer, type Server } from 'node:http';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type ExchangeSettings } from '../../../src/adapters/ehr-http/exchange.js';
import { EhrError } from '../../../src/domain/ehr-error.js';

describe('a request whose deadline passes while another connection is still being opened', () => {
  let server: Server;
  let pool: Pool;
  let received: string[];
  beforeAll(async () => {
    received = [];
    // Takes every request and answers it late: the write is made, its answer does not come in time.
    server = createServer((req, res) => {
      received.push(req.method ?? '');
      setTimeout(() => res.end('<ok/>'), 1000).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  });
  afterAll(async () => {
    await pool.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const settings: ExchangeSettings = {
    timeoutMs: 150, media: { accept: 'application/xml', body: 'application/xml', readable: () => true }, bodyLimit: () => 1 << 20,
    onRetry: () => undefined, stuckConnecting: () => true,
  };
  const failureOf = async (method: 'GET' | 'PUT' | 'POST'): Promise<string> => {
    const err = await exchange(pool, { method, path: '/x', retryOnConnectionLoss: method === 'GET' }, settings).catch((e: unknown) => e);
    return err instanceof EhrError ? err.failure : String(err);
  };

  it('tells a write that reached the EHR as a timeout, and a read as an EHR not taking connections, as before', async () => {
    expect([await failureOf('PUT'), await failureOf('POST')]).toEqual(['timeout', 'timeout']);
    expect(received).toEqual(['PUT', 'POST']);
    expect(await failureOf('GET')).toBe('unreachable');
  });
});
