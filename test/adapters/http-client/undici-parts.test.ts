/**
 * The parts of undici the service loads without undici's index (src/adapters/http-client/undici-parts.ts):
 * each is the very object the index exports, the request API works through them, and loading them
 * loads neither the index nor Node's own bundled undici.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector, Pool, request } from '../../../src/adapters/http-client/undici-parts.js';
import { REPOSITORY_ROOT } from '../../support/upstream-examples.js';

describe('undici-parts', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((req, res) => res.end(JSON.stringify({ method: req.method, url: req.url })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('are the objects undici exports', () => {
    expect(Pool).toBe(undici.Pool);
    expect(Agent).toBe(undici.Agent);
    expect(buildConnector).toBe(undici.buildConnector);
  });

  it('request() reaches a URL with its path and query, through the global dispatcher or the given one', async () => {
    const viaGlobal = await request(`${origin}/keys/jwks.json?v=2`, { method: 'GET' });
    expect(viaGlobal.statusCode).toBe(200);
    expect(await viaGlobal.body.json()).toEqual({ method: 'GET', url: '/keys/jwks.json?v=2' });

    const agent = new Agent();
    try {
      const viaAgent = await request(`${origin}/token`, { method: 'POST', body: 'a=b', dispatcher: agent });
      expect(await viaAgent.body.json()).toEqual({ method: 'POST', url: '/token' });
    } finally {
      await agent.close();
    }
  });

  it('a pool made from them has the request API', async () => {
    const pool = new Pool(origin, { connections: 1 });
    try {
      const answer = await pool.request({ method: 'GET', path: '/ehr/patient' });
      expect(await answer.body.json()).toEqual({ method: 'GET', url: '/ehr/patient' });
    } finally {
      await pool.close();
    }
  });

  it('loading them loads neither undici\'s index nor Node\'s bundled undici', () => {
    const script = `
      import { createRequire } from 'node:module';
      await import('./src/adapters/http-client/undici-parts.ts');
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({
        index: loaded.some((file) => file.endsWith('/node_modules/undici/index.js')),
        parts: loaded.some((file) => file.endsWith('/node_modules/undici/lib/dispatcher/pool.js')),
        bundled: process.moduleLoadList.includes('NativeModule internal/deps/undici/undici'),
      }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPOSITORY_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').at(-1) as string)).toEqual({ index: false, parts: true, bundled: false });
  });
});
