/**
 * Issue 52 items 3, 4, 13 and 14: the grants the service's own authorization server keeps, through the
 * demo sign-in server (docs/smart-launch.md#connected-apps, docs/sign-in.md):
 * - every consent is audited before the code and listed on connected apps, a plain OAuth one (COS
 *   scopes, no `aud`) too (item 3; with the audit store refusing nothing is granted: grant-audit.test.ts);
 * - a guardian sees and revokes a child's own grants only while the access log would show them to her
 *   (item 4);
 * - a revoked grant's access tokens are refused from the next request, on COS and /fhir (item 13);
 * - one grant per app, person and pick, and signing out ends the app's grants of that session (item 14).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from './http-browser.js';
import {
  APP_REDIRECT, authorizeUrl, exchange, launch, launchedIn, pkce, postForm, startDemoService, tokenRequest, type DemoService,
} from './smart-flow.js';

const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN = '191212121212';
/** A plain OAuth authorization for the COS API: the API's own scopes, no `aud`. */
const PLAIN = { aud: undefined, scope: 'openid user/Appointment-read user/AccessLog-read' };

interface Listed { id: string; appName: string; reach: string; patient: { id: string; name: string; basis: string }; allowedBy: string; scopes: string[] }

function harness(env: () => Record<string, string> = () => ({})) {
  const state: { service?: DemoService; key?: string } = {};
  beforeAll(async () => {
    state.service = await startDemoService(env());
    state.key = (await readFile(join(state.service.dataDir, 'demo-subscription-key'), 'utf8')).trim();
  }, 60_000);
  afterAll(async () => state.service?.close());
  const service = (): DemoService => {
    if (state.service === undefined) throw new Error('not started');
    return state.service;
  };
  const cos = (token: string, path: string, patient?: string) => request(`${service().base}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': state.key ?? '', ...(patient === undefined ? {} : { patient }) },
  });
  const fhir = (token: string, path: string) => request(`${service().fhirBase}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });
  const apps = async (token: string): Promise<Listed[]> => {
    const response = await request(`${service().smart.issuer}/connected-apps`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
    return (await response.body.json() as { apps: Listed[] }).apps;
  };
  const revoke = async (token: string, grant: string): Promise<number> => {
    const response = await request(`${service().smart.issuer}/connected-apps/${encodeURIComponent(grant)}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    await response.body.dump();
    return response.statusCode;
  };
  const refresh = (tokens: Record<string, unknown>) =>
    tokenRequest(service(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: 'patient-app' });
  /** A plain OAuth authorization of the patient app in `browser`: its token response. */
  const plainIn = async (browser: HttpBrowser, login: string): Promise<Record<string, unknown>> => {
    const code = pkce();
    const { redirect } = await launch(browser, service(), authorizeUrl(service(), code, PLAIN), { login });
    return (await exchange(service(), redirect.searchParams.get('code') ?? '', code.verifier)).body;
  };
  return { service, cos, fhir, apps, revoke, refresh, plainIn, launched: (browser: HttpBrowser, login: string, pick?: string) => launchedIn(browser, service(), login, pick) };
}

/** The status and the challenge of an answer, its body read. */
async function refusal(response: Awaited<ReturnType<typeof request>>): Promise<[number, string]> {
  await response.body.dump();
  return [response.statusCode, String(response.headers['www-authenticate'] ?? '')];
}

describe('issue 52: grants of the demo sign-in server', () => {
  const h = harness();

  it('issue 52 item 3: a plain OAuth authorization (COS scopes, no aud) is audited in the person\'s access log and listed on connected apps', async () => {
    const before = Date.now();
    const tokens = await h.plainIn(new HttpBrowser(), TOLVAN);
    expect(tokens.access_token).toEqual(expect.any(String));
    const log = await h.cos(tokens.access_token as string, '/patients/accesslog/?limit=100');
    expect(log.statusCode).toBe(200);
    const entries = await log.body.json() as Array<{ operation: string; timeInUnix: number; clientApplication: { clientId?: string } }>;
    expect(entries.filter((e) => e.operation === 'grantAppAccess' && e.timeInUnix >= before - 1000 && e.clientApplication.clientId === 'patient-app')).toHaveLength(1);
    const listed = await h.apps(tokens.access_token as string);
    expect(listed).toEqual([expect.objectContaining({ appName: 'Patientappen', allowedBy: 'you', patient: expect.objectContaining({ name: 'Tolvan Tolvansson', basis: 'self' }) })]);
    expect(listed[0]?.scopes).toContain('user/Appointment-read');
  });

  it('issue 52 item 13: a grant revoked on connected apps ends its access tokens at once, on COS and on /fhir', async () => {
    const smart = await h.launched(new HttpBrowser(), MARTA, 'Lilla');
    const plain = await h.plainIn(new HttpBrowser(), MARTA);
    const patient = smart.patient as string;
    expect((await h.fhir(smart.access_token as string, `/Patient/${patient}`)).statusCode).toBe(200);
    expect((await h.cos(plain.access_token as string, '/patients/appointments/')).statusCode).toBe(200);
    // Her grants, the plain one (whose token revokes them) last: once it is revoked, its token revokes nothing more.
    const hers = (await h.apps(plain.access_token as string)).filter((a) => a.allowedBy === 'you');
    for (const app of [...hers.filter((a) => a.reach !== 'everyone'), ...hers.filter((a) => a.reach === 'everyone')]) {
      expect(await h.revoke(plain.access_token as string, app.id)).toBe(204);
    }
    const [fhirStatus, fhirChallenge] = await refusal(await h.fhir(smart.access_token as string, `/Patient/${patient}`));
    expect(fhirStatus).toBe(401);
    expect(fhirChallenge).toMatch(/^Bearer error="invalid_token", error_description="The access token's grant has ended/);
    const [cosStatus, cosChallenge] = await refusal(await h.cos(plain.access_token as string, '/patients/appointments/'));
    expect([cosStatus, cosChallenge]).toEqual([401, fhirChallenge]);
  });

  it('issue 52 item 13: an app revoking its refresh token (RFC 7009) ends its access tokens too', async () => {
    const tokens = await h.launched(new HttpBrowser(), TOLVAN);
    const patient = tokens.patient as string;
    expect((await h.fhir(tokens.access_token as string, `/Patient/${patient}`)).statusCode).toBe(200);
    const revoked = await request(h.service().smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'patient-app' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await revoked.body.dump();
    expect((await refusal(await h.fhir(tokens.access_token as string, `/Patient/${patient}`)))[0]).toBe(401);
  });

  it('issue 52 item 14: signing in again for the same app, person and pick replaces the earlier grant; another pick is another grant', async () => {
    const browser = new HttpBrowser();
    const first = await h.launched(browser, MARTA, 'Gösta');
    const second = await h.launched(browser, MARTA, 'Gösta');
    const forLilla = await h.launched(browser, MARTA, 'Lilla');
    const mine = (await h.apps(second.access_token as string)).filter((a) => a.allowedBy === 'you' && a.appName === 'Patientappen');
    expect(mine.filter((a) => a.patient.name === 'Gösta Partnersson')).toHaveLength(1);
    expect(mine.filter((a) => a.patient.name === 'Lilla Ström')).toHaveLength(1);
    // The earlier grant ended: its refresh token and its access token.
    expect((await h.refresh(first)).body.error).toBe('invalid_grant');
    expect((await refusal(await h.fhir(first.access_token as string, `/Patient/${first.patient as string}`)))[0]).toBe(401);
    expect((await h.fhir(second.access_token as string, `/Patient/${second.patient as string}`)).statusCode).toBe(200);
    expect((await h.refresh(forLilla)).status).toBe(200);
  });

  it('issue 52 item 16: a plain authorization after a launch in the same sign-in is a grant of its own: the launch keeps its picked patient', async () => {
    const browser = new HttpBrowser();
    const forLilla = await h.launched(browser, MARTA, 'Lilla');
    const plain = await h.plainIn(browser, MARTA);
    const mine = (await h.apps(plain.access_token as string)).filter((a) => a.allowedBy === 'you' && a.appName === 'Patientappen');
    expect(mine.filter((a) => a.reach === 'picked' && a.patient.name === 'Lilla Ström')).toHaveLength(1);
    expect(mine.filter((a) => a.reach === 'everyone')).toHaveLength(1);
    // Its refresh still names Lilla (a launch's token; its refreshes audited in her log).
    const refreshed = await h.refresh(forLilla);
    expect([refreshed.status, refreshed.body.patient]).toEqual([200, forLilla.patient]);
    // Both revoked again (the plain one, whose token revokes, last): the harness's later tests count Märta's grants.
    for (const app of [...mine.filter((a) => a.reach !== 'everyone'), ...mine.filter((a) => a.reach === 'everyone')]) expect(await h.revoke(plain.access_token as string, app.id)).toBe(204);
  });

  it('issue 52 item 14: signing out ends every grant the app got in that sign-in, the earlier person\'s too (Switch person)', async () => {
    const browser = new HttpBrowser();
    const forGosta = await h.launched(browser, MARTA, 'Gösta');
    const forLilla = await h.launched(browser, MARTA, 'Lilla');
    // Another sign-in of Märta's, elsewhere: not ended by this one's sign-out.
    const elsewhere = await h.launched(new HttpBrowser(), MARTA, 'Märta');
    const end = new URL(h.service().oidc.end_session_endpoint);
    end.search = new URLSearchParams({ id_token_hint: forLilla.id_token as string, post_logout_redirect_uri: APP_REDIRECT, client_id: 'patient-app' }).toString();
    const done = await postForm(browser, await browser.get(end.href), { logout: 'yes' });
    expect(done.status).toBe(303);
    for (const ended of [forGosta, forLilla]) {
      expect((await h.refresh(ended)).body.error).toBe('invalid_grant');
      expect((await refusal(await h.fhir(ended.access_token as string, `/Patient/${ended.patient as string}`)))[0]).toBe(401);
    }
    const left = await h.apps(elsewhere.access_token as string);
    expect(left.filter((a) => a.allowedBy === 'you').map((a) => a.patient.name)).toEqual(['Märta Ström']);
    expect((await h.refresh(elsewhere)).status).toBe(200);
  });
});

describe('issue 52 item 4: a child\'s own grants, shown to a guardian as the access log shows them', () => {
  // Lilla is 9: from 5 the guardian no longer sees her access log.
  const dir = mkdtempSync(join(tmpdir(), 'grant-age-'));
  writeFileSync(join(dir, 'policy.json'), JSON.stringify({ guardianAgeLimit: { operations: { getAccessLog: 5 } } }));
  const limited = harness(() => ({ RELEASE_POLICY_FILE: join(dir, 'policy.json') }));
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('issue 52 item 4: past the access log\'s guardian age limit Märta sees and revokes only her own grant for Lilla, not Lilla\'s own', async () => {
    const lillas = await limited.launched(new HttpBrowser(), LILLA);
    const martas = await limited.launched(new HttpBrowser(), MARTA, 'Lilla');
    const own = await limited.apps(lillas.access_token as string);
    expect(own.map((a) => a.allowedBy).sort()).toEqual(['another', 'you']);
    const lillasGrant = own.find((a) => a.allowedBy === 'you')?.id ?? '';
    const shown = (await limited.apps(martas.access_token as string)).filter((a) => a.patient.name === 'Lilla Ström');
    expect(shown.map((a) => a.allowedBy)).toEqual(['you']);
    expect(await limited.revoke(martas.access_token as string, lillasGrant)).toBe(404);
    expect((await limited.refresh(lillas)).status).toBe(200);
  });
});

describe('issue 52 item 4: below the limit', () => {
  const h = harness();
  it('issue 52 item 4: without an access-log age limit Märta sees Lilla\'s own grant, as her access log shows it', async () => {
    await h.launched(new HttpBrowser(), LILLA);
    const martas = await h.launched(new HttpBrowser(), MARTA, 'Lilla');
    const shown = (await h.apps(martas.access_token as string)).filter((a) => a.patient.name === 'Lilla Ström');
    expect(shown.map((a) => a.allowedBy).sort()).toEqual(['patient', 'you']);
  });
});

describe('issue 52 item 3: with the FHIR API off', () => {
  const h = harness(() => ({ FHIR_API: 'off' }));
  it('issue 52 item 3: a plain OAuth authorization is still granted, and audited in the person\'s own access log first', async () => {
    const before = Date.now();
    const tokens = await h.plainIn(new HttpBrowser(), TOLVAN);
    const log = await h.cos(tokens.access_token as string, '/patients/accesslog/?limit=100');
    expect(log.statusCode).toBe(200);
    const entries = await log.body.json() as Array<{ operation: string; timeInUnix: number; basis: string }>;
    expect(entries.filter((e) => e.operation === 'grantAppAccess' && e.timeInUnix >= before - 1000).map((e) => e.basis)).toEqual(['self']);
  });
});
