/**
 * Issue 46, "audited and in the access log" (docs/sign-in.md#what-the-person-sees): a person granting an app access to a record
 * through a SMART launch is audited before the code is issued, and the patient's access log (COS and
 * FHIR AuditEvent) shows it, and its withdrawal on the connected-apps page, by name in both
 * languages. An audit store that refuses the record makes the grant fail: no code is issued.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../../scripts/app-names/names.js';
import { startDemoAuthServer } from '../../../src/dev/demo-issuer/demo-auth-server.js';
import type { GrantEvent } from '../../../src/ports/smart-launch.port.js';
import { HttpBrowser, readForm } from './http-browser.js';
import {
  APP_REDIRECT, authorizeUrl, exchange, launch, launchedIn, pkce, postForm, startDemoService, tokenRequest, type DemoService,
} from './smart-flow.js';

const MARTA = '198112189876';
const TOLVAN = '191212121212';
const LILLA = '201701012393';
const ANTON = '200404122384';

let service: DemoService;
beforeAll(async () => {
  service = await startDemoService();
}, 60_000);
afterAll(async () => service?.close());

const launched = (browser: HttpBrowser, login: string, pick?: string) => launchedIn(browser, service, login, pick);

interface Coding { system?: string; code?: string; display?: string }
interface Event { subtype: Coding[]; action: string; recorded: string; agent: Array<{ who: { identifier?: { value: string }; display?: string } }> }

/** The launched patient's access log as FHIR AuditEvents, read with that launch's token. */
async function auditEvents(token: string): Promise<Event[]> {
  const response = await request(`${service.fhirBase}/AuditEvent?_count=500`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });
  expect(response.statusCode).toBe(200);
  const bundle = await response.body.json() as { entry?: Array<{ resource: Event }> };
  return (bundle.entry ?? []).map((e) => e.resource);
}

const ofOperation = (events: Event[], code: string) => events.filter((e) => e.subtype.some((s) => s.code === code));

describe('grants in the patient\'s access log', () => {
  it('shows Märta\'s grant of the patient app to Lilla\'s record, who and when; and its withdrawal once she revokes it', async () => {
    const marta = new HttpBrowser();
    const before = Date.now();
    await launched(marta, MARTA, 'Lilla');
    // Signing in again for the same pick is audited again, and replaces the earlier grant (issue 52 item 14).
    await launched(marta, MARTA, 'Lilla');
    // Lilla's own launch reads her log: it outlives Märta's revocation of hers.
    const reader = await launched(new HttpBrowser(), LILLA);
    const granted = ofOperation(await auditEvents(reader.access_token as string), 'grantAppAccess').filter((e) => e.agent[0]?.who.identifier?.value === MARTA);
    expect(granted).toHaveLength(2);
    const [event] = granted;
    expect(event?.action).toBe('C');
    expect(event?.subtype).toEqual([{ system: 'urn:patient-data-access:operation', code: 'grantAppAccess', display: 'An app was given access to your record' }]);
    expect(Date.parse(event?.recorded ?? '')).toBeGreaterThanOrEqual(before - 1000);
    // Who granted (the guardian, shown to herself and to the patient) and which app.
    expect(event?.agent.map((a) => a.who)).toEqual([
      { identifier: { system: 'urn:oid:1.2.752.129.2.1.3.1', value: MARTA } },
      // Named as the access log names every app: its CLIENT_NAMES name, else its client id.
      { display: 'patient-app', identifier: { value: 'patient-app' } },
    ]);

    // The patient app names them from the same table, in both languages (the COS log's operationDisplayName).
    expect([OPERATION_NAMES.grantAppAccess, OPERATION_NAMES.revokeAppAccess]).toEqual([
      { sv: 'App fick tillgång till din journal', en: 'An app was given access to your record' },
      { sv: 'Appens tillgång till din journal togs bort', en: "An app's access to your record was withdrawn" },
    ]);

    // The grant the second consent replaced ended: a withdrawal in her log, by Märta (issue 52 item 16).
    const byMarta = async () => ofOperation(await auditEvents(reader.access_token as string), 'revokeAppAccess')
      .filter((e) => e.agent[0]?.who.identifier?.value === MARTA).map((e) => [e.action, e.subtype.at(-1)?.display, e.agent[1]?.who.identifier?.value]);
    const WITHDRAWN = ['D', "An app's access to your record was withdrawn", 'patient-app'];
    expect(await byMarta()).toEqual([WITHDRAWN]);

    // Märta revokes her grant on the connected-apps page: its withdrawal is logged too.
    const page = await marta.get(`${service.smart.issuer}/connected-apps`);
    const forms = [...page.body.matchAll(/<li><h2>[\s\S]*?<\/form>/g)].map((m) => m[0]).filter((f) => f.includes('Lilla Ström') && f.includes('You allowed it'));
    expect(forms).toHaveLength(1);
    const revoked = await marta.post(`${service.smart.issuer}/connected-apps`, readForm(forms[0] ?? '').fields);
    expect(new URL(revoked.location ?? '').search).toBe('?done=revoked');
    expect(await byMarta()).toEqual([WITHDRAWN, WITHDRAWN]);
  });
});

