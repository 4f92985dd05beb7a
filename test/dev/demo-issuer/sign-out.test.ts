/**
 * Issue 55 item 8: sign out once. The app's own sign-out (RP-initiated logout with its ID token as
 * `id_token_hint` and an address it registered) ends the session without the server's "Sign out?"; any
 * other sign-out request still asks, since any page could have sent the browser there (OpenID Connect
 * RP-Initiated Logout 1.0 §2, and a CSRF guard): none without a hint, nor with another client's hint, a
 * forged one, another person's, and none that skips the form's own token. What the question guards, the
 * session, stays until the person answers it.
 */
import { SignJWT, decodeJwt } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm, type Page } from './http-browser.js';
import { APP_REDIRECT, authorizeUrl, callbackOf, launch, launchedIn, pkce, postForm, startDemoService, tokenRequest, type DemoService } from './smart-flow.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';

let service: DemoService;
beforeAll(async () => { service = await startDemoService(); }, 60_000);
afterAll(async () => service?.close());

const endSession = (browser: HttpBrowser, params: Record<string, string>): Promise<Page> => {
  const end = new URL(service.oidc.end_session_endpoint);
  end.search = new URLSearchParams(params).toString();
  return browser.get(end.href);
};
const own = (idToken: string): Record<string, string> => ({ id_token_hint: idToken, post_logout_redirect_uri: APP_REDIRECT, client_id: 'patient-app', state: 'signed-out' });
const asks = (page: Page): boolean => page.body.includes('<h1>Sign out?</h1>') && page.body.includes('Stay signed in');

/** Whether the browser's session is still signed in: a new authorization goes straight to consent, past the sign-in page. */
async function signedIn(browser: HttpBrowser): Promise<boolean> {
  const first = await browser.follow(await browser.get(authorizeUrl(service, pkce())), new URL(service.smart.issuer).origin);
  return readForm(first.body).fields.prompt !== 'login';
}

/** An ID token the docs page's client (`api-docs`) got for `login`, in a browser of its own. */
async function docsIdToken(login: string): Promise<string> {
  const browser = new HttpBrowser();
  const verifier = randomBytes(32).toString('base64url');
  const redirect = `http://127.0.0.1:0/docs/static/oauth2-redirect.html`;
  const url = new URL(service.oidc.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: 'api-docs', redirect_uri: redirect, scope: 'openid', state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  }).toString();
  const issuer = new URL(service.smart.issuer).origin;
  let page = await browser.follow(await browser.get(url.href), issuer);
  for (let step = 0; step < 3 && page.location === undefined; step += 1) {
    page = await browser.follow(await postForm(browser, page, readForm(page.body).fields.prompt === 'login' ? { login } : {}), issuer);
  }
  const code = callbackOf(page).searchParams.get('code') ?? '';
  const tokens = await tokenRequest(service, { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: 'api-docs', code_verifier: verifier });
  return tokens.body.id_token as string;
}

