/**
 * Issue 52 items 12 and 15, in production settings (the region's login, a clients file): every page of
 * the service's own authorization server a person can land on is the service's, never oidc-provider's
 * stock page. An unknown app, an unregistered redirect URI, a sign-in that is no longer known, an
 * oversized form, an unknown address, the sign-out pages and an answer posted back to an app: each in
 * Swedish and English by Accept-Language, under the strict CSP with `frame-ancestors 'none'`, with no
 * resource from elsewhere (the stock page fetched Google Fonts), no internal text, no way back to an
 * address the app did not register. An app named only by `client_name#sv` and `client_name#en` is
 * shown by the name in the page's language.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm } from '../dev/demo-issuer/http-browser.js';
import { adminPool, databaseAvailable, dropSchema } from '../support/database.js';
import { APP_ID, APP_REDIRECT, RECORD_APP, startSignInService, type SignInService } from '../support/sign-in-service.js';
import { walk } from '../support/sign-in-walk.js';

const available = await databaseAvailable();
const SCOPE = 'openid fhirUser launch/patient patient/*.rs';
const LANGS = ['sv', 'en'] as const;

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

interface Asked { method?: 'GET' | 'POST' | 'PUT'; body?: string; contentType?: string; cookie?: string }

async function ask(url: string, lang: string, init: Asked = {}): Promise<Answer> {
  const answer = await request(url, {
    method: init.method ?? 'GET', body: init.body,
    headers: {
      accept: 'text/html', 'accept-language': lang, ...(init.contentType === undefined ? {} : { 'content-type': init.contentType }),
      ...(init.cookie === undefined ? {} : { cookie: init.cookie }),
    },
  });
  return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
}

/** The service's page in `lang`: its frame, its headers, nothing fetched from elsewhere, nothing internal. */
function expectServicePage(answer: Answer, lang: string): void {
  expect(String(answer.headers['content-type'])).toMatch(/^text\/html/);
  expect(answer.body).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lang}">`));
  expect(answer.body).toContain('<main>');
  expect(answer.headers['content-language']).toBe(lang);
  const csp = String(answer.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  // For browsers that read no CSP, as the API's and the patient app's answers say it.
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.body).not.toMatch(/fonts\.googleapis|@import|<script[^>]*\ssrc=|<link[^>]*\shref=|oops|<pre>|\bat \S+ \(|Error:/);
}

/** A service of the describe block's own, started before its tests; stopped and its schema dropped after them. */
function serviceOfBlock(started: (service: SignInService) => void): void {
  let service: SignInService | undefined;
  beforeAll(async () => {
    service = await startSignInService();
    started(service);
  }, 60_000);
  afterAll(async () => {
    if (service === undefined) return;
    await service.close();
    const pool = adminPool();
    await dropSchema(pool, service.schema);
    await pool.end();
  });
}

