/**
 * The faults of docs/upstream-fhir.md#7-faults, each injected by a proxy in front of the development
 * FHIR server, each answered through the HTTP API as documented; nothing of the server's words
 * reaches the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFhirTestApp, type FhirTestApp } from '../../support/fhir-test-app.js';
import { MID_2025, TOLVAN } from './support/demo-bundle.js';
import { fhirReply, on, type FhirProxy, type Hook, type Reply } from './support/fhir-proxy.js';

const NOTES = '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00';
const MAX_BODY = 256 * 1024;
const LEAK = 'SERVER-TEXT-191212121212';

const json = (reply: Reply) => JSON.parse(reply.body.toString()) as Record<string, unknown> & { entry?: { resource: Record<string, unknown> }[] };
const bundle = (reply: Reply, change: (b: ReturnType<typeof json>) => void): Reply => {
  const b = json(reply);
  change(b);
  return fhirReply(200, b);
};
const outcome = (status: number, headers: Record<string, string> = {}): Reply =>
  fhirReply(status, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'processing', diagnostics: LEAK }] }, headers);

const CASES: [string, Hook, number, string?][] = [
  ['two Patients for one number (an ambiguous identity)', on('/Patient?', (r) => bundle(r, (b) => {
    const first = b.entry?.[0];
    if (first) b.entry?.push({ ...first, resource: { ...first.resource, id: 'pat-duplicate' } });
  })), 502],
  ['a 200 that is an HTML page', on('/Composition?', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<html>${LEAK}</html>`) })), 502],
  ['a 200 of truncated JSON', on('/Composition?', (r) => ({ ...r, body: r.body.subarray(0, Math.floor(r.body.length / 2)) })), 502],
  ['a 200 of another resource type', on('/Composition?', () => outcome(200)), 502],
  ['a 200 over the size cap', on('/Composition?', (r) => bundle(r, (b) => { b.padding = 'x'.repeat(MAX_BODY); })), 502],
  ['a match of another patient', on('/Composition?', (r) => bundle(r, (b) => {
    const c = b.entry?.[0]?.resource;
    if (c) c.subject = { reference: 'Patient/pat-tolve' };
  })), 502],
  ['a next link to another origin', on('/Composition?', (r) => bundle(r, (b) => { b.link = [{ relation: 'next', url: 'http://127.0.0.2:9/fhir/Composition?page=2' }]; })), 502],
  ['a 400 on a search', on('/Composition?', () => outcome(400)), 502],
  ['a 401 (the adapter\'s credentials)', on('/Composition?', () => outcome(401)), 502],
  ['a 404 on a search', on('/Composition?', () => outcome(404)), 502],
  ['a 422', on('/Composition?', () => outcome(422)), 502],
  ['a 500', on('/Composition?', () => outcome(500)), 502],
  ['a 502', on('/Composition?', () => outcome(502)), 502],
  ['a 504', on('/Composition?', () => outcome(504)), 502],
  ['a 408', on('/Composition?', () => outcome(408)), 502],
  ['a 429 with Retry-After 30', on('/Composition?', () => outcome(429, { 'retry-after': '30' })), 503, '30'],
  ['a 503 with Retry-After 7200 (out of range)', on('/Composition?', () => outcome(503, { 'retry-after': '7200' })), 503, '5'],
  ['a 503 without Retry-After', on('/Composition?', () => outcome(503)), 503, '5'],
  ['a 302 redirect', on('/Composition?', () => ({ status: 302, headers: { location: 'https://elsewhere.example/fhir' }, body: Buffer.alloc(0) })), 502],
  ['no answer within EHR_TIMEOUT_MS', on('/Composition?', () => 'hang'), 504],
  ['a connection reset, twice', on('/Composition?', () => 'reset'), 502],
];

describe('faults of the FHIR server through the HTTP API', () => {
  let t: FhirTestApp;
  let token: string;
  beforeAll(async () => {
    t = await startFhirTestApp({ proxied: true, now: MID_2025, adapter: { timeoutMs: 1500, maxPageBytes: MAX_BODY } });
    const issuedAt = Math.floor(t.clock.now() / 1000);
    token = await t.personToken(TOLVAN, { iat: issuedAt, exp: issuedAt + 3600 });
  });
  afterAll(() => t.close());

  it('answers normally without a fault', async () => {
    (t.proxy as FhirProxy).hook = undefined;
    expect((await t.call({ method: 'GET', url: NOTES, token })).statusCode).toBe(200);
  });

  it.each(CASES)('%s', async (_, hook, status, retryAfter) => {
    (t.proxy as FhirProxy).hook = hook;
    const res = await t.call({ method: 'GET', url: NOTES, token });
    (t.proxy as FhirProxy).hook = undefined;
    expect(res.statusCode).toBe(status);
    if (retryAfter !== undefined) expect(res.headers['retry-after']).toBe(retryAfter);
    expect(res.body).not.toContain('SERVER-TEXT');
    expect(JSON.stringify(t.events)).not.toContain('SERVER-TEXT');
  });

  it('retries a read once after a reset, and tells a 401 as a refusal of its status and issue codes only', async () => {
    const proxy = t.proxy as FhirProxy;
    proxy.seen.length = 0;
    proxy.hook = on('/Composition?', () => 'reset');
    await t.call({ method: 'GET', url: NOTES, token });
    expect(proxy.seen.filter((s) => s.url.includes('/Composition?'))).toHaveLength(2);
    proxy.hook = on('/Composition?', () => outcome(401));
    await t.call({ method: 'GET', url: NOTES, token });
    proxy.hook = undefined;
    expect(t.events).toContainEqual({ type: 'refusal', status: 401, issues: 'error/processing' });
  });

  it('issue 38: a server that refuses the connection could not be reached; it did not answer with an error (the last case: the proxy stops)', async () => {
    await (t.proxy as FhirProxy).close();
    const res = await t.call({ method: 'GET', url: NOTES, token });
    expect(res.statusCode).toBe(502);
    expect(JSON.parse(res.body)).toEqual({ statusCode: 502, message: 'The EHR could not be reached. Try again in a few minutes.' });
  });
});
