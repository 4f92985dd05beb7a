/**
 * The connected-apps page's own login (docs/sign-in.md#the-connected-apps-page, threats 60 and 61): the
 * page at `{PUBLIC_BASE_URL}/auth/apps` shows a person's apps, and the people they act for, only to a
 * browser that signed in at the region for the page itself, a few minutes ago; never on the strength of
 * the session an app's sign-in left in a shared browser. Driven as a script would, against a real
 * OpenID Provider standing in for the region's login, on the real PostgreSQL; the cookie tossing over
 * https, as a region serves it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm, type Page } from '../dev/demo-issuer/http-browser.js';
import { adminPool, databaseAvailable } from '../support/database.js';
import { ownLoopbackSource } from '../support/loopback-source.js';
import { LOA3 } from '../support/region-provider.js';
import { opensslMissing } from '../support/requirements.js';
import { APP_ID, APP_REDIRECT, startSignInService, stopSignInService, type SignInService } from '../support/sign-in-service.js';
import { walk } from '../support/sign-in-walk.js';
import { TestPki } from '../support/test-pki.js';

const available = await databaseAvailable();
const MARTA = '198112189876';
const SARA = '197305242385';
const TOLVAN = '191212121212';
/** How long a page session lasts (docs/sign-in.md#the-connected-apps-page). */
const PAGE_SESSION_SECONDS = 600;

const authorize = (service: SignInService): string => `${service.issuer}/auth?${new URLSearchParams({
  response_type: 'code', client_id: APP_ID, redirect_uri: APP_REDIRECT, scope: 'openid fhirUser launch/patient patient/*.rs',
  state: randomBytes(8).toString('hex'), aud: `${service.base}/fhir`,
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
}).toString()}`;

/** The person's apps as listed: each revoke button's text. */
const listed = (page: Page): string[] => [...page.body.matchAll(/<button type="submit">([^<]*)<\/button>/g)].map((m) => m[1] ?? '').filter((t) => t.startsWith('Revoke'));

