/**
 * The sign-in pages in the language the app asks for (OpenID Connect's `ui_locales` on the authorization request),
 * on every page of that sign-in, where the person has not chosen one with the pages' own switch. Newcomer
 * walk-through helper-193, F5: the patient app set to Svenska still got an English sign-in page, the authorization
 * request's `ui_locales` unread past the request itself. Failed before: "Sign in to Patient app".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm } from './http-browser.js';
import { authorizeUrl, pkce, postForm, startDemoService, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const heading = (html: string): string | undefined => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

describe('ui_locales on the authorization request', () => {
  let service: DemoService;
  beforeAll(async () => { service = await startDemoService(); }, 60_000);
  afterAll(async () => service?.close());

  it('gives a browser that asks for English the app\'s Swedish, on the sign-in, picker and consent pages', async () => {
    const browser = new HttpBrowser({ 'accept-language': 'en' });
    const issuer = new URL(service.smart.issuer).origin;
    const login = await browser.follow(await browser.get(`${authorizeUrl(service, pkce())}&ui_locales=sv-SE%20en`), issuer);
    expect(heading(login.body)).toBe('Logga in i Patientappen');
    expect(login.body).toContain('<html lang="sv"');
    const pick = await browser.follow(await postForm(browser, login, { login: MARTA }), issuer);
    expect(heading(pick.body)).toBe('Vems journal ska Patientappen öppna?');
    const form = readForm(pick.body);
    const lilla = /name="patient" value="([^"]+)"[^]*?Lilla/.exec(pick.body)?.[1] ?? '';
    const consent = await browser.follow(await browser.post(new URL(form.action, pick.url).href, { ...form.fields, patient: lilla }), issuer);
    expect(heading(consent.body)).toBe('Patientappen ber om åtkomst');
  });

  it('yields to the language the person chose with the pages\' switch', async () => {
    const browser = new HttpBrowser({ 'accept-language': 'sv' });
    browser.plant({ name: 'pdas_lang', value: 'en', path: '/' });
    const issuer = new URL(service.smart.issuer).origin;
    const login = await browser.follow(await browser.get(`${authorizeUrl(service, pkce())}&ui_locales=sv`), issuer);
    expect(heading(login.body)).toBe('Sign in to Patient app');
  });
});
