/**
 * Issue 46, connected apps (docs/smart-launch.md#connected-apps): the page on the authorization
 * server where the signed-in person sees the apps holding a grant to their record and to the records
 * of those they act for, and revokes one, without JavaScript; and the same through the API the
 * patient app's tab calls. A revoked grant's refresh token is refused at once.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileGrantStore } from '../../../src/adapters/proxy-grants/file-grant-store.js';
import { HttpBrowser, readForm, type Page } from './http-browser.js';
import { launchedIn, startDemoService, tokenRequest, type DemoService } from './smart-flow.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const ANTON = '200404122384';
const GOSTA = '194608632396';

let service: DemoService;
beforeAll(async () => {
  service = await startDemoService();
}, 60_000);
afterAll(async () => service?.close());

const launched = (browser: HttpBrowser, login: string, pick?: string) => launchedIn(browser, service, login, pick);

const pageUrl = () => `${service.smart.issuer}/connected-apps`;
const refresh = (tokens: Record<string, unknown>) =>
  tokenRequest(service, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: 'patient-app' });
const items = (page: Page) => [...page.body.matchAll(/<li><h2>([^<]*)<\/h2><p>([^<]*)<\/p>/g)].map((m) => `${m[1] ?? ''}: ${m[2] ?? ''}`);

/** Märta, having launched for Lilla and revoked it on the page: her browser, and the address the revoke sent it to (its notice shown). */
async function revokedLilla(): Promise<{ marta: HttpBrowser; location: string }> {
  const marta = new HttpBrowser();
  await launched(marta, MARTA, 'Lilla');
  const before = await marta.get(pageUrl());
  const lillaForm = [...before.body.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('Lilla Ström'));
  const location = (await marta.post(pageUrl(), readForm(lillaForm ?? '').fields)).location ?? '';
  expect((await marta.get(location)).body).toContain('The access was revoked.');
  return { marta, location };
}

