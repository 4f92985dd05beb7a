import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileClientAgainst } from '../support/openapi-client.js';
import { publishedDocument } from '../support/openapi-lint.js';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
type Auth = Record<string, string>;

/**
 * The calls of openapi-client/calls.ts, loaded by a path the compiler does not follow: they are typed
 * by the generated types, which exist only once this test has generated them (`npm run typecheck` runs
 * before it, on a fresh clone); the first test compiles them against those types.
 */
interface Calls {
  checkInFirstBooking(baseUrl: string, key: string, auth: Auth): Promise<{ listed: number; contactId?: string; changed: number; resultCode?: string }>;
  labTestNames(baseUrl: string, key: string, auth: Auth): Promise<{ status: number; names: string[] }>;
  refusedRead(baseUrl: string, key: string): Promise<{ status: number; challenge: string | null; error: unknown }>;
}
const CALLS = new URL('./openapi-client/calls.ts', import.meta.url).href;

describe('issue 13 item 5: a TypeScript client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  let baseUrl = '';
  let calls: Calls;
  beforeAll(async () => {
    calls = await import(CALLS) as Calls;
    t = await startTestApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('issue 13 item 5: a client written against the types openapi-typescript generates from the document today compiles', { timeout: 60_000 }, async () => {
    expect(await compileClientAgainst(await publishedDocument())).toBe('');
  });

  it('issue 13 item 5: the generated client lists booked appointments and checks one in, typed end to end', async () => {
    const done = await calls.checkInFirstBooking(baseUrl, KEY, { Authorization: `Bearer ${await t.personToken(ADULT)}` });
    expect(done.listed).toBe(200);
    expect(done.contactId).toMatch(/^[0-9]+$/);
    expect(done.changed).toBe(200);
    expect(['OK', 'INFO', 'ERROR']).toContain(done.resultCode);
  });

  it('issue 23: the generated client reads lab results at the vendor\'s path with the vendor\'s parameter names, typed', async () => {
    const read = await calls.labTestNames(baseUrl, KEY, { Authorization: `Bearer ${await t.personToken(ADULT)}` });
    expect(read.status).toBe(200);
    expect(read.names).toContain('P-Glukos');
  });

  it('issue 13 item 5: the /docs page offers "Authorize" with PKCE as the docs client of the demo issuer', async () => {
    const initializer = await fetch(`${baseUrl}/docs/static/swagger-initializer.js`);
    expect(initializer.status).toBe(200);
    expect(await initializer.text()).toMatch(/initOAuth\(\{"clientId":"api-docs","usePkceWithAuthorizationCodeGrant":true/);
  });

  it('issue 13 item 5: a refusal arrives as the documented error body', async () => {
    const refused = await calls.refusedRead(baseUrl, KEY);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toBe('Bearer error="invalid_token", error_description="The access token is malformed: send a signed JWT as Authorization: Bearer <token>."');
    expect(refused.error).toMatchObject({ status: 401, path: '/patients/videomeetings' });
  });
});