describe.skipIf(!available)('the connected-apps page signs the person in at the region itself', () => {
  let service: SignInService;
  beforeAll(async () => {
    service = await startSignInService();
  }, 60_000);
  afterAll(() => stopSignInService(service));
  afterEach(() => {
    service.region.person = { pnr: MARTA, acr: LOA3 };
    service.region.cancel = false;
  });

  const apps = (): string => `${service.issuer}/apps`;

  /** Märta's launch for `pick` through the test's app, in `browser`. */
  async function launched(browser: HttpBrowser, pick = 'Lilla'): Promise<void> {
    const walked = await walk(browser, authorize(service), { pick });
    if (walked.redirect === undefined) throw new Error(`no redirect to the app: ${walked.page.status} ${walked.page.body.slice(0, 300)}`);
  }

  /** The page after the region's login, in `browser`, of whoever the region signs in now. */
  async function signedIntoPage(browser: HttpBrowser): Promise<Page> {
    const walked = await walk(browser, apps());
    expect(walked.seen.some((u) => u.startsWith(service.region.issuer))).toBe(true);
    expect([walked.page.status, walked.page.url]).toEqual([200, apps()]);
    return walked.page;
  }

  /** The page sessions of the service's schema made older by `seconds`, as time passing would. */
  async function aged(seconds: number): Promise<number> {
    const pool = adminPool();
    try {
      const { rowCount } = await pool.query(`UPDATE "${service.schema}".oidc_model SET expires_at = expires_at - make_interval(secs => $1),
        payload = jsonb_set(payload, '{signedInAt}', to_jsonb((payload->>'signedInAt')::bigint - $1::int)) WHERE model = 'AppsSession'`, [seconds]);
      return rowCount ?? 0;
    } finally {
      await pool.end();
    }
  }

  it('after Märta\'s launch the page lists nothing without a fresh login at the region: Sara signs in there and sees her own page, not Märta\'s', async () => {
    const browser = new HttpBrowser();
    await launched(browser);
    // Märta leaves the shared computer; Sara opens the page in the same browser.
    const asked = await browser.get(apps());
    expect(asked.status).toBe(303);
    const region = new URL(String(asked.location));
    expect(`${region.origin}`).toBe(service.region.issuer);
    expect(region.searchParams.get('prompt')).toBe('login');
    expect(asked.body).not.toContain('Lilla');
    service.region.person = { pnr: SARA, acr: LOA3 };
    const saras = await signedIntoPage(browser);
    expect(saras.body).toContain('Signed in as Sara Skyddad.');
    expect(saras.body).not.toMatch(/Märta|Lilla|Tolvan|Gösta/);
    expect(listed(saras)).toEqual([]);
    // Märta in her own browser, signed in at the region for the page, sees her app on Lilla's record.
    service.region.person = { pnr: MARTA, acr: LOA3 };
    const martas = await signedIntoPage(new HttpBrowser());
    expect(martas.body).toContain('Signed in as Märta Ström.');
    expect(listed(martas)).toContain('Revoke Test SMART app&#39;s access to Lilla Ström&#39;s record');
  });

  it('a page session older than its lifetime asks again at the region; one just younger does not', async () => {
    const browser = new HttpBrowser();
    await launched(browser);
    await signedIntoPage(browser);
    expect(await aged(PAGE_SESSION_SECONDS - 60)).toBeGreaterThan(0);
    expect((await browser.get(apps())).status).toBe(200);
    await aged(61);
    const again = await browser.get(apps());
    expect([again.status, new URL(String(again.location)).origin]).toEqual([303, service.region.issuer]);
    expect(again.body).not.toContain('Lilla');
  });

  it('"Sign out" ends the page session: the page says so, its forms revoke nothing, and the next visit asks the region again', async () => {
    const browser = new HttpBrowser();
    await launched(browser);
    const page = await signedIntoPage(browser);
    const revoke = readForm(page.body);
    const signOut = readForm(/<form[^>]*>(?:(?!<\/form>)[\s\S])*name="signout"(?:(?!<\/form>)[\s\S])*<\/form>/.exec(page.body)?.[0] ?? '');
    expect(signOut.fields.csrf).toBe(revoke.fields.csrf);
    // Without its token, a sign-out signs nobody out (a script of this site that never read the page).
    const refused = await browser.post(new URL(signOut.action, service.base).href, { signout: '1' });
    expect(refused.status).toBe(403);
    expect((await browser.get(apps())).status).toBe(200);
    const out = await browser.post(new URL(signOut.action, service.base).href, signOut.fields);
    expect([out.status, out.location]).toEqual([303, `${service.issuer}/connected-apps?done=signedOut`]);
    const said = await browser.get(String(out.location));
    expect(said.status).toBe(200);
    expect(said.body).toContain('You signed out of this page.');
    expect(said.body).toContain(`href="/auth/apps"`);
    expect(said.body).not.toContain('Lilla');
    const late = await browser.post(new URL(revoke.action, service.base).href, revoke.fields);
    expect(late.status).toBe(403);
    expect((await signedIntoPage(browser)).body).toContain(`value="${revoke.fields.grant ?? ''}"`);
  });

  it('a login refused at the region shows no apps and offers to sign in again', async () => {
    service.region.cancel = true;
    const walked = await walk(new HttpBrowser(), apps());
    expect(walked.page.status).toBe(200);
    expect(walked.page.body).toContain('The sign-in was cancelled at the region');
    expect(walked.page.body).toContain('href="/auth/apps"');
    expect(walked.page.body).not.toContain('name="grant"');
  });

  it('the page\'s login is a regionLogin record of its own: the person, no app, allowed; a refused one denied', async () => {
    // The audit table is shared with the sign-in files running beside this one, whose refused logins
    // name no person and no app either (two came between in a CI run): this test's browsers send from
    // an address of their own.
    const source = ownLoopbackSource(61);
    const dispatcher = new Agent({ localAddress: source });
    const pool = adminPool();
    try {
      const since = new Date();
      service.region.person = { pnr: SARA, acr: LOA3 };
      await signedIntoPage(new HttpBrowser({}, dispatcher));
      service.region.cancel = true;
      await walk(new HttpBrowser({}, dispatcher), apps());
      const { rows } = await pool.query(`SELECT outcome, status, actor_person_id, client_id FROM audit.access_log
        WHERE operation = 'regionLogin' AND source_address = $1 AND time BETWEEN $2 AND $3 ORDER BY id`,
      [source, since, new Date()]);
      expect(rows).toEqual([
        { outcome: 'allowed', status: 200, actor_person_id: SARA, client_id: null },
        { outcome: 'denied', status: 401, actor_person_id: null, client_id: null },
      ]);
    } finally {
      await pool.end();
      await dispatcher.close();
    }
  });
});