describe('connected apps, the page', () => {
  it('lists the apps that may read her record and those of the people she acts for, and revokes one: its refresh is refused at once', async () => {
    const marta = new HttpBrowser();
    const forLilla = await launched(marta, MARTA, 'Lilla');
    // Tolvan's own launch: Märta holds his power of attorney, so she sees it too.
    const tolvans = await launched(new HttpBrowser(), TOLVAN);

    const page = await marta.get(pageUrl());
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<main><h1>Connected apps<\/h1>/);
    expect(page.body).toContain('Signed in as Märta Ström.');
    const listed = items(page);
    expect(listed).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Patient app: Opens the record of Lilla Ström \(you are their guardian\)\. You allowed it on \d+ \w+ \d{4}, \d\d:\d\d\.$/),
      expect.stringMatching(/^Patient app: Opens the record of Tolvan Tolvansson \(you hold their power of attorney\)\. The patient allowed it on /),
    ]));
    expect(page.body).not.toMatch(/Sara|Anton|\d{12}/);

    // The button of Lilla's grant, posted as the browser posts it.
    const lillaForm = [...page.body.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('Lilla Ström'));
    const { fields } = readForm(lillaForm ?? '');
    const revoked = await marta.post(pageUrl(), fields);
    expect([revoked.status, new URL(revoked.location ?? '').searchParams.get('done')]).toEqual([303, 'revoked']);
    const after = await marta.get(revoked.location ?? '');
    expect(after.body).toContain('The access was revoked.');
    expect(items(after).some((i) => i.includes('Lilla'))).toBe(false);
    expect(items(after).some((i) => i.includes('Tolvan'))).toBe(true);

    const refused = await refresh(forLilla);
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant']);
    expect((await refresh(tolvans)).status).toBe(200);
  });

  it('revokes nothing for a form from another site, an unknown grant, or nobody signed in', async () => {
    const marta = new HttpBrowser();
    const tokens = await launched(marta, MARTA, 'Gösta');
    const { fields } = readForm((await marta.get(pageUrl())).body);
    const grant = fields.grant ?? '';
    const foreign = await request(pageUrl(), { method: 'POST', headers: { origin: 'http://127.0.0.1:9', 'content-type': 'application/x-www-form-urlencoded' }, body: `grant=${grant}` });
    expect(foreign.statusCode).toBe(403);
    // Any site's form says nothing was revoked, never that an app no longer holds access (hostile review helper-147, F1).
    const foreignPage = await foreign.body.text();
    expect(foreignPage).toContain('Nothing was revoked.');
    expect(foreignPage).not.toContain('no longer holds access');
    const signedOut = await new HttpBrowser().get(pageUrl());
    expect(signedOut.body).toContain('You are not signed in here.');
    expect(readForm(`<form action="x">${signedOut.body}</form>`).fields.grant).toBeUndefined();
    const unknown = await marta.post(pageUrl(), { ...fields, grant: 'no-such-grant' });
    expect(new URL(unknown.location ?? '').searchParams.get('done')).toBe('gone');
    expect((await refresh(tokens)).status).toBe(200);
  });

  // Hostile review helper-160 INFO: a post with no Origin was taken though the browser said it came from another site.
  it('revokes nothing that its browser says came from another site, with the page\'s own token or without an Origin', async () => {
    const marta = new HttpBrowser();
    const tokens = await launched(marta, MARTA, 'Gösta');
    const { fields } = readForm((await marta.get(pageUrl())).body);
    for (const site of ['cross-site', 'same-site']) {
      const refused = await marta.post(pageUrl(), fields, { 'sec-fetch-site': site });
      expect([refused.status, refused.location]).toEqual([403, undefined]);
      expect(refused.body).toContain('That was not sent from this page, so nothing was revoked.');
    }
    expect((await refresh(tokens)).status).toBe(200);
    const own = await marta.post(pageUrl(), fields, { 'sec-fetch-site': 'same-origin', origin: new URL(pageUrl()).origin });
    expect(new URL(own.location ?? '').searchParams.get('done')).toBe('revoked');
  });

  // Hostile review helper-160 LOW: a method the page takes not was answered as a stopped sign-in.
  it('answers a method it does not take in the page\'s own words, in English and Swedish', async () => {
    for (const [language, heading, words] of [
      ['en', 'Connected apps cannot do that', 'Nothing was changed.'],
      ['sv', 'Anslutna appar kan inte göra det', 'Ingenting ändrades.'],
    ] as const) {
      const marta = new HttpBrowser({ 'accept-language': language });
      await launched(marta, MARTA, 'Lilla');
      for (const method of ['PUT', 'PATCH']) {
        const page = await marta.ask(method, pageUrl());
        expect([page.status, page.headers?.allow, page.language]).toEqual([405, 'GET, POST', language]);
        expect(page.body).toContain(`<h1>${heading}</h1>`);
        expect(page.body).toContain(words);
        // What the page says (the demo's banner above it speaks of its sign-in, as it does on every page).
        const said = `${/<title>.*<\/title>/.exec(page.body)?.[0] ?? ''}${/<main>[\s\S]*<\/main>/.exec(page.body)?.[0] ?? ''}`;
        expect(said).toContain(heading);
        expect(said).not.toMatch(/sign-in|inloggning/i);
      }
    }
  });

  it('says an access was revoked only to the browser that revoked it: a link cannot make the page say so', async () => {
    const { marta, location } = await revokedLilla();

    // Someone else's page, opened at the address Märta was sent to, or at the bare notice.
    const tolvan = new HttpBrowser();
    await launched(tolvan, TOLVAN);
    for (const link of [location, `${pageUrl()}?done=revoked`, `${pageUrl()}?done=gone`]) {
      const page = await tolvan.get(link);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Signed in as Tolvan Tolvansson.');
      expect(page.body).not.toMatch(/role="status"/);
    }
    // Märta's own page, at a notice no post of hers sent her to.
    for (const link of [`${pageUrl()}?done=revoked`, `${pageUrl()}?done=gone`, `${location.replace('done=revoked', 'done=gone')}`]) {
      expect((await marta.get(link)).body).not.toMatch(/role="status"/);
    }
  });

  // Hostile reviews helper-147 F2, helper-148 INFO-2: the address still said so after the app was allowed again.
  it('says an access was revoked only while the page is as the revoke left it', async () => {
    const { marta, location } = await revokedLilla();
    await launched(marta, MARTA, 'Lilla');
    const again = await marta.get(location);
    expect(items(again).some((i) => i.includes('Lilla'))).toBe(true);
    expect(again.body).not.toMatch(/role="status"/);
  });

  // Hostile review helper-160 LOW: an old address of the same session said so again once the list was back as it left it.
  it('says an access was revoked only for a while after the revoke', async () => {
    const { marta, location } = await revokedLilla();
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 11 * 60_000);
    try {
      const again = await marta.get(location);
      expect(again.status).toBe(200);
      expect(again.body).toContain('Signed in as Märta Ström.');
      expect(again.body).not.toMatch(/role="status"/);
    } finally {
      later.mockRestore();
    }
    // Its time is part of what the proof is of: moved on, the address says nothing.
    const at = new URL(location).searchParams.get('at') ?? '';
    expect(at).toMatch(/^\d+$/);
    expect((await marta.get(location.replace(`at=${at}`, `at=${Number(at) + 600}`))).body).not.toMatch(/role="status"/);
  });

  // Hostile review helper-149, LOW-2: both were told "revoked", and the patient's log held two withdrawals of one grant.
  it('revokes a grant posted twice at once once: one post is told so, the other that the app holds no access', async () => {
    const marta = new HttpBrowser();
    await launched(marta, MARTA, 'Gösta');
    const form = [...(await marta.get(pageUrl())).body.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('Gösta'));
    const { fields } = readForm(form ?? '');
    const gosta = await launched(new HttpBrowser(), GOSTA);
    /** Märta's withdrawals of apps' access in Gösta's log (an earlier launch of hers that this one replaced is one). */
    const withdrawals = async () => {
      const log = await request(`${service.fhirBase}/AuditEvent?_count=500`, { headers: { authorization: `Bearer ${gosta.access_token as string}`, accept: 'application/fhir+json' } });
      const bundle = await log.body.json() as { entry?: { resource: { subtype: { code?: string }[]; agent: { who: { identifier?: { value: string } } }[] } }[] };
      return (bundle.entry ?? []).map((e) => e.resource)
        .filter((e) => e.subtype.some((s) => s.code === 'revokeAppAccess') && e.agent[0]?.who.identifier?.value === MARTA).length;
    };
    const before = await withdrawals();
    const both = await Promise.all([marta.post(pageUrl(), fields), marta.post(pageUrl(), fields)]);
    expect(both.map((b) => new URL(b.location ?? '').searchParams.get('done')).sort()).toEqual(['gone', 'revoked']);
    expect(await withdrawals()).toBe(before + 1);
  });

  it('speaks Swedish when asked', async () => {
    const marta = new HttpBrowser({ 'accept-language': 'sv' });
    await launched(marta, MARTA, 'Lilla');
    const page = await marta.get(pageUrl());
    expect([page.language, /<h1>[^<]*<\/h1>/.exec(page.body)?.[0]]).toEqual(['sv', '<h1>Anslutna appar</h1>']);
    expect(items(page).join('\n')).toContain('Öppnar journalen för Lilla Ström (du är vårdnadshavare). Du tillät det den ');
  });
});