describe('issue 55 item 8: signing out of the app asks nothing; anything else asks', () => {
  it('the app\'s own sign-out, with its ID token and a registered address, ends the session without a question', async () => {
    const browser = new HttpBrowser();
    const tokens = await launchedIn(browser, service, TOLVAN);
    const leaving = await endSession(browser, own(tokens.id_token as string));
    expect(asks(leaving)).toBe(false);
    const form = readForm(leaving.body);
    expect(form.fields.logout).toBe('yes');
    const back = new URL((await browser.post(new URL(form.action, leaving.url).href, form.fields)).location ?? '');
    expect([`${back.origin}${back.pathname}`, back.searchParams.get('state')]).toEqual([APP_REDIRECT, 'signed-out']);
    expect(await signedIn(browser)).toBe(false);
  });

  it.each([
    ['no hint at all', () => ({})],
    ['no hint, only the app named', () => ({ client_id: 'patient-app', post_logout_redirect_uri: APP_REDIRECT })],
  ])('%s: the question, and the session kept until it is answered', async (_name, params) => {
    const browser = new HttpBrowser();
    await launchedIn(browser, service, TOLVAN);
    const asked = await endSession(browser, params());
    expect(asks(asked)).toBe(true);
    // Nothing posts itself: the page holds oidc-provider's form and the two buttons, no script.
    expect(asked.body).not.toContain('<script');
    expect(await signedIn(browser)).toBe(true);
    // "Stay signed in" keeps it; "Sign out" ends it.
    const form = readForm(asked.body);
    await browser.post(new URL(form.action, asked.url).href, form.fields);
    expect(await signedIn(browser)).toBe(true);
    const again = await endSession(browser, params());
    const answer = readForm(again.body);
    await browser.post(new URL(answer.action, again.url).href, { ...answer.fields, logout: 'yes' });
    expect(await signedIn(browser)).toBe(false);
  });

  it('another client\'s ID token, of an app not signed in here, asks; named for the app, it is refused', async () => {
    const browser = new HttpBrowser();
    await launchedIn(browser, service, TOLVAN);
    const docs = await docsIdToken(TOLVAN);
    expect(decodeJwt(docs).aud).toBe('api-docs');
    expect(asks(await endSession(browser, { id_token_hint: docs }))).toBe(true);
    const mismatch = await endSession(browser, { ...own(docs) });
    expect([mismatch.status, asks(mismatch), mismatch.body.includes('name="logout" value="yes"')]).toEqual([400, false, false]);
    expect(await signedIn(browser)).toBe(true);
  });

  it('another person\'s ID token of the same app asks', async () => {
    const browser = new HttpBrowser();
    await launchedIn(browser, service, TOLVAN);
    const martas = await launchedIn(new HttpBrowser(), service, MARTA, 'Märta');
    expect(asks(await endSession(browser, own(martas.id_token as string)))).toBe(true);
    expect(await signedIn(browser)).toBe(true);
  });

  // Hostile review helper-163, F2: the ID tokens carried no `sid`, and the person's token of another browser signed this one out unasked.
  it('the same person\'s ID token of the same app from another browser asks, and is bound to its own browser\'s session', async () => {
    const browser = new HttpBrowser();
    const here = await launchedIn(browser, service, TOLVAN);
    const elsewhere = await launchedIn(new HttpBrowser(), service, TOLVAN);
    const sids = [here, elsewhere].map((tokens) => decodeJwt(tokens.id_token as string).sid);
    expect(sids.every((sid) => typeof sid === 'string' && sid.length > 0)).toBe(true);
    expect(sids[0]).not.toBe(sids[1]);
    expect(asks(await endSession(browser, own(elsewhere.id_token as string)))).toBe(true);
    expect(await signedIn(browser)).toBe(true);
  });

  it('a forged hint (this app, this person, a key of its own) is refused on the service\'s page, and signs nobody out', async () => {
    const browser = new HttpBrowser();
    const tokens = await launchedIn(browser, service, TOLVAN);
    const claims = decodeJwt(tokens.id_token as string);
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(randomBytes(32));
    const refused = await endSession(browser, own(forged));
    expect([refused.status, asks(refused), refused.body.includes('name="logout" value="yes"')]).toEqual([400, false, false]);
    expect(await signedIn(browser)).toBe(true);
  });

  it('the confirmation posted without the page\'s own token (another site\'s form) signs nobody out', async () => {
    const browser = new HttpBrowser();
    await launchedIn(browser, service, TOLVAN);
    const confirm = new URL(service.oidc.end_session_endpoint);
    confirm.pathname = `${confirm.pathname}/confirm`;
    const posted = await browser.post(confirm.href, { logout: 'yes' });
    // 403, as every form without its page's token is (docs/sign-in.md), on the service's page saying so.
    expect(posted.status).toBe(403);
    expect(posted.body).toContain('did not come from this sign-in\'s own page');
    expect(await signedIn(browser)).toBe(true);
  });

  it('a launch\'s code is unaffected by a question left unanswered', async () => {
    const browser = new HttpBrowser();
    await launchedIn(browser, service, TOLVAN);
    await endSession(browser, {});
    const code = pkce();
    const { redirect } = await launch(browser, service, authorizeUrl(service, code), { login: TOLVAN });
    expect(redirect.searchParams.get('code')).toEqual(expect.any(String));
  });
});