describe.skipIf(!available || opensslMissing())('the connected-apps page\'s session over https: none another site can plant', () => {
  let dir: string;
  let service: SignInService;
  let agent: Agent;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-apps-https-'));
    const pki = new TestPki(dir);
    service = await startSignInService({ tls: pki.server('sign-in') });
    agent = new Agent({ connect: { ca: pki.ca } });
  }, 60_000);
  afterAll(async () => {
    await stopSignInService(service);
    await agent?.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    service.region.person = { pnr: MARTA, acr: LOA3 };
  });

  const browser = (): HttpBrowser => new HttpBrowser({}, agent);
  const apps = (): string => `${service.issuer}/apps`;

  it('the page session\'s cookie is __Host-, Path=/, HttpOnly, SameSite=Lax, Secure, as long as the session', async () => {
    const person = browser();
    expect((await walk(person, apps())).page.status).toBe(200);
    const lines = person.setCookies.filter((c) => c.url.startsWith(service.base) && c.line.includes('pdas_apps=')).map((c) => c.line);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.split(';').map((a) => a.trim()).slice(1)).toEqual(['Path=/', `Max-Age=${PAGE_SESSION_SECONDS}`, 'HttpOnly', 'SameSite=Lax', 'Secure']);
    expect(lines[0]).toMatch(/^__Host-pdas_apps=[\w-]{43};/);
  });

  it('cookie tossing: the attacker\'s page session planted under the plain name shows the victim nothing of his, and asks her to sign in', async () => {
    const attacker = browser();
    service.region.person = { pnr: TOLVAN, acr: LOA3 };
    expect((await walk(attacker, apps())).page.body).toContain('Signed in as Tolvan');
    const own = attacker.held().find((c) => c.name === '__Host-pdas_apps');
    if (own === undefined) throw new Error('the attacker\'s browser holds no page session');
    // A sibling subdomain (Domain=.<parent>) or a plain-http page of the domain can set this; a browser refuses it any __Host- cookie.
    const victim = browser();
    victim.plant({ name: 'pdas_apps', value: own.value, path: '/auth' });
    const asked = await victim.get(apps());
    expect([asked.status, new URL(String(asked.location)).origin]).toEqual([303, service.region.issuer]);
    expect(asked.body).not.toContain('Tolvan');
  });

  it('login CSRF on the page: a page login the attacker began, finished at the region by the victim, signs neither browser in', async () => {
    const attacker = browser();
    let page = await attacker.get(apps());
    while (page.location !== undefined && !page.location.startsWith(service.region.issuer)) page = await attacker.get(page.location);
    const regionLink = String(page.location);
    const victim = browser();
    const victims = await walk(victim, regionLink);
    expect(victims.seen.some((u) => u.startsWith(`${service.issuer}/callback`))).toBe(true);
    expect(victims.page.status).toBe(400);
    expect(victims.page.body).not.toContain('Signed in as');
    for (const one of [victim, attacker]) {
      const asked = await one.get(apps());
      expect([asked.status, new URL(String(asked.location)).origin]).toEqual([303, service.region.issuer]);
    }
  });
});
