/**
 * Issue 55 item 10: `/favicon.ico` exists, so a browser opening any page of the service (the patient
 * app, /docs, the sign-in pages under /auth) logs no 404. It is the service's own icon, small, an ICO
 * holding one 32×32 PNG, cached for a year (it never changes under its address), at the root where a
 * browser asks for it and under BASE_PATH too; the demo authorization server and the stand-in region
 * login, on origins of their own, answer it as well.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The ICO's one image: its width, height and the PNG inside. */
function icoImage(body: Buffer): { width: number; height: number; png: Buffer } {
  expect([...body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
  const size = body.readUInt32LE(14);
  const offset = body.readUInt32LE(18);
  return { width: body[6] ?? -1, height: body[7] ?? -1, png: body.subarray(offset, offset + size) };
}

describe('issue 55 item 10: /favicon.ico', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp({ basePath: '/pdas' }); }, 60_000);
  afterAll(async () => t.close());

  it.each(['/favicon.ico', '/pdas/favicon.ico'])('%s is a small ICO of one 32×32 PNG, cached for a year, with no credentials asked', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const body = res.rawPayload;
    expect(body.length).toBeLessThan(2048);
    const { width, height, png } = icoImage(body);
    expect([width, height]).toEqual([32, 32]);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]);
    expect((await t.app.inject({ method: 'HEAD', url })).statusCode).toBe(200);
  });

  it('leaves every other answer uncached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('issue 55 item 10: the demo issuer and the stand-in login answer /favicon.ico too', () => {
  it('both, with the same icon', async () => {
    const { startDemoService } = await import('../dev/demo-issuer/smart-flow.js');
    const { startRegionLogin } = await import('../../src/dev/region-login/region-login.js');
    const demo = await startDemoService();
    const standIn = await startRegionLogin({ host: '127.0.0.1', port: 0, client: { clientId: 'pdas', clientSecret: 's', redirectUris: ['http://127.0.0.1:9/auth/callback'] } });
    try {
      const bodies: Buffer[] = [];
      for (const origin of [demo.base, new URL(demo.smart.issuer).origin, standIn.issuer]) {
        const res = await request(`${origin}/favicon.ico`);
        expect([origin, res.statusCode, res.headers['content-type'], res.headers['cache-control']]).toEqual([origin, 200, 'image/x-icon', 'public, max-age=31536000, immutable']);
        bodies.push(Buffer.from(await res.body.arrayBuffer()));
      }
      expect(new Set(bodies.map((b) => b.toString('base64'))).size).toBe(1);
    } finally {
      await standIn.close();
      await demo.close();
    }
  }, 60_000);
});
