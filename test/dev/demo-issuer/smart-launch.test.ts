/**
 * SMART App Launch 2.2 at the demo authorization server (docs/smart-launch.md), through its forms as
 * a script posts them, against the service in demo mode: the launch and what the tokens carry, the
 * picker fed by the delegation registry, refresh rotation and reuse, revocation, discovery, and
 * every downgrade the issuer must refuse.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemoAuthServer } from '../../../src/dev/demo-issuer/demo-auth-server.js';
import { showsIdentityNumber } from '../../support/token-identity.js';
import { HttpBrowser, readForm } from './http-browser.js';
import { abortForm } from '../../support/sign-in-walk.js';
import {
  APP_REDIRECT, authorizeUrl, exchange, launch, launchFrom, pickerValue, pkce, postForm, startDemoService, tokenRequest, type DemoService,
} from './smart-flow.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const LILLA = '201701012393';
const SARA = '197305242385';

let service: DemoService;
/** oidc-provider's own warnings while this file's flows run (the library warns once a process). */
const libraryWarnings: string[] = [];
beforeAll(async () => {
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    const line = args.map(String).join(' ');
    if (line.includes('oidc-provider WARNING')) libraryWarnings.push(line);
    else warn(...args);
  });
  service = await startDemoService();
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await service?.close();
});

/** A whole launch as `login`, picking `pick`: the token response. */
async function signedIn(login: string, pick?: string, change: Record<string, string | undefined> = {}) {
  const code = pkce();
  const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code, change), { login, pick });
  const value = redirect.searchParams.get('code');
  if (value === null) throw new Error(`no code: ${redirect.href}`);
  return (await exchange(service, value, code.verifier)).body;
}

