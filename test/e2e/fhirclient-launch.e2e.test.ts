/**
 * A SMART standalone launch as an app developer writes it (docs/smart-launch.md): fhirclient's Node
 * entry authorizes with `pkceMode: 'required'` against the service in demo mode (it reads the SMART
 * configuration, sends `aud` and the S256 challenge), the demo issuer's forms are posted as a browser
 * would (sign in as the guardian, pick her child, consent), and the callback's `ready()` exchanges the
 * code; then `patient.read()` and a search followed page by page.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeAt, memoryStorage } from '../support/fhirclient-storage.js';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { launch, SMART_SCOPE, startDemoService, type DemoService } from '../dev/demo-issuer/smart-flow.js';

const APP = 'http://127.0.0.1:8765';


interface Res { resourceType: string; id: string; name?: { given?: string[] }[] }
interface SmartClient {
  patient: { id: string | null; read(): Promise<Res> };
  request<T = unknown>(url: string, options?: { flat: boolean; pageLimit: number }): Promise<T>;
  getState(path: string): unknown;
}
interface Smart { authorize(options: object): Promise<unknown>; ready(): Promise<SmartClient> }
const smart = createRequire(import.meta.url)('fhirclient/lib/entry/node') as (request: object, response: object, storage: object) => Smart;

describe('fhirclient (Node): a SMART standalone launch end to end', () => {
  let service: DemoService;
  beforeAll(async () => {
    service = await startDemoService();
  }, 60_000);
  afterAll(async () => service?.close());

  it('authorizes with PKCE required, signs the guardian in, picks her child, and reads and pages her record', async () => {
    const storage = memoryStorage();
    const start = exchangeAt(`${APP}/launch`);
    await smart(start.request, start.response, storage).authorize({
      iss: service.fhirBase, clientId: 'patient-app', scope: SMART_SCOPE, redirectUri: '/callback', pkceMode: 'required',
    });
    const authorize = new URL(start.response.location);
    expect(authorize.searchParams.get('aud')).toBe(service.fhirBase);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    const { redirect } = await launch(new HttpBrowser(), service, authorize.href, { login: '198112189876', pick: 'Lilla' });
    const back = exchangeAt(redirect.href);
    const client = await smart(back.request, back.response, storage).ready();

    const patient = await client.patient.read();
    expect(patient.resourceType).toBe('Patient');
    expect(patient.id).toBe(client.patient.id);
    expect(patient.name?.[0]?.given).toContain('Lilla');
    expect(client.getState('tokenResponse.refresh_token')).toEqual(expect.any(String));

    const onePerPage = await client.request<Res[]>(`Observation?patient=${patient.id}&_count=1`, { flat: true, pageLimit: 0 });
    const all = await client.request<{ total: number }>(`Observation?patient=${patient.id}&_count=500`);
    expect(onePerPage.length).toBe(all.total);
    expect(onePerPage.length).toBeGreaterThan(1);
  }, 30_000);
});
