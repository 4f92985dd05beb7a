import { readFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../support/openapi-client.js';
import { publishedDocument } from '../support/openapi-lint.js';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';
import type { components, paths } from './generated/patient-data-access.js';

const ADULT = '191212121212';
type Booking = components['schemas']['BookedAppointmentsResult'];
type Result = components['schemas']['ResultRecord'];

describe('issue 13 item 5: a TypeScript client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  let baseUrl = '';
  beforeAll(async () => {
    t = await startTestApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('issue 13 item 5: the committed client types are what openapi-typescript generates from the document today (npm run openapi:client)', { timeout: 60_000 }, async () => {
    expect(await generateClientTypes(await publishedDocument())).toBe(await readFile(CLIENT_TYPES_FILE, 'utf8'));
  });

  it('issue 13 item 5: the generated client lists booked appointments and checks one in, typed end to end', async () => {
    const client = createClient<paths>({ baseUrl });
    const auth = { Authorization: `Bearer ${await t.personToken(ADULT)}` };

    const listed = await client.GET('/patients/appointments', { headers: { 'Ocp-Apim-Subscription-Key': KEY, ...auth } });
    expect(listed.response.status).toBe(200);
    const bookings: Booking[] = listed.data ?? [];
    const booking = bookings.flatMap((b) => b.Booking).at(0);
    expect(booking?.ContactId).toMatch(/^[0-9]+$/);

    // The key in the query, as the vendor's API management takes it, on the vendor's path for the same operation.
    const changed = await client.PUT('/api/open/appointments', {
      params: { query: { id: booking?.ContactId ?? '' } },
      body: { status: 'arrived' },
      headers: auth,
      querySerializer: (query) => new URLSearchParams({ ...query, 'subscription-key': KEY }).toString(),
    });
    expect(changed.response.status).toBe(200);
    const result: Result | undefined = changed.data;
    expect(['OK', 'INFO', 'ERROR']).toContain(result?.ResultCode);
  });

  it('issue 23: the generated client reads lab results at the vendor\'s path with the vendor\'s parameter names, typed', async () => {
    const client = createClient<paths>({ baseUrl });
    const read = await client.GET('/api/open/chemistrylabreports', {
      params: { query: { startActionDateTime: '2020-01-01T00:00:00' } },
      headers: { 'Ocp-Apim-Subscription-Key': KEY, Authorization: `Bearer ${await t.personToken(ADULT)}` },
    });
    expect(read.response.status).toBe(200);
    const reports: components['schemas']['ChemistryReportEHRExtracts'][] = read.data ?? [];
    const tests = reports.flatMap((r) => r.chemistryReportEHRExtract.flatMap((e) => e.report?.testResult ?? []));
    expect(tests.map((test) => test.testName)).toContain('P-Glukos');
  });

  it('issue 13 item 5: the /docs page offers "Authorize" with PKCE as the docs client of the demo issuer', async () => {
    const initializer = await fetch(`${baseUrl}/docs/static/swagger-initializer.js`);
    expect(initializer.status).toBe(200);
    expect(await initializer.text()).toMatch(/initOAuth\(\{"clientId":"api-docs","usePkceWithAuthorizationCodeGrant":true/);
  });

  it('issue 13 item 5: a refusal arrives as the documented error body', async () => {
    const client = createClient<paths>({ baseUrl });
    const refused = await client.GET('/patients/videomeetings', { headers: { 'Ocp-Apim-Subscription-Key': KEY, Authorization: 'Bearer not-a-token' } });
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token is malformed: send a signed JWT as Authorization: Bearer <token>."');
    const error: components['schemas']['ErrorResponse'] | undefined = refused.error;
    expect(error).toMatchObject({ status: 401, path: '/patients/videomeetings' });
  });
});