describe('connected apps, the API of the patient app\'s tab', () => {
  const api = (token: string | undefined, method = 'GET', path = '', origin?: string) => request(`${pageUrl()}${path}`, {
    method, headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(origin === undefined ? {} : { origin }) },
  });

  it('lists and revokes with the person\'s own token of the patient app, for its page\'s origin', async () => {
    const tokens = await launched(new HttpBrowser(), MARTA, 'Lilla');
    const appOrigin = new URL(service.base).origin;
    const listed = await api(tokens.access_token as string, 'GET', '', appOrigin);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['access-control-allow-origin']).toBe(appOrigin);
    const { apps } = await listed.body.json() as { apps: { id: string; appName: string; patient: { name: string; basis: string }; allowedBy: string; scopes: string[] }[] };
    const mine = apps.find((a) => a.patient.name === 'Lilla Ström' && a.allowedBy === 'you');
    expect(mine).toMatchObject({ appName: 'Patientappen', appNames: { sv: 'Patientappen', en: 'Patient app' }, patient: { basis: 'guardian' } });
    expect(mine?.scopes).toContain('patient/*.rs');
    expect(JSON.stringify(apps)).not.toMatch(/\d{12}/);

    // Every grant she allowed for Lilla (other tests here made some too), this token's among them.
    for (const app of apps.filter((a) => a.patient.name === 'Lilla Ström' && a.allowedBy === 'you')) {
      const gone = await api(tokens.access_token as string, 'DELETE', `/${encodeURIComponent(app.id)}`, appOrigin);
      expect(gone.statusCode).toBe(204);
      await gone.body.dump();
    }
    expect((await refresh(tokens)).body.error).toBe('invalid_grant');
    // Its own grant revoked, the token lists and revokes nothing more (issue 52 item 13); another of hers finds the grant gone.
    const revokedToken = await api(tokens.access_token as string, 'GET', '', appOrigin);
    expect(revokedToken.statusCode).toBe(401);
    await revokedToken.body.dump();
    const other = await launched(new HttpBrowser(), MARTA, 'Gösta');
    const again = await api(other.access_token as string, 'DELETE', `/${encodeURIComponent(mine?.id ?? '')}`);
    expect(again.statusCode).toBe(404);
    await again.body.dump();
  });

  it('shows a proxy only the apps they allowed themself for the grantor: never the patient\'s own or another delegate\'s, which they cannot revoke', async () => {
    // Tolvan shares his lab results with Anton (an active grant, kept where the service keeps grants).
    const store = await FileGrantStore.open(service.dataDir);
    const now = Date.now();
    await store.create({
      id: 'c0ffee'.padEnd(32, '0'), state: 'active', grantor: TOLVAN, grantee: ANTON, categories: ['LabResult'],
      validFromMs: now - 60_000, createdMs: now - 60_000, changedMs: now - 60_000,
    }, () => undefined);
    const tolvans = await launched(new HttpBrowser(), TOLVAN);
    const martas = await launched(new HttpBrowser(), MARTA, 'Tolvan');
    const anton = new HttpBrowser();
    const antons = await launched(anton, ANTON, 'Tolvan');
    const page = await anton.get(pageUrl());
    const listed = items(page).filter((i) => i.includes('Tolvan'));
    expect(listed).toEqual([expect.stringMatching(/^Patient app: Opens the record of Tolvan Tolvansson \(.*\)\. You allowed it on /)]);
    const { apps } = await (await api(antons.access_token as string, 'GET', '', new URL(service.base).origin)).body.json() as { apps: { allowedBy: string; patient: { name: string } }[] };
    expect(apps.filter((a) => a.patient.name === 'Tolvan Tolvansson').map((a) => a.allowedBy)).toEqual(['you']);
    expect((await refresh(tolvans)).status).toBe(200);
    expect((await refresh(martas)).status).toBe(200);
  });

  it('refuses without a token of this server, and answers no other origin', async () => {
    // Without Authorization it is the page; with one that is not a token of this server, 401.
    const none = await api('');
    expect([none.statusCode, (await none.body.json() as { error: string }).error]).toEqual([401, 'invalid_token']);
    const forged = await api('eyJhbGciOiJub25lIn0.eyJwYXRpZW50IjoiMTk4MTEyMTg5ODc2In0.');
    expect(forged.statusCode).toBe(401);
    await forged.body.dump();
    const tokens = await launched(new HttpBrowser(), TOLVAN);
    const elsewhere = await api(tokens.access_token as string, 'GET', '', 'http://127.0.0.1:9');
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    await elsewhere.body.dump();
  });
});

describe('connected apps, a hostile address', () => {
  it('answers a grant id that is no percent-encoding of text, and the issuer serves on (it ended the process)', async () => {
    for (const id of ['%E0%A4%A', '%C0%AF', '%ED%A0%80', 'a%2']) {
      const answer = await request(`${pageUrl()}/${id}`);
      expect([id, answer.statusCode < 500]).toEqual([id, true]);
      await answer.body.dump();
    }
    const discovery = await request(`${service.smart.issuer}/.well-known/openid-configuration`);
    expect(discovery.statusCode).toBe(200);
    await discovery.body.dump();
  });
});

