/**
 * Issue 52 item 15, in production settings (the region's login, a clients file): every form of the
 * service's own authorization server carries a synchroniser token (`csrf`, docs/sign-in.md), bound
 * to its interaction (the picker, consent) or to the page's own session (connected apps). A post without
 * it, or with another interaction's or session's, is refused on the service's page, counted, and changes
 * nothing; the form's own fields posted back as they are work. A form over 4 KiB is 413 on the service's
 * page, the connection closed (the rest of it is never read).
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm, type Page } from '../dev/demo-issuer/http-browser.js';
import { databaseAvailable } from '../support/database.js';
import { APP_ID, APP_REDIRECT, startSignInService, stopSignInService, type SignInService } from '../support/sign-in-service.js';
import { walk } from '../support/sign-in-walk.js';

const available = await databaseAvailable();
const SCOPE = 'openid fhirUser launch/patient patient/*.rs';
const REFUSED = { en: 'did not come from this sign-in', sv: 'kom inte från den här inloggningen' } as const;

describe.skipIf(!available)('the CSRF token of every form of the authorization server (issue 52 item 15)', () => {
  let service: SignInService;
  beforeAll(async () => {
    service = await startSignInService();
  }, 60_000);
  afterAll(() => stopSignInService(service));

  const authorize = (): string => `${service.issuer}/auth?${new URLSearchParams({
    response_type: 'code', client_id: APP_ID, redirect_uri: APP_REDIRECT, scope: SCOPE, state: randomBytes(8).toString('hex'), aud: `${service.base}/fhir`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  }).toString()}`;

  const metric = async (name: string): Promise<number> => {
    const text = await (await request(`${service.instances[0]?.metrics ?? ''}/metrics`)).body.text();
    return [...text.matchAll(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  const refusals = (form: string) => metric(`pdas_sign_in_form_refusals_total{form="${form}"}`);

  /** Märta signed in at the region, at the picker of a new sign-in in `browser`. */
  async function atPicker(browser = new HttpBrowser()): Promise<{ browser: HttpBrowser; page: Page; action: string; fields: Record<string, string> }> {
    let page = await browser.get(authorize());
    while (page.location !== undefined) page = await browser.get(page.location);
    expect([page.status, readForm(page.body).fields.prompt]).toEqual([200, 'patient']);
    const form = readForm(page.body);
    return { browser, page, action: new URL(form.action, page.url).href, fields: form.fields };
  }

  /** The picker's form for `name`, its fields as the page has them. */
  const pickOf = (page: Page, name: string): Record<string, string> => {
    const form = /<form[^>]*>(?:(?!<\/form>)[\s\S])*<\/form>/g;
    const chosen = [...page.body.matchAll(form)].map((m) => m[0]).find((f) => f.includes(name));
    return readForm(chosen ?? '').fields;
  };

  /** Märta at the consent page of a new sign-in, Lilla picked. */
  async function atConsent(): Promise<{ browser: HttpBrowser; action: string; fields: Record<string, string> }> {
    const { browser, page, action } = await atPicker();
    const consent = await browser.follow(await browser.post(action, pickOf(page, 'Lilla')), service.base);
    const form = readForm(consent.body);
    expect([consent.status, form.fields.prompt]).toEqual([200, 'consent']);
    return { browser, action: new URL(form.action, consent.url).href, fields: form.fields };
  }

  const without = (fields: Record<string, string>, name: string): Record<string, string> => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== name));

  it('the picker: every form carries the interaction\'s token; a pick without it, or with another interaction\'s, is refused and picks nobody', async () => {
    const { browser, page, action } = await atPicker();
    const lilla = pickOf(page, 'Lilla');
    expect(lilla.csrf).toMatch(/^[\w-]{43}$/);
    const other = await atPicker();
    expect(other.fields.csrf).not.toBe(lilla.csrf);
    const before = await refusals('interaction');
    for (const [name, fields] of [['no token', without(lilla, 'csrf')], ['another interaction\'s token', { ...lilla, csrf: other.fields.csrf ?? '' }],
      ['an empty token', { ...lilla, csrf: '' }]] as const) {
      const refused = await browser.post(action, fields);
      expect([name, refused.status, refused.location]).toEqual([name, 403, undefined]);
      expect(refused.body).toContain(REFUSED.en);
      expect(refused.body).toMatch(/^<!DOCTYPE html><html lang="en">/);
    }
    expect(await refusals('interaction')).toBe(before + 3);
    // Nothing was picked: the picker is still where the sign-in stands, and its own form goes on.
    expect(readForm((await browser.get(action)).body).fields.prompt).toBe('patient');
    const picked = await browser.post(action, lilla);
    expect([picked.status, picked.location]).toEqual([303, expect.stringMatching(/\/auth\/auth\//)]);
  });

  it('the refusal speaks Swedish when asked', async () => {
    const { browser, page, action } = await atPicker(new HttpBrowser({ 'accept-language': 'sv' }));
    const refused = await browser.post(action, without(pickOf(page, 'Lilla'), 'csrf'));
    expect([refused.status, refused.language]).toEqual([403, 'sv']);
    expect(refused.body).toContain(REFUSED.sv);
  });

  it('consent: a consent without the token, or with another interaction\'s, grants nothing; its own form grants', async () => {
    const mine = await atConsent();
    const theirs = await atConsent();
    expect(mine.fields.csrf).toMatch(/^[\w-]{43}$/);
    for (const fields of [without(mine.fields, 'csrf'), { ...mine.fields, csrf: theirs.fields.csrf ?? '' }]) {
      const refused = await mine.browser.post(mine.action, fields);
      expect([refused.status, refused.location]).toEqual([403, undefined]);
      expect(refused.body).toContain(REFUSED.en);
    }
    const allowed = await mine.browser.follow(await mine.browser.post(mine.action, mine.fields), service.base);
    expect(String(allowed.location)).toMatch(new RegExp(`^${APP_REDIRECT}\\?code=`));
  });

  it('connected apps: a revoke without the token, or with another session\'s of the same person, revokes nothing; its own form revokes', async () => {
    // Another pick in the other browser: signing in again for the same pick would replace the grant.
    const signedIn = async (pick: string) => {
      const browser = new HttpBrowser();
      expect((await walk(browser, authorize(), { pick })).redirect).toBeDefined();
      return browser;
    };
    const other = await signedIn('yourself');
    const mineBrowser = await signedIn('Lilla');
    // Each browser signs in at the region for the page itself: two page sessions of the same person.
    const form = async (browser: HttpBrowser) => readForm((await walk(browser, `${service.issuer}/apps`)).page.body);
    const mine = { browser: mineBrowser, form: await form(mineBrowser) };
    const theirs = { form: await form(other) };
    expect(mine.form.fields.csrf).toMatch(/^[\w-]{43}$/);
    expect(theirs.form.fields.csrf).not.toBe(mine.form.fields.csrf);
    const before = await refusals('connected-apps');
    const action = new URL(mine.form.action, service.base).href;
    for (const fields of [without(mine.form.fields, 'csrf'), { ...mine.form.fields, csrf: theirs.form.fields.csrf ?? '' }]) {
      const refused = await mine.browser.post(action, fields);
      expect([refused.status, refused.location]).toEqual([403, undefined]);
      expect(refused.body).toContain('nothing was revoked');
      // The page again, its list as it was.
      expect(refused.body).toContain(`value="${mine.form.fields.grant ?? ''}"`);
    }
    expect(await refusals('connected-apps')).toBe(before + 2);
    expect((await mine.browser.get(`${service.issuer}/apps`)).body).toContain(`value="${mine.form.fields.grant ?? ''}"`);
    const revoked = await mine.browser.post(action, mine.form.fields);
    expect([revoked.status, revoked.location]).toEqual([303, expect.stringMatching(new RegExp(`^${service.issuer}/connected-apps\\?done=revoked&at=\\d+&proof=[\\w-]{43}$`))]);
    expect((await mine.browser.get(`${service.issuer}/apps`)).body).not.toContain(`value="${mine.form.fields.grant ?? ''}"`);
  });

  it('a picker form over 4 KiB is 413 on the service\'s page, the connection closed; the sign-in goes on', async () => {
    const { browser, page, action } = await atPicker();
    const lilla = pickOf(page, 'Lilla');
    const large = await browser.post(action, { ...lilla, patient: 'a'.repeat(5000) });
    expect([large.status, large.connection]).toEqual([413, 'close']);
    expect(large.body).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(large.body).toContain('too large');
    expect((await browser.post(action, lilla)).status).toBe(303);
  });

  it('a connected-apps form over 4 KiB is 413 on the service\'s page, the connection closed, nothing revoked', async () => {
    const browser = new HttpBrowser();
    expect((await walk(browser, authorize(), { pick: 'Lilla' })).redirect).toBeDefined();
    const { fields } = readForm((await walk(browser, `${service.issuer}/apps`)).page.body);
    const large = await browser.post(`${service.issuer}/apps`, { ...fields, pad: 'g'.repeat(5000) });
    expect([large.status, large.connection]).toEqual([413, 'close']);
    expect(large.body).toContain('too large');
    expect((await browser.get(`${service.issuer}/apps`)).body).toContain(`value="${fields.grant ?? ''}"`);
  });
});
