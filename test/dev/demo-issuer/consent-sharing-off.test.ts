/**
 * Hostile review helper-147, F3: with PROXY_GRANTS=off, where both doors answer every sharing route
 * 403 "This region does not offer sharing", the consent page still worded sharing's scopes as what the
 * app could do, and with someone else picked as whose grants they reached. It now says the region does
 * not offer it, whoever was picked; with sharing on, the page is as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from './http-browser.js';
import { authorizeUrl, launch, pkce, startDemoService, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const SCOPES = 'openid fhirUser launch/patient user/Proxy-read patient/Consent.cud patient/*.rs';

let off: DemoService;
let on: DemoService;
beforeAll(async () => {
  [off, on] = await Promise.all([startDemoService({ PROXY_GRANTS: 'off' }), startDemoService()]);
}, 60_000);
afterAll(async () => Promise.all([off?.close(), on?.close()]));

/** Whose records the consent page of Märta's launch (picking `pick`) names for each of the last three scopes. */
async function whose(service: DemoService, pick: string, lang: 'en' | 'sv' = 'en'): Promise<(string | undefined)[]> {
  const browser = new HttpBrowser({ 'accept-language': lang });
  const { pages } = await launch(browser, service, authorizeUrl(service, pkce(), { scope: SCOPES }), { login: MARTA, pick });
  const consent = pages.find((p) => p.body.includes('name="prompt" value="consent"'))?.body ?? '';
  return SCOPES.split(' ').slice(3).map((s) =>
    new RegExp(`<span class="reach">([^<]*)</span><small class="scope"><code>${s.replace(/[.*/]/g, '\\$&')}</code>`).exec(consent)?.[1]);
}

describe('the consent page where the region does not offer sharing', () => {
  it('says so for sharing\'s scopes, whoever was picked, in either language', async () => {
    const none = 'Whose records: nobody\'s (this region does not offer sharing your record)';
    expect(await whose(off, 'Märta')).toEqual([none, none, 'Whose records: Märta Ström']);
    expect(await whose(off, 'Lilla')).toEqual([none, none, 'Whose records: Lilla Ström']);
    const ingen = 'Vems journaler: ingens (regionen erbjuder inte att dela din journal)';
    expect((await whose(off, 'Lilla', 'sv')).slice(0, 2)).toEqual([ingen, ingen]);
  });

  it('words them as before where it does', async () => {
    expect(await whose(on, 'Märta')).toEqual([undefined, undefined, 'Whose records: Märta Ström']);
    expect(await whose(on, 'Lilla')).toEqual(['Whose records: yours', 'Whose records: nobody\'s (sharing your record needs the app opened for yourself)', 'Whose records: Lilla Ström']);
  });
});
