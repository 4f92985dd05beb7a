/**
 * Issue 55 item 6: an app has one name per language everywhere, its registration's `client_name#sv` and
 * `client_name#en`: the patient app's own page (its header and title, "(demo)" only in demo mode), the
 * demo sign-in, picker and consent pages, the connected-apps API and the patient's access log (the
 * FHIR AuditEvent names the app in both languages, as FHIR's translation extension; the COS log keeps
 * its one `displayName`). Before, the page said "The patient app (demo)", the Swedish pages "Patient
 * app" and the access log `patient-app`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAvailable } from '../../support/database.js';
import { startSignInService, stopSignInService, type SignInService } from '../../support/sign-in-service.js';
import { HttpBrowser, readForm } from './http-browser.js';
import { authorizeUrl, exchange, launch, launchedIn, pkce, postForm, SMART_SCOPE, startDemoService, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const LILLA = '20170101-2393';
const TRANSLATION = 'http://hl7.org/fhir/StructureDefinition/translation';

interface Agent { requestor?: boolean; who?: { display?: string; identifier?: { value?: string }; _display?: { extension?: Translation[] } } }
interface Translation { url: string; extension: Array<{ url: string; valueCode?: string; valueString?: string }> }

const meta = (html: string, name: string): string | undefined => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1];

/** The translations of a FHIR string element, by language. */
const translations = (element: { extension?: Translation[] } | undefined): Record<string, string> => Object.fromEntries((element?.extension ?? [])
  .filter((e) => e.url === TRANSLATION)
  .map((e) => [e.extension.find((p) => p.url === 'lang')?.valueCode, e.extension.find((p) => p.url === 'content')?.valueString]));

describe('issue 55 item 6: the patient app by one name per language, in demo mode', () => {
  let service: DemoService;
  beforeAll(async () => { service = await startDemoService(); }, 60_000);
  afterAll(async () => service?.close());

  it('its page carries its registered names and says it is a demo', async () => {
    const page = await (await request(`${service.base}/app/`)).body.text();
    expect([meta(page, 'app-name-sv'), meta(page, 'app-name-en'), meta(page, 'demo')]).toEqual(['Patientappen', 'Patient app', 'on']);
    expect(page).toContain('<title>Patient app (demo)</title>');
  });

  it.each([['sv', 'Logga in i Patientappen', 'Vems journal ska Patientappen öppna?', 'Patientappen ber om åtkomst'],
    ['en', 'Sign in to Patient app', 'Whose record should Patient app open?', 'Patient app asks for access']])(
    'the demo sign-in, picker and consent pages name it in the page\'s language (%s)', async (lang, signIn, picker, consent) => {
      const browser = new HttpBrowser({ 'accept-language': lang });
      const issuer = new URL(service.smart.issuer).origin;
      const login = await browser.follow(await browser.get(authorizeUrl(service, pkce())), issuer);
      expect(/<h1>([^<]*)<\/h1>/.exec(login.body)?.[1]).toBe(signIn);
      const pick = await browser.follow(await postForm(browser, login, { login: MARTA }), issuer);
      expect(/<h1>([^<]*)<\/h1>/.exec(pick.body)?.[1]).toBe(picker);
      const form = readForm(pick.body);
      const lilla = /name="patient" value="([^"]+)"[^]*?Lilla/.exec(pick.body)?.[1] ?? '';
      const allow = await browser.follow(await browser.post(new URL(form.action, pick.url).href, { ...form.fields, patient: lilla }), issuer);
      expect(/<h1>([^<]*)<\/h1>/.exec(allow.body)?.[1]).toBe(consent);
    });

  it('the access log names it in both languages (FHIR), and by one name on the COS door; the connected-apps API in both', async () => {
    // The COS door's log too: SMART's form of its scope, for the picked patient named in the `patient` header.
    const code = pkce();
    const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code, { scope: `${SMART_SCOPE} patient/AuditEvent.read` }), { login: MARTA, pick: 'Lilla' });
    const tokens = (await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier)).body;
    const bearer = { authorization: `Bearer ${String(tokens.access_token)}` };
    const answer = await request(`${service.fhirBase}/AuditEvent?_count=500`, { headers: { ...bearer, accept: 'application/fhir+json' } });
    const events = ((await answer.body.json()) as { entry?: Array<{ resource: { agent: Agent[] } }> }).entry ?? [];
    const apps = events.map((e) => e.resource.agent.find((a) => a.requestor !== true)?.who)
      .filter((who) => who?.identifier?.value === 'patient-app');
    expect(apps.length).toBeGreaterThan(0);
    for (const who of apps) {
      expect(who?.display).toBe('Patientappen');
      expect(translations(who?._display)).toEqual({ sv: 'Patientappen', en: 'Patient app' });
    }

    const key = (await readFile(path.join(service.dataDir, 'demo-subscription-key'), 'utf8')).trim();
    const cos = await request(`${service.base}/patients/accesslog/?limit=50`, { headers: { ...bearer, 'ocp-apim-subscription-key': key, patient: LILLA } });
    const entries = (await cos.body.json()) as Array<{ clientApplication: { displayName: string; clientId?: string } }>;
    expect(entries.filter((e) => e.clientApplication.clientId === 'patient-app').map((e) => e.clientApplication.displayName))
      .toEqual(expect.arrayContaining(['Patientappen']));
    expect(entries.filter((e) => e.clientApplication.clientId === 'patient-app' && e.clientApplication.displayName !== 'Patientappen')).toEqual([]);

    const listed = await request(`${service.smart.issuer}/connected-apps`, { headers: bearer });
    const { apps: connected } = (await listed.body.json()) as { apps: Array<{ clientId: string; appName: string; appNames?: Record<string, string> }> };
    expect(connected.find((a) => a.clientId === 'patient-app')).toMatchObject({ appName: 'Patientappen', appNames: { sv: 'Patientappen', en: 'Patient app' } });
  });
});