/** A plain OAuth authorization of the patient app (the COS API's own scopes, no `aud`) with a refresh token: its token response. */
async function plainIn(browser: HttpBrowser, login: string): Promise<Record<string, unknown>> {
  const code = pkce();
  const { redirect } = await launch(browser, service, authorizeUrl(service, code, { aud: undefined, scope: 'openid offline_access user/Appointment-read' }), { login });
  return (await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier)).body;
}

/** Where the app sends the browser to sign out with its ID token, and the browser's way through (logout=yes: every app of that sign-in). */
async function signOut(browser: HttpBrowser, tokens: Record<string, unknown>, oidc: { end_session_endpoint: string } = service.oidc): Promise<number> {
  const end = new URL(oidc.end_session_endpoint);
  end.search = new URLSearchParams({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: APP_REDIRECT, client_id: 'patient-app' }).toString();
  return (await postForm(browser, await browser.get(end.href), { logout: 'yes' })).status;
}

const revocationsBy = (events: Event[], actor: string, since: number) => ofOperation(events, 'revokeAppAccess')
  .filter((e) => e.agent[0]?.who.identifier?.value === actor && Date.parse(e.recorded) >= since).map((e) => [e.action, e.agent[1]?.who.identifier?.value]);

describe('issue 52 item 16: every grant that ends is a withdrawal in the access log', () => {
  it('signing out ends the sign-in\'s grants: each a withdrawal by the person, in the picked patient\'s log or, for a plain grant, their own', async () => {
    const lillasReader = await launched(new HttpBrowser(), LILLA);
    // Märta's own launch, in another browser: not ended by this sign-out, it reads her own log.
    const martasReader = await launched(new HttpBrowser(), MARTA, 'Märta');
    const since = Date.now();
    const marta = new HttpBrowser();
    const forLilla = await launched(marta, MARTA, 'Lilla');
    await plainIn(marta, MARTA);
    expect(await signOut(marta, forLilla)).toBe(303);
    expect(revocationsBy(await auditEvents(lillasReader.access_token as string), MARTA, since)).toEqual([['D', 'patient-app']]);
    expect(revocationsBy(await auditEvents(martasReader.access_token as string), MARTA, since)).toEqual([['D', 'patient-app']]);
  });

  it('an app revoking a plain grant\'s refresh token (RFC 7009) is a withdrawal in the person\'s own log', async () => {
    const reader = await launched(new HttpBrowser(), ANTON);
    const since = Date.now();
    const plain = await plainIn(new HttpBrowser(), ANTON);
    expect(plain.refresh_token).toEqual(expect.any(String));
    const response = await request(service.smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: plain.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'patient-app' }).toString(),
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    expect(revocationsBy(await auditEvents(reader.access_token as string), ANTON, since)).toEqual([['D', 'patient-app']]);
  });
});