const fhirGet = async (token: string, path: string) => {
  const response = await request(`${service.fhirBase}/${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });
  return { status: response.statusCode, body: await response.body.json() as Record<string, unknown> };
};

describe('SMART standalone launch at the demo issuer', () => {
  it('launches Tolvan: no picker (he acts for nobody), patient, scope, expires_in, refresh token, smart_patient and fhirUser', async () => {
    const code = pkce();
    const { redirect, pages } = await launch(new HttpBrowser(), service, authorizeUrl(service, code), { login: TOLVAN });
    expect(pages.map((p) => /name="prompt" value="(\w+)"/.exec(p.body)?.[1])).toEqual(['login', 'consent']);
    // Consent names whose record and each scope, in words, the scope as written in small print after them.
    const consent = pages[1]?.body ?? '';
    expect(consent).toContain('It opens the record of Tolvan Tolvansson');
    expect(consent).toContain('<li>Read every part of the record of the person picked<span class="reach">Whose records: Tolvan Tolvansson</span>'
      + '<small class="scope"><code>patient/*.rs</code></small></li>');
    expect(consent).toContain('<li>Keep reading without asking you again, until the sign-in expires or is revoked<small class="scope"><code>offline_access</code></small></li>');
    expect(`${redirect.origin}${redirect.pathname}`).toBe(APP_REDIRECT);
    const { status, body } = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
    expect(status).toBe(200);
    const patient = body.patient as string;
    expect(patient).toMatch(/^[A-Za-z0-9\-.]{1,64}$/);
    expect(patient).not.toContain(TOLVAN);
    expect((body.scope as string).split(' ').sort()).toEqual(['fhirUser', 'launch/patient', 'offline_access', 'openid', 'patient/*.rs']);
    expect(body.expires_in).toBeLessThanOrEqual(3600);
    expect(typeof body.refresh_token).toBe('string');
    const claims = decodeJwt(body.access_token as string);
    // Issue 52 item 11: the patient claim is sealed; the app reads no identity number in its token.
    expect(claims).toMatchObject({ patient: expect.any(String), smart_patient: patient, client_id: 'patient-app' });
    expect(showsIdentityNumber(body.access_token as string, [TOLVAN])).toBe(false);
    expect(decodeJwt(body.id_token as string).fhirUser).toBe(`Patient/${patient}`);

    const read = await fhirGet(body.access_token as string, `Patient/${patient}`);
    expect([read.status, read.body.id]).toEqual([200, patient]);
  });

  // Hostile review helper-163 F3: `patient` came back though the app never asked for the launch context, nor was it shown at consent.
  it('gives the launch patient in the token response only to an app that asked for launch/patient', async () => {
    const body = await signedIn(TOLVAN, undefined, { scope: 'openid fhirUser patient/Observation.rs' });
    expect(typeof body.access_token).toBe('string');
    expect(body.patient).toBeUndefined();
    expect((body.scope as string).split(' ').sort()).toEqual(['fhirUser', 'openid', 'patient/Observation.rs']);
    expect((await signedIn(TOLVAN, undefined, { scope: 'openid launch/patient patient/Observation.rs' })).patient).toEqual(expect.any(String));
  });

  // Hostile review helper-163 F6: a refresh narrowed to fewer scopes was answered with every scope of the refresh token.
  it('answers a narrowed refresh with the scopes it asked for, and those alone', async () => {
    const first = await signedIn(TOLVAN);
    const narrowed = await tokenRequest(service, {
      grant_type: 'refresh_token', refresh_token: first.refresh_token as string, client_id: 'patient-app', scope: 'openid patient/*.rs',
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect((narrowed.body.scope as string).split(' ').sort()).toEqual(['openid', 'patient/*.rs']);
    expect(narrowed.body.patient).toBeUndefined();
    const whole = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token as string, client_id: 'patient-app' });
    expect((whole.body.scope as string).split(' ').sort()).toEqual(['fhirUser', 'launch/patient', 'offline_access', 'openid', 'patient/*.rs']);
    expect(whole.body.patient).toBe(first.patient);
  });

  it('issue 53: lets the patient app ask for the Consent scopes, and list the grants the person gave with them', async () => {
    const scope = 'openid fhirUser launch/patient patient/Consent.rs patient/Consent.cud user/Consent.read user/Consent.write';
    const body = await signedIn(TOLVAN, undefined, { scope });
    expect((body.scope as string).split(' ').sort()).toEqual(scope.split(' ').sort());
    const listed = await fhirGet(body.access_token as string, 'Consent');
    expect([listed.status, listed.body.resourceType]).toEqual([200, 'Bundle']);
  });

  it('offers a guardian herself and the people she acts for now, by name and relationship, never a protected one', async () => {
    const code = pkce();
    const browser = new HttpBrowser();
    const { redirect, pages } = await launch(browser, service, authorizeUrl(service, code), { login: MARTA, pick: 'Lilla' });
    const picker = pages.find((p) => p.body.includes('name="prompt" value="patient"'))?.body ?? '';
    expect(picker).toContain('Märta');
    // Issue 47 item 8: how she stands to each, in words ("(guardian)" read as if Lilla were the guardian).
    expect(picker).toContain('Lilla Ström <span>— you are their guardian</span>');
    expect(picker).toContain('Märta Ström <span>— yourself</span>');
    expect(picker).not.toContain('(guardian)');
    expect(picker).not.toContain('Sara');
    expect(picker).not.toContain('Anton');
    expect(picker).not.toMatch(/\d{12}/);
    const { body } = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
    const claims = decodeJwt(body.access_token as string);
    expect(showsIdentityNumber(body.access_token as string, [MARTA, LILLA])).toBe(false);
    expect(claims.smart_patient).toBe(body.patient);
    expect(decodeJwt(body.id_token as string).fhirUser).toMatch(/^RelatedPerson\/[A-Za-z0-9\-.]{1,64}$/);

    // patient/ scopes reach the picked child, and her only.
    const lilla = await fhirGet(body.access_token as string, `Patient/${body.patient as string}`);
    expect(lilla.status).toBe(200);
    expect(JSON.stringify(lilla.body)).toContain(LILLA);
    const self = await signedIn(MARTA, 'Märta');
    expect((await fhirGet(body.access_token as string, `Observation?patient=${self.patient as string}`)).status).toBe(403);
  });

  it('issue 44 item 8: consent names whose records each scope reaches: user/ everyone she acts for, patient/ the one picked', async () => {
    const { pages } = await launch(new HttpBrowser(), service, authorizeUrl(service, pkce(), { scope: 'openid fhirUser launch/patient user/*.rs patient/Observation.rs' }),
      { login: MARTA, pick: 'Lilla' });
    const consent = pages.find((p) => p.body.includes('name="prompt" value="consent"'))?.body ?? '';
    const reach = (scope: string) => new RegExp(`<span class="reach">Whose records: ([^<]*)</span><small class="scope"><code>${scope.replace(/[.*/]/g, '\\$&')}</code>`).exec(consent)?.[1];
    const everyone = reach('user/*.rs') ?? '';
    for (const name of ['Märta Ström', 'Lilla Ström', 'Tolvan Tolvansson', 'Gösta Partnersson']) expect(everyone).toContain(name);
    expect(everyone).not.toMatch(/Sara|Anton/);
    expect(reach('patient/Observation.rs')).toBe('Lilla Ström');
    // The launch scopes reach nobody's records, so they name nobody.
    expect(consent).toMatch(/[^>]<small class="scope"><code>launch\/patient<\/code><\/small><\/li>/);
  });

  it('issue 47 item 8: the pages speak Swedish when asked (Accept-Language or the switch), name the app, and hold a main landmark', async () => {
    const browser = new HttpBrowser();
    const first = await browser.follow(await browser.get(authorizeUrl(service, pkce())), new URL(service.smart.issuer).origin);
    expect(first.body).toContain('<html lang="en">');
    expect(first.body).toContain('<h1>Sign in to Patient app</h1>');
    expect(first.body).not.toContain('patient-app');
    expect(first.body).toMatch(/<main>[\s\S]*<\/main>/);
    // The switch: ?lang=sv, remembered by a cookie for the next pages.
    const swedish = await browser.get(`${first.url}?lang=sv`);
    expect(swedish.body).toContain('<html lang="sv">');
    expect(swedish.body).toContain('<h1>Logga in i Patientappen</h1>');
    expect(swedish.body).toContain('<a href="/interaction/');
    expect(swedish.body).toContain('hreflang="en">English</a>');
    const picker = await browser.follow(await postForm(browser, swedish, { login: MARTA }), new URL(service.smart.issuer).origin);
    expect(picker.body).toContain('<html lang="sv">');
    expect(picker.body).toContain('Lilla Ström <span>— du är vårdnadshavare</span>');
    // A browser that asks for Swedish gets it without the switch.
    const inSwedish = new HttpBrowser({ 'accept-language': 'sv-SE,sv;q=0.9,en;q=0.8' });
    const asked = await inSwedish.follow(await inSwedish.get(authorizeUrl(service, pkce())), new URL(service.smart.issuer).origin);
    expect([asked.language, /<h1>[^<]*<\/h1>/.exec(asked.body)?.[0]]).toEqual(['sv', '<h1>Logga in i Patientappen</h1>']);
  });

  it("makes a delegate's fhirUser a RelatedPerson readable with that launch's token only", async () => {
    const forLilla = await signedIn(MARTA, 'Lilla');
    const fhirUser = decodeJwt(forLilla.id_token as string).fhirUser as string;
    const read = await fhirGet(forLilla.access_token as string, fhirUser);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      resourceType: 'RelatedPerson', id: fhirUser.split('/')[1], patient: { reference: `Patient/${forLilla.patient as string}` },
      relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'GUARD' }] }], name: [{ text: 'Märta Ström' }],
    });
    const forHerself = await signedIn(MARTA, 'Märta');
    expect((await fhirGet(forHerself.access_token as string, fhirUser)).status).toBe(404);
    expect((await fhirGet((await signedIn(TOLVAN)).access_token as string, fhirUser)).status).toBe(404);
  });

  it('gives nothing for a posted Patient id that was not offered (Sara, protected)', async () => {
    const saraToken = await signedIn(SARA);
    const browser = new HttpBrowser();
    const code = pkce();
    const start = await browser.follow(await browser.get(authorizeUrl(service, code)), new URL(service.smart.issuer).origin);
    const picker = await browser.follow(await postForm(browser, start, { login: MARTA }), new URL(service.smart.issuer).origin);
    const refused = await postForm(browser, picker, { patient: saraToken.patient as string });
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.body).toContain('Pick one of the people below.');
  });

  it('gives nothing for a pick posted twice, whichever comes first (hostile review: the first was taken)', async () => {
    for (const order of [['Märta', 'Lilla'], ['Lilla', 'Märta']]) {
      const browser = new HttpBrowser();
      const start = await browser.follow(await browser.get(authorizeUrl(service, pkce())), new URL(service.smart.issuer).origin);
      const picker = await browser.follow(await postForm(browser, start, { login: MARTA }), new URL(service.smart.issuer).origin);
      const form = readForm(picker.body);
      const fields = Object.entries(form.fields).filter(([name]) => name !== 'patient');
      const refused = await browser.post(new URL(form.action, picker.url).href, [...fields, ...order.map((label): [string, string] => ['patient', pickerValue(picker, label)])]);
      expect([order, refused.status, refused.location, refused.body.includes('Pick one of the people below.')]).toEqual([order, 400, undefined, true]);
    }
  });

  it('rotates the refresh token, without client_id; a reused one revokes the whole family', async () => {
    const first = await signedIn(TOLVAN);
    const refreshed = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.patient).toBe(first.patient);
    expect(decodeJwt(refreshed.body.access_token as string).smart_patient).toBe(first.patient);

    // client_id, when sent, must be the token's.
    expect((await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: 'api-docs' })).status).toBe(400);

    // The first token again: refused, and the rotated one with it (no grace period).
    const reused = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    const family = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: 'patient-app' });
    expect([family.status, family.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('issue 45 item 7: every token response (code, refresh, client credentials) says no-store and Pragma: no-cache', async () => {
    const code = pkce();
    const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code), { login: TOLVAN });
    const byCode = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
    const byRefresh = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: byCode.body.refresh_token as string });
    const clients = JSON.parse(await readFile(join(service.dataDir, 'demo-auth.json'), 'utf8')) as { clientSecrets: Record<string, string> };
    const basic = Buffer.from(`demo-integration:${clients.clientSecrets['demo-integration'] ?? ''}`).toString('base64');
    const byClient = await tokenRequest(service, { grant_type: 'client_credentials', scope: 'user/Patient-read' }, { authorization: `Basic ${basic}` });
    for (const [grant, response] of [['authorization_code', byCode], ['refresh_token', byRefresh], ['client_credentials', byClient]] as const) {
      expect([grant, response.status, response.headers['cache-control'], response.headers.pragma]).toEqual([grant, 200, 'no-store', 'no-cache']);
    }
  });

  it('issue 45 item 8: the authorization endpoint takes a POSTed form as it takes GET (OIDC Core 3.1.2.1)', async () => {
    const code = pkce();
    const query = new URL(authorizeUrl(service, code)).searchParams;
    const browser = new HttpBrowser();
    const posted = await browser.post(service.smart.authorization_endpoint, Object.fromEntries(query));
    expect(posted.status).toBe(303);
    expect(new URL(posted.location ?? '').pathname).toMatch(/^\/interaction\//);
    const { redirect } = await launchFrom(browser, service, posted, { login: TOLVAN });
    const token = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
    expect([token.status, token.body.patient]).toEqual([200, expect.any(String)]);
    // A form is the only body it takes, said as an OAuth error rather than a 404: on the service's page,
    // whatever the request accepts, since only a browser is sent here (docs/sign-in.md).
    const json = await request(service.smart.authorization_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(query)) });
    expect([json.statusCode, json.headers['content-type'], json.headers['x-frame-options']]).toEqual([400, 'text/html; charset=utf-8', 'DENY']);
    expect(await json.body.text()).toContain('<code>invalid_request</code>');
  });

  it('issue 47 item 6, issue 52 item 5: an app signing out with its ID token ends the sign-in at the server without a second question, so the next sign-in asks who', async () => {
    const browser = new HttpBrowser({ 'accept-language': 'sv' });
    const code = pkce();
    const { redirect } = await launch(browser, service, authorizeUrl(service, code), { login: TOLVAN });
    const tokens = (await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier)).body;
    // Signed in: the next launch in this browser skips the sign-in page.
    expect((await launch(browser, service, authorizeUrl(service, pkce()), { login: TOLVAN })).pages.map((p) => readForm(p.body).fields.prompt)).toEqual(['consent']);

    const end = new URL(service.oidc.end_session_endpoint);
    const signOut = (hint: string) => {
      end.search = new URLSearchParams({ id_token_hint: hint, post_logout_redirect_uri: APP_REDIRECT, client_id: 'patient-app', state: 'signed-out' }).toString();
      return browser.get(end.href);
    };
    // The hint is this sign-in's own ID token: no question, the page posts itself on with logout=yes.
    const leaving = await signOut(tokens.id_token as string);
    expect([leaving.status, leaving.language]).toEqual([200, 'sv']);
    expect(leaving.body).toMatch(/<main><h1>Loggar ut<\/h1>/);
    expect(leaving.body).not.toContain('Förbli inloggad');
    const done = await postForm(browser, leaving, {});
    const back = new URL(done.location ?? '');
    expect([`${back.origin}${back.pathname}`, back.searchParams.get('state')]).toEqual([APP_REDIRECT, 'signed-out']);

    // Signed out: the sign-in page again, where another demo person may sign in.
    const next = await launch(browser, service, authorizeUrl(service, pkce()), { login: MARTA, pick: 'Märta' });
    expect(next.pages.map((p) => readForm(p.body).fields.prompt)).toEqual(['login', 'patient', 'consent']);
    // Tolvan's ID token is no hint of Märta's sign-in: she is asked whether to sign out.
    const asked = await signOut(tokens.id_token as string);
    expect(asked.body).toMatch(/<main><h1>Logga ut\?<\/h1>/);
    expect(asked.body).toContain('name="logout">Logga ut</button>');
  });

  it('issue 47 item 6: a cancelled sign-in comes back as access_denied said in words', async () => {
    const browser = new HttpBrowser();
    const issuer = new URL(service.smart.issuer).origin;
    const login = await browser.follow(await browser.get(authorizeUrl(service, pkce())), issuer);
    const consent = await browser.follow(await postForm(browser, login, { login: TOLVAN }), issuer);
    // The consent page's Cancel is a form of the page, posted with its token (re-review helper-171, F3).
    const cancel = abortForm(consent.body);
    expect(consent.body).toMatch(/<form action="[^"]+\/abort" method="post">[\s\S]*?>Cancel<\/button><\/form>/);
    const back = new URL((await browser.follow(await browser.post(new URL(cancel.action, consent.url).href, cancel.fields), issuer)).location ?? '');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('The person cancelled the sign-in: nothing was granted');
  });

  it('revokes a refresh token at the revocation endpoint both discovery documents name (RFC 7009)', async () => {
    expect(service.smart.revocation_endpoint).toBe(service.oidc.revocation_endpoint);
    const tokens = await signedIn(TOLVAN);
    const revoked = await request(service.smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'patient-app' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await revoked.body.dump();
    expect((await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string })).status).toBe(400);
  });

  it('names SMART, OpenID and revocation in the SMART configuration', () => {
    expect(service.smart).toMatchObject({
      issuer: service.oidc.issuer, jwks_uri: service.oidc.jwks_uri,
      authorization_endpoint: service.oidc.authorization_endpoint, token_endpoint: service.oidc.token_endpoint,
      code_challenge_methods_supported: ['S256'],
    });
    expect(service.smart.capabilities).toEqual(expect.arrayContaining([
      'launch-standalone', 'context-standalone-patient', 'client-public', 'permission-offline', 'permission-v1', 'permission-v2', 'sso-openid-connect',
    ]));
    // What the demo issuer takes: the patient app's none, the client-credentials clients' shared secret (§7's symmetric), no keys.
    expect([...service.smart.token_endpoint_auth_methods_supported as string[]].sort()).toEqual(['client_secret_basic', 'none']);
    expect(service.smart.capabilities).toContain('client-confidential-symmetric');
    expect(service.smart.capabilities).not.toContain('client-confidential-asymmetric');
    expect(service.smart.introspection_endpoint).toBe(`${service.smart.issuer}/token/introspection`);
  });

  it('lets the app sign in at its own page and any loopback port and path, and nowhere else', async () => {
    for (const redirect of [`${service.base}/app/`, 'http://127.0.0.1:49152/any/path', 'http://[::1]:8080/cb']) {
      const page = await new HttpBrowser().get(authorizeUrl(service, pkce(), { redirect_uri: redirect }));
      expect([redirect, page.status]).toEqual([redirect, 303]);
      expect(new URL(page.location ?? '').origin).toBe(new URL(service.smart.issuer).origin);
    }
    for (const redirect of ['https://127.0.0.1:8765/callback', 'http://evil.example/callback', 'http://user@127.0.0.1:8765/callback', 'http://localhost:8765/callback']) {
      const page = await new HttpBrowser().get(authorizeUrl(service, pkce(), { redirect_uri: redirect }));
      expect([redirect, page.status]).toEqual([redirect, 400]);
    }
  });
});

describe('THREATS 55: SMART downgrades refused', () => {
  const errorOf = async (change: Record<string, string | undefined>) => {
    const page = await new HttpBrowser().get(authorizeUrl(service, pkce(), change));
    const back = page.location === undefined ? undefined : new URL(page.location);
    if (back?.origin === new URL(service.smart.issuer).origin) return null;
    return back?.origin === new URL(APP_REDIRECT).origin ? back.searchParams.get('error') : `${page.status}`;
  };

  it('refuses an authorization without PKCE, with plain, without aud or with a wrong one', async () => {
    expect(await errorOf({ code_challenge: undefined, code_challenge_method: undefined })).toBe('invalid_request');
    expect(await errorOf({ code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(await errorOf({ aud: undefined })).toBe('invalid_request');
    expect(await errorOf({ aud: 'https://fhir.elsewhere.example/fhir' })).toBe('invalid_request');
    expect(await errorOf({ aud: `${service.base}/fhirx` })).toBe('invalid_request');
    // The vendor's alias and one trailing slash are the same server.
    expect(await errorOf({ aud: `${service.base}/api/open/fhir` })).toBeNull();
    expect(await errorOf({ aud: `${service.fhirBase}/` })).toBeNull();
  });

  it('binds a code to its client, redirect URI and verifier, and takes it once', async () => {
    const code = pkce();
    const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code), { login: TOLVAN });
    const value = redirect.searchParams.get('code') ?? '';
    expect((await exchange(service, value, pkce().verifier)).body.error).toBe('invalid_grant');

    const again = pkce();
    const second = (await launch(new HttpBrowser(), service, authorizeUrl(service, again), { login: TOLVAN })).redirect.searchParams.get('code') ?? '';
    expect((await exchange(service, second, again.verifier, { redirect_uri: 'http://127.0.0.1:9999/other' })).body.error).toBe('invalid_grant');

    const third = pkce();
    const code3 = (await launch(new HttpBrowser(), service, authorizeUrl(service, third), { login: TOLVAN })).redirect.searchParams.get('code') ?? '';
    expect((await exchange(service, code3, third.verifier, { client_id: 'api-docs' })).status).toBeGreaterThanOrEqual(400);

    const fourth = pkce();
    const code4 = (await launch(new HttpBrowser(), service, authorizeUrl(service, fourth), { login: TOLVAN })).redirect.searchParams.get('code') ?? '';
    expect((await exchange(service, code4, fourth.verifier)).status).toBe(200);
    expect((await exchange(service, code4, fourth.verifier)).body.error).toBe('invalid_grant');
  });
});

describe('the picker and refresh ask the registry anew', () => {
  it('refuses a refresh once the person may no longer open the picked record, and pick offers only who is there now', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smart-registry-'));
    const base = 'http://127.0.0.1:9/base';
    let childStillThere = true;
    const issuer = await startDemoAuthServer({
      host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger: { warn: () => undefined, info: () => undefined },
      smart: {
        publicBaseUrl: () => base,
        sharingOffered: true,
        recordGrant: async () => undefined,
        peopleFor: async () => [
          { patientId: 'self-1', name: 'Märta Ström', basis: 'self' },
          ...(childStillThere ? [{ patientId: 'child-1', name: 'Lilla Ström', basis: 'guardian' as const, relatedPersonId: 'pair-1' }] : []),
        ],
      },
    });
    try {
      const discovery = await (await request(`${issuer.issuer}/.well-known/openid-configuration`)).body.json() as { authorization_endpoint: string; token_endpoint: string };
      const local: DemoService = { ...service, base, fhirBase: `${base}/fhir`, smart: { ...service.smart, ...discovery, issuer: issuer.issuer } };
      const code = pkce();
      const { redirect } = await launch(new HttpBrowser(), local, authorizeUrl(local, code), { login: MARTA, pick: 'Lilla' });
      const tokens = (await exchange(local, redirect.searchParams.get('code') ?? '', code.verifier)).body;
      expect([tokens.patient, decodeJwt(tokens.id_token as string).fhirUser]).toEqual(['child-1', 'RelatedPerson/pair-1']);

      childStillThere = false;
      const refused = await tokenRequest(local, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string });
      expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant']);
    } finally {
      await issuer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('issue 47 item 2: the demo issuer in use', () => {
  it('never put oidc-provider\'s capitalised warning on the console while this file signed people in and refreshed', () => {
    expect(libraryWarnings).toEqual([]);
  });
});