describe.skipIf(!available)('the authorization server\'s own pages (issue 52 items 12 and 15)', () => {
  let service: SignInService;
  serviceOfBlock((started) => {
    service = started;
  });

  const authorize = (change: Record<string, string> = {}): string => `${service.issuer}/auth?${new URLSearchParams({
    response_type: 'code', client_id: APP_ID, redirect_uri: APP_REDIRECT, scope: SCOPE, state: randomBytes(8).toString('hex'), aud: `${service.base}/fhir`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', ...change,
  }).toString()}`;

  /** An interaction of a sign-in begun in another browser: its page without that browser's cookie. */
  const foreignInteraction = async (): Promise<string> => {
    const started = await new HttpBrowser().get(authorize());
    expect(started.location).toMatch(/\/auth\/interaction\//);
    return String(started.location);
  };

  /** An interaction this script began itself: its page, and the cookies the browser that began it holds. */
  const ownInteraction = async (): Promise<{ url: string; cookie: string }> => {
    const started = await request(authorize(), { headers: { accept: 'text/html' } });
    await started.body.dump();
    // As a browser sends them to the interaction: not the resume's, whose path is oidc-provider's resume (`/auth/auth/<uid>`).
    const cookie = [started.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0]).filter((c) => !/_interaction_resume/.test(c ?? '')).join('; ');
    return { url: new URL(String(started.headers.location), service.base).href, cookie };
  };

  const PAGES: Array<[string, () => Promise<{ url: string } & Asked>, number, Record<'sv' | 'en', string>]> = [
    ['an unknown app', async () => ({ url: authorize({ client_id: 'no-such-app' }) }), 400, { sv: 'inte registrerad', en: 'not registered' }],
    ['a redirect URI the app did not register', async () => ({ url: authorize({ redirect_uri: 'https://attacker.example/callback' }) }), 400,
      { sv: 'adress som inte är registrerad', en: 'address that is not registered' }],
    ['an unknown app asking for a scope that does not exist', async () => ({ url: authorize({ client_id: 'no-such-app', scope: 'openid no/such.scope' }) }), 400,
      { sv: 'inte registrerad', en: 'not registered' }],
    ['a sign-in page from another browser (or expired)', async () => ({ url: await foreignInteraction() }), 400, { sv: 'har gått ut', en: 'has expired' }],
    ['a sign-in resumed without its browser (or expired)', async () => ({ url: (await foreignInteraction()).replace('/interaction/', '/auth/') }), 400,
      { sv: 'har gått ut', en: 'has expired' }],
    ['an oversized form posted to the authorization endpoint', async () => ({
      url: `${service.issuer}/auth`, method: 'POST', body: `client_id=${APP_ID}&state=${'x'.repeat(200_000)}`, contentType: 'application/x-www-form-urlencoded',
    }), 413, { sv: 'för stor', en: 'too large' }],
    ['an address that is not there', async () => ({ url: `${service.issuer}/no-such-page` }), 404, { sv: 'finns inte', en: 'not here' }],
    ['a sign-out with an ID token hint that is not one', async () => ({ url: `${service.issuer}/session/end?id_token_hint=not-a-token` }), 400,
      { sv: 'kan inte fortsätta', en: 'cannot continue' }],
    ['a sign-out back to an address the app did not register', async () => ({
      url: `${service.issuer}/session/end?client_id=${APP_ID}&post_logout_redirect_uri=${encodeURIComponent('https://attacker.example/')}`,
    }), 400, { sv: 'adress som inte är registrerad', en: 'address that is not registered' }],
    // Issue 52 item 15: the sign-in pages' and connected apps' own refusals were bare text.
    ['an address under a sign-in with no page', async () => ({ url: `${(await foreignInteraction())}/no-such-step` }), 404, { sv: 'finns inte', en: 'not here' }],
    ['a sign-in page asked with a method it does not take', async () => ({ ...await ownInteraction(), method: 'PUT' }), 405,
      { sv: 'kan inte ta emot det som skickades', en: 'cannot take what was sent' }],
    ['the connected-apps page asked with a method it does not take', async () => ({ url: `${service.issuer}/apps`, method: 'PUT' }), 405,
      { sv: 'Ingenting ändrades', en: 'Nothing was changed' }],
    // Review 2: refused before routing (Fastify's bad URL) and by Node's parser (431), they were the API's bare JSON.
    ['a malformed address (a percent-encoding that is none)', async () => ({ url: `${service.issuer}/%ff` }), 400,
      { sv: 'går inte att läsa', en: 'cannot be read' }],
    ['an authorization address over the request header limit (about 20 KB)', async () => ({ url: authorize({ state: 'x'.repeat(20_000) }) }), 431,
      { sv: 'för stor', en: 'too large' }],
  ];

  it.each(PAGES)('%s is the service\'s page, in Swedish and English, under the strict CSP', async (_name, make, status, said) => {
    for (const lang of LANGS) {
      const { url, ...init } = await make();
      const answer = await ask(url, lang, init);
      expect([lang, answer.status]).toEqual([lang, status]);
      expectServicePage(answer, lang);
      expect(answer.body).toContain(said[lang]);
      // Never a way on to where the app did not register (the language switch is this page again).
      expect(answer.body).not.toMatch(/(href|action)="https?:\/\/attacker/);
    }
  });

  it('review 2: the API keeps its own JSON for a malformed address and an oversized request outside /auth', async () => {
    for (const [url, status] of [[`${service.base}/patients/%ff`, 400], [`${service.base}/patients?x=${'x'.repeat(20_000)}`, 431]] as const) {
      const answer = await ask(url, 'sv');
      expect([answer.status, String(answer.headers['content-type'])]).toEqual([status, 'application/json; charset=utf-8']);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: status });
    }
  });

  it('item 15: the picker\'s form posted to the consent page is the service\'s page, in Swedish and English, and grants nothing', async () => {
    for (const lang of LANGS) {
      const browser = new HttpBrowser({ 'accept-language': lang });
      let picker = await browser.get(authorize());
      while (picker.location !== undefined) picker = await browser.get(picker.location);
      const lilla = readForm(`${/<form[^>]*>(?:(?!<\/form>)[\s\S])*Lilla/.exec(picker.body)?.[0] ?? ''}</form>`);
      const consent = await browser.follow(await browser.post(new URL(lilla.action, picker.url).href, lilla.fields), service.base);
      expect(readForm(consent.body).fields.prompt).toBe('consent');
      const consentForm = readForm(consent.body);
      // The picker's form posted to the consent page: its token is the picker step's, another interaction's.
      const stale = await browser.post(new URL(consentForm.action, consent.url).href, lilla.fields);
      expect([lang, stale.status]).toEqual([lang, 403]);
      expectServicePage({ status: stale.status, headers: stale.headers ?? {}, body: stale.body }, lang);
      // The picker's fields under the consent page's own token (a form of another step): no consent is taken from it.
      const again = await browser.post(new URL(consentForm.action, consent.url).href, { ...lilla.fields, csrf: consentForm.fields.csrf ?? '' });
      expect([lang, again.status]).toEqual([lang, 400]);
      expectServicePage({ status: again.status, headers: again.headers ?? {}, body: again.body }, lang);
      expect(again.body).toContain({ sv: 'kan inte ta emot det som skickades', en: 'cannot take what was sent' }[lang]);
      expect(again.body).not.toContain('Unexpected form');
    }
  });

  it('a scope the app may not have goes back to the app as invalid_scope (RFC 6749 §4.1.2.1), not to a page', async () => {
    const answer = await ask(authorize({ scope: 'openid system/*.rs' }), 'sv');
    const back = new URL(String(answer.headers.location));
    expect([answer.status, `${back.origin}${back.pathname}`, back.searchParams.get('error')]).toEqual([303, APP_REDIRECT, 'invalid_scope']);
  });

  it('a read wildcard registered lets no app ask to share the record or to be told: invalid_scope (helper-128, F1)', async () => {
    for (const scope of ['openid launch/patient patient/Observation.rs patient/Consent.cruds', 'openid patient/Consent.cs', 'openid patient/Subscription.cs', 'openid user/Observation.cruds']) {
      const answer = await ask(authorize({ scope }), 'en');
      const back = new URL(String(answer.headers.location));
      expect([scope, answer.status, back.searchParams.get('error')]).toEqual([scope, 303, 'invalid_scope']);
    }
  });

  it('an answer posted back to the app (response_mode=form_post) is the service\'s page, its one script allowed by its hash', async () => {
    for (const lang of LANGS) {
      const answer = await ask(authorize({ response_mode: 'form_post', scope: 'openid system/*.rs' }), lang);
      expect(answer.status).toBe(400);
      expectServicePage(answer, lang);
      const form = readForm(answer.body);
      expect([form.action, form.fields.error]).toEqual([APP_REDIRECT, 'invalid_scope']);
      expect(String(answer.headers['content-security-policy'])).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    }
  });

  it('the sign-out pages: the question when no app vouches for it, the page after it, in both languages', async () => {
    for (const lang of LANGS) {
      const browser = new HttpBrowser({ 'accept-language': lang });
      const signedIn = await walk(browser, authorize({ client_id: RECORD_APP.id, redirect_uri: RECORD_APP.redirect }), { pick: 'Lilla', redirect: RECORD_APP.redirect });
      expect(signedIn.redirect?.searchParams.get('code')).toEqual(expect.any(String));
      // No ID token hint: the person is asked, the app by its name in the page's language (a form with the CSRF token).
      const question = await browser.get(`${service.issuer}/session/end?client_id=${RECORD_APP.id}`);
      expect(question.status).toBe(200);
      expect(question.body).toContain(RECORD_APP[lang]);
      expect(readForm(question.body).fields.xsrf).toEqual(expect.any(String));
      const done = await browser.post(new URL(readForm(question.body).action, question.url).href, { ...readForm(question.body).fields, logout: 'yes' });
      expect(done.status).toBe(303);
      const after = await ask(String(done.location), lang);
      expect(after.status).toBe(200);
      expectServicePage(after, lang);
      // Signed out already: the service's page posts itself on (no question left to ask).
      const again = await ask(`${service.issuer}/session/end`, lang);
      expect(again.status).toBe(200);
      expectServicePage(again, lang);
      expect(readForm(again.body).fields.logout).toBe('yes');
    }
  });

  it('item 12: an app registered with client_name#sv and client_name#en only is named so on the picker and consent pages', async () => {
    for (const lang of LANGS) {
      const browser = new HttpBrowser({ 'accept-language': lang });
      let page = await browser.get(authorize({ client_id: RECORD_APP.id, redirect_uri: RECORD_APP.redirect }));
      while (page.location !== undefined) page = await browser.get(page.location);
      expect(page.body).toContain(`${{ sv: 'Vems journal ska', en: 'Whose record should' }[lang]} ${RECORD_APP[lang]}`);
      expect(page.body).not.toContain(RECORD_APP.id);
      const lilla = /<form[^>]*>(?:(?!<\/form>)[\s\S])*Lilla/.exec(page.body)?.[0] ?? '';
      const form = readForm(`${lilla}</form>`);
      const consent = await browser.follow(await browser.post(new URL(form.action, page.url).href, form.fields), service.base);
      expect(consent.body).toContain(`${RECORD_APP[lang]} ${{ sv: 'ber om åtkomst', en: 'asks for access' }[lang]}`);
      const allowed = await browser.post(new URL(readForm(consent.body).action, consent.url).href, readForm(consent.body).fields);
      expect(String((await browser.follow(allowed, service.base)).location)).toMatch(new RegExp(`^${RECORD_APP.redirect}\\?code=`));
      // The connected-apps page names it so too (after the page's own login at the region).
      const apps = (await walk(browser, `${service.issuer}/apps`)).page;
      expect(apps.body).toContain(`<h2>${RECORD_APP[lang]}</h2>`);
    }
  });

  it('item 12: the access log names the app by its registered name (client_name#sv here), not by its client id', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const since = Date.now();
    const signedIn = await walk(new HttpBrowser(), authorize({
      client_id: RECORD_APP.id, redirect_uri: RECORD_APP.redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    }), { pick: 'Lilla', redirect: RECORD_APP.redirect });
    const exchanged = await request(`${service.issuer}/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: signedIn.redirect?.searchParams.get('code') ?? '', redirect_uri: RECORD_APP.redirect, client_id: RECORD_APP.id, code_verifier: verifier,
      }).toString(),
    });
    const tokens = await exchanged.body.json() as { access_token: string; patient: string };
    const fhir = (path: string) => request(`${service.base}/fhir/${path}`, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/fhir+json' } });
    expect((await fhir(`Patient/${tokens.patient}`)).statusCode).toBe(200);
    const log = await (await fhir(`AuditEvent?_count=500&date=ge${new Date(since - 1000).toISOString().slice(0, 19)}Z`)).body.json() as {
      entry?: { resource: { agent: { who: { display?: string; identifier?: { value: string } } }[] } }[];
    };
    const apps = (log.entry ?? []).flatMap((e) => e.resource.agent.map((a) => a.who)).filter((who) => who.identifier?.value === RECORD_APP.id);
    expect(apps.length).toBeGreaterThan(0);
    expect(new Set(apps.map((who) => who.display))).toEqual(new Set([RECORD_APP.sv]));
  });
});

describe.skipIf(!available)('issue 52 item 15: the connected apps while the sign-in store cannot answer', () => {
  let service: SignInService;
  serviceOfBlock((started) => {
    service = started;
  });

  it('the page is the service\'s, in Swedish and English, saying what to do; the API answers JSON; nothing internal either way', async () => {
    const browsers = LANGS.map((lang) => new HttpBrowser({ 'accept-language': lang }));
    const verifier = randomBytes(32).toString('base64url');
    const authorize = () => `${service.issuer}/auth?${new URLSearchParams({
      response_type: 'code', client_id: APP_ID, redirect_uri: APP_REDIRECT, scope: SCOPE, state: 'state-1', aud: `${service.base}/fhir`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    }).toString()}`;
    // The second sign-in (Märta for Lilla again) replaces the first's grant: its code is the one to exchange.
    const codes: string[] = [];
    for (const browser of browsers) codes.push((await walk(browser, authorize(), { pick: 'Lilla' })).redirect?.searchParams.get('code') ?? '');
    const exchanged = await request(`${service.issuer}/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: codes.at(-1) ?? '', redirect_uri: APP_REDIRECT, client_id: APP_ID, code_verifier: verifier,
      }).toString(),
    });
    const { access_token: token } = await exchanged.body.json() as { access_token: string };
    expect(token).toEqual(expect.any(String));
    // The sign-in store goes away (its table, as a database that lost it or refuses it would).
    const pool = adminPool();
    try {
      await pool.query(`ALTER TABLE "${service.schema}".oidc_model RENAME TO oidc_model_gone`);
      for (const [index, lang] of LANGS.entries()) {
        const page = await browsers[index]?.get(`${service.issuer}/apps`);
        expect([lang, page?.status]).toEqual([lang, 503]);
        expectServicePage({ status: page?.status ?? 0, headers: page?.headers ?? {}, body: page?.body ?? '' }, lang);
        expect(page?.body).toContain({ sv: 'Försök igen om en stund', en: 'Try again in a while' }[lang]);
        expect(page?.body).not.toMatch(/oidc_model|relation|could not be read now\. Try again\.$/);
      }
      const api = await request(`${service.issuer}/connected-apps`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      expect([api.statusCode, String(api.headers['content-type'])]).toEqual([503, 'application/json; charset=utf-8']);
      expect(await api.body.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^The connected apps cannot be read or changed now/) });
    } finally {
      await pool.query(`ALTER TABLE "${service.schema}".oidc_model_gone RENAME TO oidc_model`).catch(() => undefined);
      await pool.end();
    }
  });
});