describe('an app revoking its own grant (RFC 7009)', () => {
  it('is audited as the withdrawal, naming the person who launched it', async () => {
    const revokedLaunch = await launched(new HttpBrowser(), TOLVAN);
    // Märta's launch for Tolvan (she holds his power of attorney) reads his log: another person's grant, not replaced by his.
    const reader = await launched(new HttpBrowser(), MARTA, 'Tolvan');
    expect(ofOperation(await auditEvents(reader.access_token as string), 'revokeAppAccess')).toEqual([]);
    const response = await request(service.smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: revokedLaunch.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'patient-app' }).toString(),
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    const withdrawn = ofOperation(await auditEvents(reader.access_token as string), 'revokeAppAccess');
    // Tolvan's own record: the actor is the patient, named by the number the log gives the patient.
    expect(withdrawn.map((e) => [e.action, e.agent[0]?.who.identifier?.value, e.agent[1]?.who.identifier?.value])).toEqual([['D', TOLVAN, 'patient-app']]);
  });

  it('review 2: by its access token ends it as its refresh token would: audited, the token and the refresh stop at once', async () => {
    const revokedLaunch = await launched(new HttpBrowser(), TOLVAN);
    // Märta's launch for Tolvan reads his log: another person's grant, which the revocation leaves alone.
    const reader = await launched(new HttpBrowser(), MARTA, 'Tolvan');
    const since = Date.now();
    const readWith = async (token: unknown) => {
      const read = await request(`${service.fhirBase}/Patient/${String(revokedLaunch.patient)}`, { headers: { authorization: `Bearer ${String(token)}`, accept: 'application/fhir+json' } });
      await read.body.dump();
      return read.statusCode;
    };
    expect(await readWith(revokedLaunch.access_token)).toBe(200);
    const response = await request(service.smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: revokedLaunch.access_token as string, token_type_hint: 'access_token', client_id: 'patient-app' }).toString(),
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    expect(await readWith(revokedLaunch.access_token)).toBe(401);
    const refreshed = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: revokedLaunch.refresh_token as string, client_id: 'patient-app' });
    expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
    expect(revocationsBy(await auditEvents(reader.access_token as string), TOLVAN, since)).toEqual([['D', 'patient-app']]);
  });
});

/** A demo issuer whose audit store refuses the records of `kind` (every one it is asked to store is kept in `asked`, each warning logged in `warned`). */
async function issuerRefusing(kind: GrantEvent['kind']) {
  const dataDir = await mkdtemp(join(tmpdir(), 'grant-audit-'));
  const asked: GrantEvent[] = [];
  const warned: string[] = [];
  const issuer = await startDemoAuthServer({
    host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir,
    logger: { warn: (obj, msg) => { warned.push(msg ?? String(obj)); }, info: () => undefined },
    smart: {
      publicBaseUrl: () => 'http://127.0.0.1:9/base',
      peopleFor: async () => [{ patientId: 'self-1', name: 'Märta Ström', basis: 'self' }],
      recordGrant: async (event) => {
        asked.push(event);
        if (event.kind === kind) throw new Error('audit store refused');
      },
    },
  });
  return { dataDir, asked, warned, issuer };
}

/** Runs `test` against a demo issuer refusing the records of `kind` (the test service pointed at it), closed and removed after. */
async function whileRefusing(kind: GrantEvent['kind'], test: (refusing: Awaited<ReturnType<typeof issuerRefusing>> & { local: DemoService }) => Promise<void>): Promise<void> {
  const refusing = await issuerRefusing(kind);
  try {
    await test({ ...refusing, local: await withIssuer(refusing.issuer) });
  } finally {
    await refusing.issuer.close();
    await rm(refusing.dataDir, { recursive: true, force: true });
  }
}

/** A launch of the patient app at `local`'s issuer in `browser`, as `login`: its token response. */
async function signedInAt(local: DemoService, browser: HttpBrowser, login: string): Promise<Record<string, unknown>> {
  const code = pkce();
  const { redirect } = await launch(browser, local, authorizeUrl(local, code), { login });
  return (await exchange(local, redirect.searchParams.get('code') ?? '', code.verifier)).body;
}

/** A refresh of the patient app's `tokens` at `local`'s issuer. */
const refreshAt = (local: DemoService, tokens: Record<string, unknown>) =>
  tokenRequest(local, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: 'patient-app' });

