import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PERSONS, startDemoAuthServer, type DemoAuthServer } from '../../../src/dev/demo-issuer/demo-auth-server.js';
import { noLaunch } from './no-launch.js';
import { demoPersonToken } from '../../../src/dev/demo-issuer/demo-token.js';
import { showsIdentityNumber } from '../../support/token-identity.js';
import { HttpBrowser, readForm } from './http-browser.js';

/** The /docs page's authorization request (client `api-docs`, PKCE) with `redirect` as its redirect URI. */
const docsAuthorize = (issuer: string, redirect: string) => new HttpBrowser().get(`${issuer}/auth?${new URLSearchParams({
  client_id: 'api-docs', response_type: 'code', redirect_uri: redirect, scope: 'openid user/Patient-read',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
}).toString()}`);

const logged: unknown[] = [];
const logger = { warn: (obj: object | string) => void logged.push(obj), info: (obj: object | string) => void logged.push(obj) };

describe('issue 13 item 6: the demo sign-in page and npm run demo:token', () => {
  let dataDir: string;
  let server: DemoAuthServer;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'demo-login-test-'));
    server = await startDemoAuthServer({ host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger, smart: noLaunch() });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const loginPage = async (browser: HttpBrowser) => {
    const params = new URLSearchParams({
      client_id: 'patient-app', response_type: 'code', redirect_uri: 'http://127.0.0.1:8765/callback', scope: 'openid user/Patient-read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
    });
    return browser.follow(await browser.get(`${server.issuer}/auth?${params.toString()}`), server.issuer);
  };

  it('issue 13 item 6: says it is a demo and lists every demo person with what signing in as them shows', async () => {
    const page = await loginPage(new HttpBrowser());
    expect(page.status).toBe(200);
    expect(page.body).toContain('Demo only.');
    for (const person of DEMO_PERSONS) {
      expect(page.body).toContain(person.identityNumber);
      expect(page.body).toContain(person.shows.replace(/'/g, '&#39;'));
    }
    expect(readForm(page.body).fields.prompt).toBe('login');
  });

  it('issue 13 item 6: tells a person who typed something else what went wrong, without showing it again', async () => {
    const browser = new HttpBrowser();
    const first = await loginPage(browser);
    const { action: formAction, fields } = readForm(first.body);
    const action = new URL(formAction, first.url).href;
    const cases: Array<[string, RegExp]> = [
      ['199001011234', /not one of the demo people/], ['hello', /not an identity number/], ['20010101', /not an identity number/], ['   ', /Type the identity number/],
    ];
    for (const [typed, why] of cases) {
      const again = await browser.post(action, { ...fields, login: typed });
      expect([typed, again.status, again.location]).toEqual([typed, 200, undefined]);
      expect(/<p class="error" role="alert">([^<]*)<\/p>/.exec(again.body)?.[1]).toMatch(why);
      if (typed.trim() !== '') expect(again.body).not.toContain(typed);
    }
    // A dash before the last four is the usual way to write it, and signs in.
    const signedIn = await browser.post(action, { ...fields, login: '19121212-1212' });
    expect(signedIn.status).toBe(303);
  });

  it('issue 52 item 15: the sign-in form carries its interaction\'s token; a post without it, or with another sign-in\'s, signs nobody in', async () => {
    const browser = new HttpBrowser();
    const page = await loginPage(browser);
    const form = readForm(page.body);
    const other = readForm((await loginPage(new HttpBrowser())).body);
    expect(form.fields.csrf).toMatch(/^[\w-]{43}$/);
    expect(other.fields.csrf).not.toBe(form.fields.csrf);
    // Every form of the page (the typed number and each person's button) carries the same one.
    expect(new Set([...page.body.matchAll(/name="csrf" value="([^"]*)"/g)].map((m) => m[1]))).toEqual(new Set([form.fields.csrf]));
    const action = new URL(form.action, page.url).href;
    const bare = Object.fromEntries(Object.entries(form.fields).filter(([name]) => name !== 'csrf'));
    const warned = logged.length;
    for (const fields of [{ ...bare, login: '191212121212' }, { ...form.fields, csrf: other.fields.csrf ?? '', login: '191212121212' }]) {
      const refused = await browser.post(action, fields);
      expect([refused.status, refused.location]).toEqual([403, undefined]);
      expect(refused.body).toContain('Demo only.');
      expect(refused.body).toContain('did not come from this sign-in');
    }
    expect(logged.slice(warned)).toEqual([{ form: 'interaction', clientId: 'patient-app' }, { form: 'interaction', clientId: 'patient-app' }]);
    // Nobody was signed in: the page still asks who, and its own form signs in.
    expect(readForm((await browser.get(action)).body).fields.prompt).toBe('login');
    expect((await browser.post(action, { ...form.fields, login: '191212121212' })).status).toBe(303);
  });

  it('issue 13 item 5: "Authorize" on the /docs page can sign a demo person in: its redirect and its token request are allowed there only', async () => {
    const docs = 'http://127.0.0.1:18080/docs/static/oauth2-redirect.html';
    const withDocs = await startDemoAuthServer({ host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger, smart: noLaunch(), docsRedirectUri: docs });
    try {
      const authorize = (redirect: string) => docsAuthorize(withDocs.issuer, redirect);
      expect((await authorize(docs)).location).toMatch(new RegExp(`^${withDocs.issuer}/interaction/`));
      expect((await authorize('http://127.0.0.1:18080/elsewhere')).status).toBe(400);
      // The browser's token request (a spent code here): readable by the docs page's origin only.
      const tokenRequest = (origin: string, clientId = 'api-docs') => request(`${withDocs.issuer}/token`, {
        method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'spent', redirect_uri: docs, client_id: clientId, code_verifier: 'x'.repeat(43) }).toString(),
      });
      expect((await tokenRequest('http://127.0.0.1:18080')).headers['access-control-allow-origin']).toBe('http://127.0.0.1:18080');
      expect((await tokenRequest('http://127.0.0.1:9999')).headers['access-control-allow-origin']).toBeUndefined();
      expect((await tokenRequest('http://127.0.0.1:18080', 'patient-app')).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await withDocs.close();
    }
  });

  it('lets "Authorize" on a /docs page served over HTTPS sign a demo person in too (TLS_CERT_FILE set)', async () => {
    const docs = 'https://127.0.0.1:18443/docs/static/oauth2-redirect.html';
    const withDocs = await startDemoAuthServer({ host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger, smart: noLaunch(), docsRedirectUri: docs });
    try {
      const authorize = (redirect: string) => docsAuthorize(withDocs.issuer, redirect);
      expect((await authorize(docs)).location).toMatch(new RegExp(`^${withDocs.issuer}/interaction/`));
      expect((await authorize('http://127.0.0.1:18443/docs/static/oauth2-redirect.html')).status).toBe(400);
    } finally {
      await withDocs.close();
    }
  });

  it('issue 13 item 6: demo:token prints a person\'s token through the real PKCE flow, and explains a wrong person', async () => {
    const token = await demoPersonToken({ issuer: server.issuer, person: '198112189876' });
    const discovery = (await (await request(`${server.issuer}/.well-known/openid-configuration`)).body.json()) as { jwks_uri: string };
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(discovery.jwks_uri)), { issuer: server.issuer, audience: 'patient-data-access' });
    // Issue 52 item 11: the person's number is sealed in the token the command prints.
    expect(payload).toMatchObject({ patient: expect.any(String), client_id: 'patient-app' });
    expect(showsIdentityNumber(token, ['198112189876'])).toBe(false);
    expect(String(payload.scope).split(' ')).toEqual(expect.arrayContaining(['user/Appointment-read', 'user/JournalNote-read', 'user/Payment-write']));
    await expect(demoPersonToken({ issuer: server.issuer, person: '199001011234' })).rejects.toThrow(/not one of the demo people/);
    expect(JSON.stringify(logged)).not.toContain(token);
  });
});
