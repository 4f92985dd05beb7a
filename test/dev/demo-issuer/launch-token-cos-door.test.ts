/**
 * Issue 52 item 2: a SMART launch token on the COS door. Märta signs in to an app through the demo
 * authorization server, picks Lilla, and consents to "the record of Lilla Ström"; the token's
 * `patient/` scopes then reach Lilla on `/patients/...` as on `/fhir`, and nobody else, not Tolvan
 * (whom she has power of attorney for), not Gösta (her partner), not Märta herself
 * (docs/contract.md#scopes).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showsIdentityNumber } from '../../support/token-identity.js';
import { HttpBrowser } from './http-browser.js';
import { authorizeUrl, exchange, launch, pkce, startDemoService, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN_HYPHENATED = '19121212-1212';
const GOSTA = '194608632396';
/** Each a `patient/` form the COS door folds onto one of its reads' scopes (docs/contract.md#scopes). */
const LAUNCH_SCOPES = 'openid fhirUser launch/patient patient/Patient.read patient/Condition.read patient/Observation.read patient/Appointment.read patient/AuditEvent.read';
const READS = ['/patients/patient/', '/patients/diagnoses/', '/patients/labresults/', '/patients/appointments/', '/patients/accesslog/'];
const REFUSED = 'Access to the requested patient is not allowed.';

let service: DemoService;
let key: string;
let token: string;
let consent: string;

beforeAll(async () => {
  service = await startDemoService();
  key = (await readFile(path.join(service.dataDir, 'demo-subscription-key'), 'utf8')).trim();
  const code = pkce();
  const { redirect, pages } = await launch(new HttpBrowser(), service, authorizeUrl(service, code, { scope: LAUNCH_SCOPES }), { login: MARTA, pick: 'Lilla' });
  consent = pages.find((p) => p.body.includes('name="prompt" value="consent"'))?.body ?? '';
  const { body } = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
  token = body.access_token as string;
}, 60_000);
afterAll(async () => {
  await service?.close();
});

async function cos(url: string, patient?: string): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': key };
  if (patient !== undefined) headers.patient = patient;
  const response = await request(`${service.base}${url}`, { headers });
  return { status: response.statusCode, body: await response.body.text() };
}

describe('issue 52 item 2: a launch token\'s patient/ scopes on the COS door', () => {
  it('is the token of Märta picking Lilla, consented to as Lilla\'s record only', () => {
    expect(consent).toContain('It opens the record of Lilla Ström');
    const claims = decodeJwt(token);
    expect(showsIdentityNumber(token, [MARTA, LILLA])).toBe(false);
    expect(typeof claims.smart_patient).toBe('string');
  });

  it('reads Lilla, the picked patient, on every read and the access log', async () => {
    for (const url of READS) {
      const res = await cos(url, LILLA);
      expect([url, res.status]).toEqual([url, 200]);
    }
  });

  it('refuses Tolvan and Gösta, whom Märta may act for but did not pick, and Märta herself, with the body of any refused delegation', async () => {
    for (const patient of [TOLVAN_HYPHENATED, GOSTA, MARTA, undefined]) {
      for (const url of READS) {
        const res = await cos(url, patient);
        // Shape 1 `{statusCode, message}` or shape 2 `{error, …}` by the operation, one text for every refusal.
        const body = JSON.parse(res.body) as { message?: string; error?: string };
        expect([url, patient, res.status, body.message ?? body.error]).toEqual([url, patient, 403, REFUSED]);
      }
    }
  });
});
