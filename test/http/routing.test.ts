import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SELF = '191212121212';
const OPERATIONS: Array<[string, string]> = [
  ['POST', '/patients/paymentnotice/'], ['PUT', '/patients/appointments/'], ['GET', '/patients/appointments/'],
  ['GET', '/patients/patient/'], ['GET', '/patients/contacts/'], ['GET', '/patients/attentionsignals/'],
  ['GET', '/patients/videomeetings/'], ['GET', '/patients/medications/'], ['GET', '/patients/journalnotes/'],
];

describe('routing, documentation and unknown paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown paths with 404 in shape 1', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/secrets/', token: await t.personToken(SELF) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, message: 'Not found.' });
  });

  it('answers every path with and without its trailing slash', async () => {
    const token = await t.personToken(SELF);
    for (const [method, url] of OPERATIONS.filter(([m]) => m === 'GET')) {
      const a = await t.call({ method: method as 'GET', url, token });
      const b = await t.call({ method: method as 'GET', url: url.slice(0, -1), token });
      expect([url, a.statusCode]).toEqual([url, 200]);
      expect(b.body).toBe(a.body);
    }
  });

  it('answers undeclared methods on a documented path 405 with Allow, and applies the same checks to HEAD as to GET', async () => {
    const token = await t.personToken(SELF);
    for (const method of ['DELETE', 'PATCH'] as const) {
      const res = await t.call({ method, url: '/patients/appointments/', token });
      expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, HEAD, PUT']);
    }
    expect((await t.call({ method: 'POST', url: '/patients/journalnotes/', token, payload: {} })).statusCode).toBe(405);
    expect((await t.call({ method: 'HEAD', url: '/patients/journalnotes/' })).statusCode).toBe(401);
    expect((await t.call({ method: 'HEAD', url: '/patients/journalnotes/', token })).statusCode).toBe(200);
  });

  it('publishes OpenAPI 3 with the ten operations and a docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.openapi).toMatch(/^3\./);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId ?? ''}`));
    // Documented as written without the trailing slash; both forms answer (above).
    for (const [method, url] of OPERATIONS) expect(operations.some((o) => o.startsWith(`${method} ${url.slice(0, -1)} `))).toBe(true);
    // Operations 4 and 5 share one path, told apart by api-version; each is at the vendor path too (the access log aside).
    const spec = /^\S+ \/(patients|api\/open|open\/api)\/(paymentnotice|appointments|patient|contacts|attentionsignals|videomeetings|medications|journalnotes) /;
    expect(operations.filter((o) => spec.test(o))).toHaveLength(18);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('issue 22 item 4: GET / (the address the banner prints) redirects to /docs, without credentials', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const root = await t.app.inject({ method, url: '/' });
      expect([method, root.statusCode, root.headers.location]).toEqual([method, 302, '/docs']);
    }
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBeLessThan(400);
  });

  it('the documentation page is never shown inside another site\'s frame, and names no referrer: it holds a signed-in token', async () => {
    const swagger = (await t.app.inject({ method: 'GET', url: '/docs/' })).body;
    const parts = ['/docs', '/docs/', '/docs/json', '/docs/static/index.html', '/docs/static/oauth2-redirect.html',
      ...[...swagger.matchAll(/(?:src|href)="\.?\/?((?:static\/)?[\w./-]+)"/g)].map((m) => `/docs/${m[1]}`)];
    expect(parts.length).toBeGreaterThan(5);
    for (const url of parts) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode < 400, res.headers['x-frame-options'], res.headers['content-security-policy'], res.headers['referrer-policy']])
        .toEqual([url, true, 'DENY', "frame-ancestors 'none'", 'no-referrer']);
    }
  });

  it('issue 36: GET / and the documentation point at the FHIR API', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.headers.link).toContain('</fhir/metadata>; rel="service-desc"; type="application/fhir+json"');
    const description = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ info: { description: string } }>().info.description;
    expect(description).toContain('[the CapabilityStatement](/fhir/metadata)');
    const metadata = await t.app.inject({ method: 'GET', url: '/fhir/metadata' });
    expect(metadata.json<{ resourceType: string }>().resourceType).toBe('CapabilityStatement');
  });

  it('tells liveness and readiness without credentials and without data', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { ehr: 'up', audit: 'up' }, unavailableReads: {} });
  });

  it('marks answers as not cacheable and answers the service\'s own request id, never the caller\'s', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(SELF), headers: { 'x-request-id': 'bad\r\nid' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('issue 34 item 10: answers a fresh UUID whatever the caller sends, an identity number, a plain id or a UUID of its own', async () => {
    const token = await t.personToken(SELF);
    for (const given of ['19121212-1212', 'trace-191212121212-1', 'id:200404122384', 'trace-2026-11-21.42', '191212121213', '8e200705-2555-441d-b6a4-cead6125069b']) {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token, headers: { 'x-request-id': given } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-request-id']).not.toBe(given);
    }
  });
});

describe('a BASE_PATH prefix', () => {
  it('serves the operations under the prefix only', async () => {
    const t = await startTestApp({ basePath: '/patient-api' });
    try {
      const token = await t.personToken(SELF);
      expect((await t.call({ method: 'GET', url: '/patient-api/patients/appointments/', token })).statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: '/patients/appointments/', token })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