describe('issue 55 item 6: CLIENT_NAMES, the operator\'s last word on the access log', () => {
  let named: DemoService;
  beforeAll(async () => { named = await startDemoService({ CLIENT_NAMES: 'patient-app:Vårdappen' }); }, 60_000);
  afterAll(async () => named?.close());

  it('names the app by its one name there, with no translation beside it', async () => {
    const tokens = await launchedIn(new HttpBrowser(), named, MARTA, 'Lilla');
    const answer = await request(`${named.fhirBase}/AuditEvent?_count=500`, { headers: { authorization: `Bearer ${String(tokens.access_token)}`, accept: 'application/fhir+json' } });
    const events = ((await answer.body.json()) as { entry?: Array<{ resource: { agent: Agent[] } }> }).entry ?? [];
    const apps = events.map((e) => e.resource.agent.find((a) => a.requestor !== true)?.who).filter((who) => who?.identifier?.value === 'patient-app');
    expect(apps.length).toBeGreaterThan(0);
    for (const who of apps) expect(who).toEqual({ display: 'Vårdappen', identifier: { value: 'patient-app' } });
  });
});

describe.skipIf(!await databaseAvailable())('issue 55 item 6: the patient app as a region registers it', () => {
  let service: SignInService | undefined;
  beforeAll(async () => {
    service = await startSignInService({
      clients: (base) => [{
        client_id: 'patient-app', 'client_name#sv': 'Hälsoappen', 'client_name#en': 'The Health App', token_endpoint_auth_method: 'none',
        redirect_uris: [`${base}/app/`], scope: 'openid fhirUser launch/patient patient/*.rs', offline_access: true, manages_grants: true,
      }],
    });
  }, 60_000);
  afterAll(async () => stopSignInService(service));

  it('its page carries the names of its clients file entry, and says no "(demo)"', async () => {
    const page = await (await request(`${service?.base ?? ''}/app/`)).body.text();
    expect([meta(page, 'app-name-sv'), meta(page, 'app-name-en'), meta(page, 'demo')]).toEqual(['Hälsoappen', 'The Health App', 'off']);
    expect(page).toContain('<title>The Health App</title>');
  });
});