/** The test service, pointed at `issuer` for its sign-in (nothing is read from the service itself). */
async function withIssuer(issuer: { issuer: string }): Promise<DemoService> {
  const discovery = await (await request(`${issuer.issuer}/.well-known/openid-configuration`)).body.json() as DemoService['oidc'];
  return { ...service, base: 'http://127.0.0.1:9/base', fhirBase: 'http://127.0.0.1:9/base/fhir', oidc: discovery, smart: { ...service.smart, ...discovery, issuer: issuer.issuer } };
}

describe('a grant the audit store refuses', () => {
  // Every consent, a plain OAuth one for the COS API too (issue 52 item 3: it took another path that skipped the audit).
  it.each([
    ['a SMART launch', {}, 'patient/*.rs'],
    ['a plain OAuth authorization (COS scopes, no aud)', { aud: undefined, scope: 'openid user/Appointment-read' }, 'user/Appointment-read'],
  ])('%s: issues no code: the app gets temporarily_unavailable, and nothing is granted', async (_kind, change: Record<string, string | undefined>, scope) => {
    const base = 'http://127.0.0.1:9/base';
    const { dataDir, asked, issuer } = await issuerRefusing('granted');
    try {
      const discovery = await (await request(`${issuer.issuer}/.well-known/openid-configuration`)).body.json() as { authorization_endpoint: string; token_endpoint: string };
      const local: DemoService = { ...service, base, fhirBase: `${base}/fhir`, smart: { ...service.smart, ...discovery, issuer: issuer.issuer } };
      const { redirect } = await launch(new HttpBrowser(), local, authorizeUrl(local, pkce(), change), { login: MARTA });
      expect(redirect.searchParams.get('code')).toBeNull();
      expect(redirect.searchParams.get('error')).toBe('temporarily_unavailable');
      // A SMART launch's pick is recorded first (issue 52 item 16); a plain authorization has none.
      expect(asked.at(-1)).toEqual(expect.objectContaining({ kind: 'granted', accountId: MARTA, basis: 'self', clientId: 'patient-app', issuer: issuer.issuer }));
      expect(asked.filter((e) => e.kind !== 'picked')).toHaveLength(1);
      expect(asked.at(-1)?.scopes).toContain(scope);
    } finally {
      await issuer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('issue 52 item 16: a token the store cannot record is not issued: 503 temporarily_unavailable, no token', async () => {
    const { dataDir, asked, issuer } = await issuerRefusing('issued');
    try {
      const discovery = await (await request(`${issuer.issuer}/.well-known/openid-configuration`)).body.json() as { authorization_endpoint: string; token_endpoint: string };
      const local: DemoService = { ...service, base: 'http://127.0.0.1:9/base', fhirBase: 'http://127.0.0.1:9/base/fhir', smart: { ...service.smart, ...discovery, issuer: issuer.issuer } };
      const code = pkce();
      const { redirect } = await launch(new HttpBrowser(), local, authorizeUrl(local, code), { login: MARTA });
      const answer = await exchange(local, redirect.searchParams.get('code') ?? '', code.verifier);
      expect([answer.status, answer.body.error, answer.body.access_token]).toEqual([503, 'temporarily_unavailable', undefined]);
      expect(asked.map((e) => [e.kind, e.outcome ?? 'allowed'])).toEqual([['picked', 'allowed'], ['granted', 'allowed'], ['issued', 'allowed']]);
      expect(asked.at(-1)).toMatchObject({ accountId: MARTA, patientId: 'self-1', basis: 'self', clientId: 'patient-app', issuer: issuer.issuer });
    } finally {
      await issuer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('issue 52 item 15: a revocation on the connected-apps page the store refuses is the service\'s page in Swedish and English, and revokes nothing', async () => {
    await whileRefusing('revoked', async ({ issuer, local }) => {
      for (const lang of ['sv', 'en'] as const) {
        const browser = new HttpBrowser({ 'accept-language': lang });
        // Another person in each language: a second consent of the same person would replace the first grant (and be refused too).
        const tokens = await signedInAt(local, browser, { sv: MARTA, en: TOLVAN }[lang]);
        const page = await browser.get(`${issuer.issuer}/connected-apps`);
        const failed = await browser.post(`${issuer.issuer}/connected-apps`, readForm(page.body).fields);
        expect([lang, failed.status, failed.language]).toEqual([lang, 503, lang]);
        expect(String(failed.headers?.['content-type'])).toMatch(/^text\/html/);
        expect(String(failed.headers?.['content-security-policy'])).toContain("frame-ancestors 'none'");
        expect(failed.body).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lang}">[\\s\\S]*<main>`));
        expect(failed.body).toContain({ sv: 'Försök igen om en stund', en: 'Try again in a while' }[lang]);
        expect(failed.body).not.toMatch(/audit store refused|Error:/);
        const refreshed = await refreshAt(local, tokens);
        expect(refreshed.status).toBe(200);
      }
    });
  });

  it('issue 52 item 16: a replacement the store cannot record is refused as the consent is: temporarily_unavailable, the earlier grant kept', async () => {
    await whileRefusing('revoked', async ({ asked, issuer, local }) => {
      const browser = new HttpBrowser();
      const tokens = await signedInAt(local, browser, MARTA);
      const again = await launch(browser, local, authorizeUrl(local, pkce()), { login: MARTA });
      expect([again.redirect.searchParams.get('code'), again.redirect.searchParams.get('error')]).toEqual([null, 'temporarily_unavailable']);
      expect(asked.filter((e) => e.kind === 'revoked')).toEqual([expect.objectContaining({ accountId: MARTA, patientId: 'self-1', basis: 'self', clientId: 'patient-app', issuer: issuer.issuer })]);
      const refreshed = await refreshAt(local, tokens);
      expect(refreshed.status).toBe(200);
    });
  });

  it('issue 52 item 16: a sign-out the store cannot record still signs out and ends the grants; the failure is logged', async () => {
    await whileRefusing('revoked', async ({ asked, warned, local }) => {
      const browser = new HttpBrowser();
      const tokens = await signedInAt(local, browser, MARTA);
      expect(await signOut(browser, tokens, local.oidc)).toBe(303);
      expect(asked.filter((e) => e.kind === 'revoked')).toHaveLength(1);
      expect(warned).toContain('a grant ended by signing out could not be audited: signed out all the same');
      const refreshed = await refreshAt(local, tokens);
      expect([refreshed.status, refreshed.body.error]).toEqual([400, 'invalid_grant']);
    });
  });

  it('a withdrawal the store refuses leaves the grant in force: the revocation endpoint answers server_error, for the refresh or the access token (review 2), the refresh still works', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'grant-audit-'));
    const issuer = await startDemoAuthServer({
      host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger: { warn: () => undefined, info: () => undefined },
      smart: {
        publicBaseUrl: () => 'http://127.0.0.1:9/base',
        peopleFor: async () => [{ patientId: 'self-1', name: 'Märta Ström', basis: 'self' }],
        recordGrant: async (event) => {
          if (event.kind === 'revoked') throw new Error('audit store refused');
        },
      },
    });
    try {
      const discovery = await (await request(`${issuer.issuer}/.well-known/openid-configuration`)).body.json() as { authorization_endpoint: string; token_endpoint: string; revocation_endpoint: string };
      const local: DemoService = { ...service, base: 'http://127.0.0.1:9/base', fhirBase: 'http://127.0.0.1:9/base/fhir', smart: { ...service.smart, ...discovery, issuer: issuer.issuer } };
      const code = pkce();
      const { redirect } = await launch(new HttpBrowser(), local, authorizeUrl(local, code), { login: MARTA });
      const tokens = (await exchange(local, redirect.searchParams.get('code') ?? '', code.verifier)).body;
      const form = (more: Record<string, string>) => ({ method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'patient-app', ...more }).toString() });
      for (const token of [tokens.refresh_token, tokens.access_token]) {
        const revoking = await request(discovery.revocation_endpoint, form({ token: token as string }));
        expect([revoking.statusCode, (await revoking.body.json() as { error: string }).error]).toEqual([500, 'server_error']);
      }
      const refreshed = await request(discovery.token_endpoint, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string }));
      expect(refreshed.statusCode).toBe(200);
      await refreshed.body.dump();
    } finally {
      await issuer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
