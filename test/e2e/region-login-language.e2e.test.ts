/**
 * The region's login in the person's language (helper-195, F2): the service sends the person to the
 * region asking, in OpenID Connect's `ui_locales`, for the language of the page they left (the app's
 * `ui_locales`, the pages' switch, the browser's Accept-Language, in docs/sign-in.md's order), for a
 * SMART sign-in and for the connected-apps page's own login; a language chosen with the page's switch
 * before that login is the language of the pages after it. Failed before: no `ui_locales` reached the
 * region, and `/auth/apps?lang=sv` came back from the region in English.
 */
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { databaseAvailable } from '../support/database.js';
import { APP_ID, APP_REDIRECT, startSignInService, stopSignInService, type SignInService } from '../support/sign-in-service.js';
import { walk } from '../support/sign-in-walk.js';

const available = await databaseAvailable();

describe.skipIf(!available)('the region\'s login asked for the person\'s language', () => {
  let service: SignInService;
  beforeAll(async () => {
    service = await startSignInService();
  }, 60_000);
  afterAll(() => stopSignInService(service));
  afterEach(() => {
    service.region.cancel = false;
  });

  /** The test app's authorization request, with `ui_locales` when given. */
  async function authorization(uiLocales?: string): Promise<string> {
    const app = await client.discovery(new URL(service.issuer), APP_ID, undefined, client.None(), { execute: [client.allowInsecureRequests] });
    return client.buildAuthorizationUrl(app, {
      redirect_uri: APP_REDIRECT, scope: 'openid fhirUser launch/patient patient/*.rs', state: randomBytes(8).toString('hex'), aud: `${service.base}/fhir`,
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
      ...(uiLocales === undefined ? {} : { ui_locales: uiLocales }),
    }).href;
  }

  /** The `ui_locales` of the authorization request the browser, sent from `url`, takes to the region. */
  async function askedOfRegion(browser: HttpBrowser, url: string): Promise<string | null> {
    let page = await browser.get(url);
    while (page.location !== undefined && !page.location.startsWith(service.region.issuer)) page = await browser.get(new URL(page.location, page.url).href);
    if (page.location === undefined) throw new Error(`never sent to the region: ${page.status} ${page.body.slice(0, 200)}`);
    return new URL(page.location).searchParams.get('ui_locales');
  }

  it.each([
    ['the app\'s ui_locales over the browser\'s language', 'en', 'sv-SE en', 'sv'],
    ['the app\'s first of Swedish and English', 'sv', 'fi en', 'en'],
    ['the browser\'s language when the app names none', 'sv-SE,sv;q=0.9,en;q=0.8', undefined, 'sv'],
    ['English when nothing says otherwise', 'fi', undefined, 'en'],
  ])('a SMART sign-in asks for %s', async (_, browserLanguage, appAsked, sent) => {
    expect(await askedOfRegion(new HttpBrowser({ 'accept-language': browserLanguage }), await authorization(appAsked))).toBe(sent);
  });

  it('the connected-apps page\'s login asks for the language of the switch, and the pages after it speak it', async () => {
    const browser = new HttpBrowser({ 'accept-language': 'en' });
    expect(await askedOfRegion(browser, `${service.issuer}/apps?lang=sv`)).toBe('sv');
    const walked = await walk(browser, `${service.issuer}/apps?lang=sv`);
    expect([walked.page.status, walked.page.language]).toEqual([200, 'sv']);
    expect(walked.page.body).toContain('<html lang="sv">');
    service.region.cancel = true;
    const refused = await walk(new HttpBrowser({ 'accept-language': 'en' }), `${service.issuer}/apps?lang=sv`);
    expect([refused.page.status, refused.page.language]).toEqual([200, 'sv']);
    expect(refused.page.body).toContain('Inloggningen avbröts i regionens inloggning.');
    // Shown at the region's answer, whose state is spent: no switch to run it again (helper-196, F1).
    expect(refused.page.url.startsWith(`${service.issuer}/callback?`)).toBe(true);
    expect(refused.page.body).not.toContain('<nav');
  });

  it('an answer of the region the service cannot take is told on a page with no switch to take it again', async () => {
    const page = await new HttpBrowser({ 'accept-language': 'sv' }).get(`${service.issuer}/callback?state=unknown-state&code=c`);
    expect([page.status, page.language]).toEqual([400, 'sv']);
    expect(page.body).not.toContain('<nav');
  });

  it('a language chosen with a SMART sign-in\'s switch on its way to the region is asked of it and remembered after it', async () => {
    const browser = new HttpBrowser({ 'accept-language': 'en' });
    const prompt = await browser.get(await authorization());
    expect(prompt.location).toMatch(/\/interaction\/[^/?]+$/);
    // The prompt's address with the switch, as its own pages (the 503 while the region is away) link it.
    const toRegion = await browser.get(new URL(`${String(prompt.location)}?lang=sv`, prompt.url).href);
    expect(new URL(String(toRegion.location)).searchParams.get('ui_locales')).toBe('sv');
    const picker = await walk(browser, String(toRegion.location), { pick: 'nobody of the list' });
    expect([picker.page.status, picker.page.language]).toEqual([200, 'sv']);
    expect(picker.page.body).toContain('name="patient"');
  });

  it('the page\'s login without a switch asks for the browser\'s language', async () => {
    expect(await askedOfRegion(new HttpBrowser({ 'accept-language': 'sv' }), `${service.issuer}/apps`)).toBe('sv');
    expect(await askedOfRegion(new HttpBrowser(), `${service.issuer}/apps`)).toBe('en');
  });
});
