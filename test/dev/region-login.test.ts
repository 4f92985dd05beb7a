/**
 * Issue 55 item 9: `npm run region-login`, the development stand-in for a region's login
 * (docs/sign-in.md#set-it-up-in-an-hour). It starts and answers OpenID discovery as the Swedish profile's
 * provider (the scope, the identity and coordination number claims, LoA 2 and 3), keeps the service's
 * client secret in the folder it is given (0600, the same on the next start), signs in whoever is named
 * on its page (in Swedish and English, saying it is a stand-in) at LoA 3 with the number in the
 * profile's claim, refuses what is no identity number and a form from another site, and never listens
 * on an address another machine could reach.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress, startRegionLogin, type RegionLogin } from '../../src/dev/region-login/region-login.js';
import { COORDINATION_NUMBER_CLAIM, LOA2, LOA3, PERSONAL_IDENTITY_NUMBER_CLAIM, PNR_SCOPE } from '../../src/dev/region-login/region-provider.js';
import { HttpBrowser, readForm } from './demo-issuer/http-browser.js';
import { startStandIn as started, stopStandIn as stopped } from '../support/region-login-command.js';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';

const REDIRECT = 'http://127.0.0.1:8765/auth/callback';

describe('issue 55 item 9: npm run region-login', RUNS_COMMANDS, () => {
  let folder: string;
  beforeAll(async () => { folder = await mkdtemp(path.join(tmpdir(), 'pdas-region-login-')); });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('starts on loopback, answers discovery as the Swedish profile\'s provider, and keeps the service\'s secret in the folder', async () => {
    const first = await started(folder, ['--service', 'http://127.0.0.1:8765']);
    try {
      expect(first.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.stdout).toMatch(/^DEVELOPMENT STAND-IN for the region's login, not for production/);
      expect(first.stdout).toContain(`SIGN_IN_LOGIN_ACR=${LOA3}`);
      expect(first.stdout).toContain(`it sends people back to ${REDIRECT}`);
      const discovery = await (await request(`${first.issuer}/.well-known/openid-configuration`)).body.json() as Record<string, unknown>;
      expect(discovery).toMatchObject({
        issuer: first.issuer, acr_values_supported: [LOA2, LOA3], code_challenge_methods_supported: ['S256'],
        scopes_supported: expect.arrayContaining(['openid', PNR_SCOPE]), claims_supported: expect.arrayContaining([PERSONAL_IDENTITY_NUMBER_CLAIM, COORDINATION_NUMBER_CLAIM, 'acr']),
      });
    } finally {
      await stopped(first.child);
    }
    const file = path.join(folder, 'region-client-secret');
    const secret = await readFile(file, 'utf8');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(secret.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.stdout).not.toContain(secret.trim());
    const again = await started(folder);
    await stopped(again.child);
    expect(await readFile(file, 'utf8')).toBe(secret);
  });

  it.each(['0.0.0.0', '::', '192.0.2.10', 'example.org', '127.0.0.1.nip.io'])('refuses to listen on %s, which is no loopback address', async (host) => {
    const run = await runScript('region-login.ts', [folder, '--host', host, '--port', '0'], {}, { timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--host ${host} is not a loopback address`);
  });

  it('takes only loopback addresses as loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST'].filter((h) => !isLoopbackAddress(h))).toEqual([]);
    expect(['0.0.0.0', '::', '::ffff:7f00:1', '10.0.0.1', '127.0.0.1.nip.io', 'localhost.example.org', '128.0.0.1'].filter(isLoopbackAddress)).toEqual([]);
  });
});

describe('issue 55 item 9: signing in at the stand-in', () => {
  let login: RegionLogin;
  let config: client.Configuration;
  beforeAll(async () => {
    login = await startRegionLogin({ host: '127.0.0.1', port: 0, client: { clientId: 'pdas', clientSecret: 'stand-in-test-secret', redirectUris: [REDIRECT] } });
    config = await client.discovery(new URL(login.issuer), 'pdas', 'stand-in-test-secret', undefined, { execute: [client.allowInsecureRequests] });
  });
  afterAll(async () => login?.close());

  /** The stand-in's page for a new authorization, in a browser of its own speaking `lang`; `asked`: the authorization request's `ui_locales`. */
  async function loginPage(lang: string, asked?: string) {
    const browser = new HttpBrowser({ 'accept-language': lang });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: `openid ${PNR_SCOPE}`, acr_values: LOA3, state: 's', nonce: 'n', prompt: 'login',
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...(asked === undefined ? {} : { ui_locales: asked }),
    });
    const page = await browser.follow(await browser.get(url.href), login.issuer);
    return { browser, verifier, page };
  }

  /** Posts `number` on the page, and exchanges the code it comes back with: the ID token's claims. */
  async function signIn(number: string): Promise<Record<string, unknown>> {
    const { browser, verifier, page } = await loginPage('en');
    const form = readForm(page.body);
    const back = await browser.follow(await browser.post(new URL(form.action, page.url).href, { login: number }), login.issuer);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.location ?? ''), { pkceCodeVerifier: verifier, expectedState: 's', expectedNonce: 'n' });
    return decodeJwt(String(tokens.id_token));
  }

  it.each([['sv', 'Vem loggar in?', 'Utvecklingsersättare för regionens inloggning'], ['en', 'Who signs in?', 'Development stand-in for the region\'s login']])(
    'asks who signs in, saying it is a development stand-in (%s)', async (lang, heading, banner) => {
      const { page } = await loginPage(lang);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`<html lang="${lang}">`);
      expect(page.body).toContain(`<h1>${heading}</h1>`);
      expect(page.body).toContain(banner);
      expect(String(page.headers?.['content-security-policy'])).toContain("default-src 'none'");
    });

  it('speaks the language the service asks for in ui_locales (the page the person left), on its page and after a wrong number', async () => {
    const { browser, page } = await loginPage('en', 'sv');
    expect([page.headers?.['content-language'], page.body.includes('<h1>Vem loggar in?</h1>')]).toEqual(['sv', true]);
    const wrong = await browser.post(new URL(readForm(page.body).action, page.url).href, { login: '191212121213' });
    expect([wrong.status, wrong.headers?.['content-language']]).toEqual([400, 'sv']);
    expect((await loginPage('sv', 'en')).page.body).toContain('<h1>Who signs in?</h1>');
  });

  it('signs in a personal identity number at LoA 3, and a coordination number in its own claim', async () => {
    expect(await signIn('19121212-1212')).toMatchObject({ [PERSONAL_IDENTITY_NUMBER_CLAIM]: '191212121212', acr: LOA3, aud: 'pdas', nonce: 'n' });
    const gosta = await signIn('194608632396');
    expect(gosta).toMatchObject({ [COORDINATION_NUMBER_CLAIM]: '194608632396', acr: LOA3 });
    expect(gosta).not.toHaveProperty(PERSONAL_IDENTITY_NUMBER_CLAIM);
  });

  it('refuses what is no identity number, and a form posted from another site', async () => {
    const { browser, page } = await loginPage('sv');
    const action = new URL(readForm(page.body).action, page.url).href;
    const wrong = await browser.post(action, { login: '191212121213' });
    expect([wrong.status, wrong.body.includes('Det är inget giltigt person- eller samordningsnummer')]).toEqual([400, true]);
    const cookie = browser.held().map((c) => `${c.name}=${c.value}`).join('; ');
    for (const site of [{ origin: 'https://attacker.example' }, { 'sec-fetch-site': 'cross-site', origin: 'null' }]) {
      const foreign = await request(action, { method: 'POST', body: 'login=191212121212', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...site } });
      await foreign.body.dump();
      expect([foreign.statusCode, foreign.headers.location]).toEqual([403, undefined]);
    }
    // The page's own post, as a browser sends it under its no-referrer policy.
    const own = await request(action, { method: 'POST', body: 'login=191212121212', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: 'null', 'sec-fetch-site': 'same-origin' } });
    await own.body.dump();
    expect(own.statusCode).toBe(303);
  });
});
