/**
 * Issue 46 (docs/sign-in.md, threats 60 and 61): the service's own authorization server with a real
 * OpenID Provider standing in for the region's login (test/support/region-provider.ts). A generic OAuth
 * client (openid-client) completes a SMART standalone launch: the region signs Märta in, she picks
 * Lilla, consents, and the app reads Lilla's record and refreshes. Each way the region's answer can be
 * wrong (another audience, nonce, issuer or key, a lower acr, a cancel, a callback planted in another
 * browser or replayed) ends on the service's page and grants nothing. Two instances on one database
 * serve one flow between them, and a refresh works after both were restarted.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { decodeJwt, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser, readForm } from '../dev/demo-issuer/http-browser.js';
import { adminPool, databaseAvailable, dropSchema } from '../support/database.js';
import { exchangeAt, memoryStorage } from '../support/fhirclient-storage.js';
import { ownLoopbackSource } from '../support/loopback-source.js';
import { LOA2, LOA3 } from '../support/region-provider.js';
import { APP_ID, APP_REDIRECT, RECORD_APP, startSignInService, SUBSCRIPTION_KEY, type SignInService } from '../support/sign-in-service.js';
import { abortForm, walk } from '../support/sign-in-walk.js';
import { showsIdentityNumber } from '../support/token-identity.js';

const available = await databaseAvailable();
const SCOPE = 'openid fhirUser launch/patient offline_access patient/*.rs';
const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN = '191212121212';
const SARA = '197305242385';

/** Where the test's app sends a browser to sign in at `service` (no code is expected back, so its verifier is not kept). */
async function anAuthorization(service: SignInService): Promise<string> {
  const app = await client.discovery(new URL(service.issuer), APP_ID, undefined, client.None(), { execute: [client.allowInsecureRequests] });
  return client.buildAuthorizationUrl(app, {
    redirect_uri: APP_REDIRECT, scope: SCOPE, state: 'state-1', aud: `${service.base}/fhir`,
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
  }).href;
}

/**
 * The audit records of `operation` by Märta or by nobody through the test's app in [since, until]. The
 * audit table is shared with the other sign-in files running at the same time (once an allowed row of
 * another file's region came between): a person is named with the issuer that vouched for them, this
 * test's region at the sign-in, this test's service at the grant (`issuer`); a refused login names nobody,
 * so its rows are told apart by the loopback addresses of this test's own that its browsers sent from
 * (`sources`).
 */
async function auditRows(operation: string, since: Date, until: Date, by: { issuer: string } | { sources: string[] }): Promise<Array<Record<string, unknown>>> {
  const pool = adminPool();
  try {
    // By issuer, this app's rows and Märta's (or no one's); by sources, every row from those addresses, whoever and
    // whichever app they name (re-review helper-197, F4: a row of another app or person would have been passed over).
    const whose = 'issuer' in by
      ? 'AND client_id = $4 AND (actor_person_id IS NULL OR actor_person_id = \'198112189876\') AND actor_issuer = $5'
      : 'AND source_address = ANY($4)';
    const { rows } = await pool.query(`SELECT outcome, status, actor_person_id, client_id FROM audit.access_log
      WHERE operation = $1 AND time BETWEEN $2 AND $3 ${whose} ORDER BY id`,
    'issuer' in by ? [operation, since, until, APP_ID, by.issuer] : [operation, since, until, by.sources]);
    return rows as Array<Record<string, unknown>>;
  } finally {
    await pool.end();
  }
}

/** The service's instances and region closed, its sign-in schema dropped. */
async function stop(service: SignInService | undefined): Promise<void> {
  if (service === undefined) return;
  await service.close();
  const pool = adminPool();
  await dropSchema(pool, service.schema);
  await pool.end();
}

describe.skipIf(!available)('sign-in through the region\'s own login (docs/sign-in.md)', () => {
  let service: SignInService;
  let app: client.Configuration;

  beforeAll(async () => {
    service = await startSignInService();
    app = await client.discovery(new URL(service.issuer), APP_ID, undefined, client.None(), { execute: [client.allowInsecureRequests] });
  }, 60_000);
  afterAll(async () => stop(service));
  afterEach(() => {
    service.region.misbehave = undefined;
    service.region.cancel = false;
    service.region.person = { pnr: '198112189876', acr: LOA3 };
  });

  /** A SMART launch's authorization request (of `scope`), or with `plain` a plain OAuth one for the COS API (its own scopes, no `aud`). */
  async function authorization(plain = false, scope = SCOPE): Promise<{ url: string; verifier: string; state: string }> {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(app, {
      redirect_uri: APP_REDIRECT, state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      ...(plain ? { scope: 'openid user/Appointment-read' } : { scope, aud: `${service.base}/fhir` }),
    });
    return { url: url.href, verifier, state };
  }

  async function launch(pick = 'Lilla', via?: (url: string) => string, options: { browser?: HttpBrowser; plain?: boolean; scope?: string } = {}) {
    const auth = await authorization(options.plain, options.scope);
    const browser = options.browser ?? new HttpBrowser();
    const walked = await walk(browser, auth.url, { pick, ...(via === undefined ? {} : { via }) });
    if (walked.redirect === undefined) throw new Error(`no redirect to the app: ${walked.page.status} ${/role="alert">([^<]*)/.exec(walked.page.body)?.[1] ?? walked.page.body.slice(0, 400)}`);
    const tokens = await client.authorizationCodeGrant(app, walked.redirect, { pkceCodeVerifier: auth.verifier, expectedState: auth.state })
      .catch((err: unknown) => { throw new Error(`token request refused: ${JSON.stringify((err as { cause?: unknown }).cause)}`); });
    return { tokens, walked, browser };
  }

  /** The connected-apps page in `browser`, after the page's own login at the region where it asks for one. */
  const appsPage = async (browser: HttpBrowser, url = `${service.issuer}/apps`) => (await walk(browser, url)).page;

  const readPatient = (base: string, token: string, id: string) =>
    request(`${base}/fhir/Patient/${id}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });

  it('discovers the issuer under /auth, and SMART discovery names its endpoints', async () => {
    expect(app.serverMetadata().issuer).toBe(service.issuer);
    const smart = await (await request(`${service.base}/fhir/.well-known/smart-configuration`)).body.json() as Record<string, unknown>;
    expect(smart).toMatchObject({ authorization_endpoint: `${service.issuer}/auth`, token_endpoint: `${service.issuer}/token`, issuer: service.issuer });
  });

  it('signs Märta in at the region, she picks Lilla, and the app reads Lilla\'s record and refreshes', async () => {
    const { tokens, walked } = await launch('Lilla');
    expect(walked.seen.some((u) => u.startsWith(service.region.issuer))).toBe(true);
    expect(walked.seen.join(' ')).not.toContain('198112189876');
    const patient = (tokens as unknown as { patient?: string }).patient;
    expect(typeof patient).toBe('string');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: service.issuer, smart_patient: patient, patient: expect.any(String) });
    expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(900);
    const read = await readPatient(service.base, tokens.access_token, String(patient));
    expect(read.statusCode).toBe(200);
    expect(((await read.body.json()) as { id: string }).id).toBe(patient);
    const refreshed = await client.refreshTokenGrant(app, String(tokens.refresh_token));
    expect((refreshed as unknown as { patient?: string }).patient).toBe(patient);
    await expect(client.refreshTokenGrant(app, String(tokens.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('issue 52 item 11: no access token shows an app an identity number, a refreshed one neither, and the COS door and /fhir still know the person', async () => {
    // patient/Patient.read is the COS door's patient read too (docs/contract.md#scopes).
    const { tokens } = await launch('Märta', undefined, { scope: `${SCOPE} patient/Patient.read` });
    const refreshed = await client.refreshTokenGrant(app, String(tokens.refresh_token));
    for (const token of [tokens.access_token, refreshed.access_token]) {
      expect(showsIdentityNumber(token, [MARTA, LILLA])).toBe(false);
      // The claim is still there, sealed for the service's own doors.
      expect(decodeJwt(token).patient).toEqual(expect.any(String));
      const cos = await request(`${service.base}/patients/patient/`, { headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': SUBSCRIPTION_KEY } });
      expect([cos.statusCode, await cos.body.text()]).toEqual([200, expect.stringContaining('Märta')]);
      const fhir = await readPatient(service.base, token, String((tokens as unknown as { patient?: string }).patient));
      expect([fhir.statusCode, await fhir.body.text()]).toEqual([200, expect.stringContaining(MARTA)]);
    }
  });

  it('issue 52 item 11: a sealed patient claim moved to another token (another jti, another person) is refused 401', async () => {
    const marta = decodeJwt((await launch('Lilla')).tokens.access_token);
    service.region.person = { pnr: TOLVAN, acr: LOA3 };
    const { tokens } = await launch('Tolvan');
    const tolvan = decodeJwt(tokens.access_token);
    const tolvanPatient = String((tokens as unknown as { patient?: string }).patient);
    // The test holds the service's own signing key (SIGN_IN_KEYS_FILE), as nobody else may.
    const jwk = ((JSON.parse(await readFile(service.keysFile, 'utf8')) as { keys: JWK[] }).keys)[0] ?? {};
    const key = await importJWK(jwk, 'RS256');
    const signed = (claims: JWTPayload) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid ?? '' }).sign(key);
    const status = async (claims: JWTPayload) => {
      const read = await readPatient(service.base, await signed(claims), tolvanPatient);
      await read.body.dump();
      return read.statusCode;
    };
    // Signed again unchanged, Tolvan's token reads his record: the key is the service's own.
    expect(await status(tolvan)).toBe(200);
    expect(await status({ ...tolvan, jti: 'another-token-0123456789' })).toBe(401);
    expect(await status({ ...marta, patient: tolvan.patient })).toBe(401);
  });

  const metric = async (name: string): Promise<number> => {
    const text = await (await request(`${service.instances[0]?.metrics ?? ''}/metrics`)).body.text();
    return [...text.matchAll(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
  };

  it('fhirclient too: authorizes with PKCE required, the region signs Märta in, she picks Lilla, and it reads her record and refreshes', async () => {
    const APP = 'http://127.0.0.1:8765';
    interface Ready { patient: { id: string | null; read(): Promise<{ id: string; name?: { given?: string[] }[] }> }; refresh(): Promise<unknown>; getState(path: string): unknown }
    interface Smart { authorize(options: object): Promise<unknown>; ready(): Promise<Ready> }
    const smart = createRequire(import.meta.url)('fhirclient/lib/entry/node') as (request: object, response: object, storage: object) => Smart;
    const storage = memoryStorage();
    const start = exchangeAt(`${APP}/launch`);
    await smart(start.request, start.response, storage).authorize({
      iss: `${service.base}/fhir`, clientId: APP_ID, scope: SCOPE, redirectUri: '/callback', pkceMode: 'required',
    });
    expect(new URL(start.response.location).origin).toBe(service.base);
    const walked = await walk(new HttpBrowser(), start.response.location, { pick: 'Lilla' });
    if (walked.redirect === undefined) throw new Error(`no redirect to the app: ${walked.page.status}`);
    const back = exchangeAt(walked.redirect.href);
    const ready = await smart(back.request, back.response, storage).ready();
    const patient = await ready.patient.read();
    expect(patient.id).toBe(ready.patient.id);
    expect(patient.name?.[0]?.given).toContain('Lilla');
    // Its refresh rotates the one-use refresh token, and the new access token reads the same record.
    const first = ready.getState('tokenResponse.refresh_token');
    expect(first).toEqual(expect.any(String));
    await ready.refresh();
    expect(ready.getState('tokenResponse.refresh_token')).not.toBe(first);
    expect((await ready.patient.read()).id).toBe(patient.id);
  });

  it('threat 61: a revoked grant\'s refresh token stops at once, and the refusal is counted', async () => {
    const { tokens } = await launch('Lilla');
    const refusedBefore = await metric('pdas_token_refusals_total{error="invalid_grant"}');
    await client.tokenRevocation(app, String(tokens.refresh_token));
    await expect(client.refreshTokenGrant(app, String(tokens.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await metric('pdas_token_refusals_total{error="invalid_grant"}')).toBe(refusedBefore + 1);
    // Its access token lives out its lifetime (at most 900 s, docs/sign-in.md#for-app-developers), no longer.
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number };
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(900);
  });

  it('threat 61 on the connected-apps page: Märta sees the app on Lilla\'s record, revokes it, and its next refresh is refused', async () => {
    const { tokens, browser } = await launch('Lilla');
    // The page asks the region for a login of its own (docs/sign-in.md#the-connected-apps-page), then lists.
    const page = await appsPage(browser);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Test SMART app');
    // Earlier tests' grants to the same app for Lilla are listed too, and grants made within one second
    // may come in either order: revoke each listed grant, so the one this launch holds is among them.
    let listed = page;
    for (let round = 0; round < 50 && listed.body.includes('name="grant"'); round += 1) {
      const form = readForm(listed.body);
      expect(form.action).toBe('/auth/connected-apps');
      const revoked = await browser.post(new URL(form.action, service.base).href, form.fields);
      expect([revoked.status, revoked.location]).toEqual([303, expect.stringMatching(new RegExp(`^${service.issuer}/connected-apps\\?done=revoked&at=\\d+&proof=[\\w-]{43}$`))]);
      listed = await browser.get(`${service.issuer}/apps`);
    }
    expect(listed.body).not.toContain('name="grant"');
    await expect(client.refreshTokenGrant(app, String(tokens.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('issue 52 item 5: the app signs out with its ID token and a registered redirect URI: the session ends without a second question, and the next sign-in goes to the region', async () => {
    const recordApp = await client.discovery(new URL(service.issuer), RECORD_APP.id, undefined, client.None(), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const authorizationUrl = async (state: string): Promise<string> => client.buildAuthorizationUrl(recordApp, {
      redirect_uri: RECORD_APP.redirect, scope: 'openid fhirUser launch/patient patient/*.rs', state, aud: `${service.base}/fhir`,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).href;
    const region = (walked: { seen: string[] }): boolean => walked.seen.some((u) => u.startsWith(service.region.issuer));
    const browser = new HttpBrowser({ 'accept-language': 'sv' });
    const first = await walk(browser, await authorizationUrl('first'), { pick: 'Lilla', redirect: RECORD_APP.redirect });
    if (first.redirect === undefined) throw new Error(`no redirect to the app: ${first.page.status} ${first.page.body.slice(0, 300)}`);
    expect(region(first)).toBe(true);
    const tokens = await client.authorizationCodeGrant(recordApp, first.redirect, { pkceCodeVerifier: verifier, expectedState: 'first' });
    // Signed in here, yet another authorization in this browser asks the region again (each sign-in a fresh login).
    expect(region(await walk(browser, await authorizationUrl('again'), { pick: 'Lilla', redirect: RECORD_APP.redirect }))).toBe(true);

    // Signing out as the patient app does (app/src/sign-out.ts): the ID token as hint, back to its registered redirect URI.
    const end = client.buildEndSessionUrl(recordApp, { id_token_hint: String(tokens.id_token), post_logout_redirect_uri: RECORD_APP.redirect, state: 'signed-out', ui_locales: 'sv' });
    const leaving = await browser.get(end.href);
    expect(leaving.status).toBe(200);
    // No question: the service's page submits itself with logout=yes (a button does it where JavaScript is off).
    expect(leaving.body).not.toContain('Förbli inloggad');
    const form = readForm(leaving.body);
    expect(form.fields.logout).toBe('yes');
    const done = await browser.post(new URL(form.action, leaving.url).href, form.fields);
    const back = new URL(done.location ?? '');
    expect([done.status, `${back.origin}${back.pathname}`, back.searchParams.get('state')]).toEqual([303, RECORD_APP.redirect, 'signed-out']);

    // The session is gone: the next authorization from this browser goes to the region's login, not to the picker.
    const next = await walk(browser, await authorizationUrl('after'), { pick: 'Lilla', redirect: RECORD_APP.redirect });
    expect(region(next)).toBe(true);
  });

  it('every authorization asks the region for a fresh login: after Märta\'s launch, Sara at the same browser is signed in as herself, for the same app and another', async () => {
    const browser = new HttpBrowser();
    const { tokens: martas } = await launch('yourself', undefined, { browser });
    const marta = String((martas as unknown as { patient?: string }).patient);
    // Märta leaves the shared computer without signing out; Sara sits down. The region would sign Sara in if asked.
    service.region.person = { pnr: SARA, acr: LOA3 };
    const { tokens: saras, walked } = await launch('yourself', undefined, { browser });
    expect(walked.seen.some((u) => u.startsWith(service.region.issuer))).toBe(true);
    const sara = String((saras as unknown as { patient?: string }).patient);
    expect(sara).not.toBe(marta);
    const read = await readPatient(service.base, saras.access_token, sara);
    expect(read.statusCode).toBe(200);
    expect(JSON.stringify(await read.body.json())).toContain(SARA);
    // Another app in the same browser: to the region too, never a code straight from the picker.
    const recordApp = await client.discovery(new URL(service.issuer), RECORD_APP.id, undefined, client.None(), { execute: [client.allowInsecureRequests] });
    const url = client.buildAuthorizationUrl(recordApp, {
      redirect_uri: RECORD_APP.redirect, scope: 'openid fhirUser launch/patient patient/*.rs', state: 'other-app', aud: `${service.base}/fhir`,
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
    }).href;
    service.region.cancel = true;
    const other = await walk(browser, url, { redirect: RECORD_APP.redirect });
    expect(other.seen.some((u) => u.startsWith(service.region.issuer))).toBe(true);
    expect(other.redirect).toBeUndefined();
    expect(other.page.body).toContain('The sign-in was cancelled at the region');
    // An app asking not to show any page (prompt=none) gets login_required, never a code from the session.
    const silent = client.buildAuthorizationUrl(app, {
      redirect_uri: APP_REDIRECT, scope: SCOPE, state: 'silent', aud: `${service.base}/fhir`, prompt: 'none',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
    }).href;
    const none = await walk(browser, silent);
    expect([none.redirect?.searchParams.get('error'), none.redirect?.searchParams.has('code')]).toEqual(['login_required', false]);
    // Refresh tokens do not go through authorization: Sara's app refreshes without a login. Märta's
    // session in this browser ended when Sara signed in (oidc-provider signs the earlier person out),
    // and with it the grants made in it (docs/sign-in.md): her app in this browser reads no more.
    expect((await client.refreshTokenGrant(app, String(saras.refresh_token))).access_token).toEqual(expect.any(String));
    await expect(client.refreshTokenGrant(app, String(martas.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  const readCos = (base: string, token: string) =>
    request(`${base}/patients/appointments/`, { headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': SUBSCRIPTION_KEY } });

  it('issue 52 items 3 and 13: a plain OAuth grant is listed too; revoked on one instance, every access token of it is refused at the next request on another', async () => {
    const second = await service.startInstance();
    try {
      const browser = new HttpBrowser();
      const { tokens: smart } = await launch('Lilla', undefined, { browser });
      const { tokens: plain } = await launch('Lilla', undefined, { browser, plain: true });
      const patient = String((smart as unknown as { patient?: string }).patient);
      expect((await readPatient(second.base, smart.access_token, patient)).statusCode).toBe(200);
      const read = await readCos(second.base, plain.access_token);
      expect(read.statusCode).toBe(200);
      await read.body.dump();
      // The plain grant is on the page as what it reaches: her own record and those she acts for.
      let listed = await appsPage(browser);
      expect(listed.body).toContain('Opens your record and the records of the people you act for.');
      for (let round = 0; round < 50 && listed.body.includes('name="grant"'); round += 1) {
        const form = readForm(listed.body);
        expect((await browser.post(new URL(form.action, service.base).href, form.fields)).status).toBe(303);
        listed = await browser.get(`${service.issuer}/apps`);
      }
      const fhir = await readPatient(second.base, smart.access_token, patient);
      await fhir.body.dump();
      expect([fhir.statusCode, fhir.headers['www-authenticate']]).toEqual([401, expect.stringMatching(/^Bearer error="invalid_token", error_description="The access token's grant has ended/)]);
      const cos = await readCos(second.base, plain.access_token);
      await cos.body.dump();
      expect([cos.statusCode, cos.headers['www-authenticate']]).toEqual([401, fhir.headers['www-authenticate']]);
    } finally {
      await second.close();
      service.instances.splice(service.instances.indexOf(second), 1);
    }
  }, 60_000);

  it('issue 52 item 14: signing in again for the same pick replaces the grant, and signing out ends the session\'s grants', async () => {
    const browser = new HttpBrowser();
    const { tokens: first } = await launch('Gösta', undefined, { browser });
    const { tokens: forGosta } = await launch('Gösta', undefined, { browser });
    const { tokens: forLilla } = await launch('Lilla', undefined, { browser });
    await expect(client.refreshTokenGrant(app, String(first.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
    const page = await appsPage(browser);
    const items = [...page.body.matchAll(/<li><h2>[\s\S]*?<\/form>/g)].map((m) => m[0]).filter((i) => i.includes('You allowed it'));
    expect(items.filter((i) => i.includes('Gösta'))).toHaveLength(1);

    const end = client.buildEndSessionUrl(app, { id_token_hint: String(forLilla.id_token), post_logout_redirect_uri: APP_REDIRECT });
    const ask = await browser.get(end.href);
    const form = readForm(ask.body);
    const done = await browser.post(new URL(form.action, ask.url).href, { ...form.fields, logout: 'yes' });
    expect(done.status).toBe(303);
    for (const ended of [forGosta, forLilla]) {
      await expect(client.refreshTokenGrant(app, String(ended.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
      const patient = String((ended as unknown as { patient?: string }).patient);
      const read = await readPatient(service.base, ended.access_token, patient);
      await read.body.dump();
      expect(read.statusCode).toBe(401);
    }
  });

  it('issue 46: Lilla\'s access log shows Märta\'s grant of the app, who, which app and when; and its withdrawal once revoked', async () => {
    interface Event { subtype: { code?: string; display?: string }[]; action: string; recorded: string; agent: { who: { identifier?: { value: string } } }[] }
    const events = async (token: string, code: string, since: number): Promise<Event[]> => {
      const response = await request(`${service.base}/fhir/AuditEvent?_count=500&date=ge${new Date(since - 1000).toISOString().slice(0, 19)}Z`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });
      expect(response.statusCode).toBe(200);
      const bundle = await response.body.json() as { entry?: { resource: Event }[] };
      // The audit schema is shared with whatever else runs: this app's entries of this kind, by Märta, since the step began.
      return (bundle.entry ?? []).map((e) => e.resource).filter((e) => e.subtype.some((c) => c.code === code)
        && e.agent[0]?.who.identifier?.value === '198112189876' && e.agent[1]?.who.identifier?.value === APP_ID && Date.parse(e.recorded) >= since);
    };
    const granting = Date.now();
    await launch('Lilla');
    // Signing in again for the same pick is audited again and replaces the earlier grant (issue 52 item 14).
    const { browser } = await launch('Lilla');
    // Lilla's own launch reads her log: it outlives Märta's revocation of hers.
    service.region.person = { pnr: '201701012393', acr: LOA3 };
    const { tokens: reader } = await launch('Lilla');
    service.region.person = { pnr: '198112189876', acr: LOA3 };
    const granted = await events(reader.access_token, 'grantAppAccess', granting);
    expect(granted.length).toBeGreaterThanOrEqual(2);
    expect(granted[0]).toMatchObject({ action: 'C', subtype: [{ code: 'grantAppAccess', display: 'An app was given access to your record' }] });

    const revoking = Date.now();
    const page = await appsPage(browser, `${service.issuer}/connected-apps`);
    const form = readForm([...page.body.matchAll(/<li><h2>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((i) => i.includes('You allowed it')) ?? '');
    const revoked = await browser.post(new URL(form.action, service.base).href, form.fields);
    expect(revoked.location).toMatch(new RegExp(`^${service.issuer}/connected-apps\\?done=revoked&at=\\d+&proof=`));
    const withdrawn = await events(reader.access_token, 'revokeAppAccess', revoking);
    expect(withdrawn.map((e) => [e.action, e.subtype.at(-1)?.display])).toEqual([['D', "An app's access to your record was withdrawn"]]);
  });

  it('counts each sign-in that granted nothing', async () => {
    const before = await metric('pdas_sign_in_failures_total{kind="login"}');
    service.region.cancel = true;
    await walk(new HttpBrowser(), (await authorization()).url);
    expect(await metric('pdas_sign_in_failures_total{kind="login"}')).toBe(before + 1);
  });

  const REFUSALS: Array<[string, () => void]> = [
    ['an ID token for another audience', () => { service.region.misbehave = { aud: 'another-client' }; }],
    ['an ID token with another nonce', () => { service.region.misbehave = { nonce: 'not-the-nonce-sent' }; }],
    ['an ID token from another issuer', () => { service.region.misbehave = { iss: 'https://another-provider.example.se' }; }],
    ['an ID token signed with a key the provider does not publish', () => { service.region.misbehave = { foreignKey: true }; }],
    ['a lower acr than SIGN_IN_LOGIN_ACR', () => { service.region.person = { pnr: '198112189876', acr: LOA2 }; }],
    ['a lower acr written into the ID token', () => { service.region.misbehave = { acr: LOA2 }; }],
    ['no identity number claim', () => { service.region.person = { pnr: 'none-1', acr: service.region.person.acr }; }],
    ['an older login at the region than the fresh one asked for (auth_time)', () => { service.region.misbehave = { auth_time: Math.floor(Date.now() / 1000) - 3600 }; }],
    ['a cancel at the region', () => { service.region.cancel = true; }],
  ];

  it.each(REFUSALS)('%s ends on the service\'s page and grants nothing', async (_name, arrange) => {
    arrange();
    const auth = await authorization();
    const person = new HttpBrowser();
    const walked = await walk(person, auth.url);
    expect(walked.redirect).toBeUndefined();
    expect(walked.page.status).toBe(200);
    expect(walked.page.url.startsWith(`${service.issuer}/interaction/`)).toBe(true);
    expect(walked.page.body).toContain('You are not signed in');
    // The way back to the app, a form of the page (a post with its token): it gets access_denied, never a code.
    const abort = abortForm(walked.page.body);
    expect(abort.action).toMatch(/\/abort$/);
    const back = await walk(person, (await person.post(new URL(abort.action, service.base).href, abort.fields)).location ?? '');
    expect(back.redirect?.searchParams.get('error')).toBe('access_denied');
    expect(back.redirect?.searchParams.has('code')).toBe(false);
  });

  it('a callback planted in another browser (login CSRF) or replayed signs nobody in', async () => {
    const auth = await authorization();
    const victim = new HttpBrowser();
    const attacker = new HttpBrowser();
    // The attacker's own flow, stopped at the region's answer to the service.
    let page = await attacker.get(auth.url);
    while (page.location !== undefined && !page.location.startsWith(`${service.issuer}/callback`)) page = await attacker.get(page.location);
    const callback = String(page.location);
    const planted = await walk(victim, callback);
    expect(planted.redirect).toBeUndefined();
    expect(planted.page.status).toBe(400);
    const replayed = await walk(attacker, callback);
    expect(replayed.redirect).toBeUndefined();
    expect(replayed.page.status).toBe(400);
  });

  it('the region\'s answer loaded again in the same browser (a reload, a double request) is refused, and the sign-in it began goes on (helper-128, F2)', async () => {
    const auth = await authorization();
    const browser = new HttpBrowser();
    let page = await browser.get(auth.url);
    while (page.location !== undefined && !page.location.startsWith(`${service.issuer}/callback`)) page = await browser.get(page.location);
    const callback = String(page.location);
    const first = await browser.get(callback);
    expect([first.status, first.location?.includes('/interaction/')]).toEqual([303, true]);
    const again = await browser.get(callback);
    expect(again.status).toBe(400);
    const finished = await walk(browser, String(first.location), { pick: 'Lilla' });
    expect(finished.redirect?.searchParams.get('code')).toEqual(expect.any(String));
  });

  /** A browser stopped at the region's answer to the service, and that answer's address. */
  async function atRegionAnswer(): Promise<{ browser: HttpBrowser; callback: string }> {
    const auth = await authorization();
    const browser = new HttpBrowser();
    let page = await browser.get(auth.url);
    while (page.location !== undefined && !page.location.startsWith(`${service.issuer}/callback`)) page = await browser.get(page.location);
    return { browser, callback: String(page.location) };
  }

  interface HeldState {
    /** Until `n` requests of the sign-in wait on the held row (three seconds at most). */
    waitFor: (n: number) => Promise<void>;
    /** Lets them in. */
    release: () => Promise<void>;
  }

  /** Runs `loads` while the login's row of `callback`'s state is held, so that the loads read it before any may write it. */
  async function withStateHeld<T>(callback: string, loads: (held: HeldState) => Promise<T>): Promise<T> {
    const pool = adminPool();
    const holder = await pool.connect();
    let open = false;
    const release = async (): Promise<void> => {
      if (!open) return;
      open = false;
      await holder.query('COMMIT');
    };
    const waitFor = async (n: number): Promise<void> => {
      const count = async (): Promise<number> => (await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'patient-data-access-sign-in' AND wait_event_type = 'Lock' AND query LIKE '%oidc_model%'")).rows[0]?.n ?? 0;
      for (let tries = 0; tries < 60 && await count() < n; tries++) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      await holder.query('BEGIN');
      open = true;
      await holder.query(`SELECT 1 FROM "${service.schema}".oidc_model WHERE model = 'RegionLogin' AND id = $1 FOR UPDATE`, [new URL(callback).searchParams.get('state')]);
      return await loads({ waitFor, release });
    } finally {
      await release().catch(() => undefined);
      holder.release();
      await pool.end();
    }
  }

  // Hostile review helper-130, F2: answers loaded together each found the state unused before any marked it, each
  // exchanged the code, and the losers' refusals ended the binding the winner's login needed.
  it('the region\'s answer loaded four times at once, each having read the state unused, is taken once, and the sign-in finishes', async () => {
    const { browser, callback } = await atRegionAnswer();
    const answers = await withStateHeld(callback, async ({ waitFor, release }) => {
      const loads = Array.from({ length: 4 }, () => browser.get(callback));
      await waitFor(4);
      await release();
      return Promise.all(loads);
    });
    const onward = answers.filter((a) => a.status === 303);
    expect([onward.length, answers.filter((a) => a.status === 400).length]).toEqual([1, 3]);
    const finished = await walk(browser, String(onward[0]?.location), { pick: 'Lilla' });
    expect(finished.redirect?.searchParams.get('code')).toEqual(expect.any(String));
  });

  // Hostile review helper-131, F1: a callback from another browser wrote back the row it had read, which dropped the
  // mark of the answer taken, so the right browser's next load took it again and exchanged the code twice. Three
  // rounds: the row's waiters are let in nearly, not strictly, in order.
  it('an answer loaded from another browser between two of the right browser\'s loads lets neither take it twice', async () => {
    for (let round = 0; round < 3; round++) {
      const { browser, callback } = await atRegionAnswer();
      const own = await withStateHeld(callback, async ({ waitFor, release }) => {
        const first = browser.get(callback);
        await waitFor(1);
        const foreign = new HttpBrowser().get(callback);
        await waitFor(2);
        const second = browser.get(callback);
        await waitFor(3);
        await release();
        expect((await foreign).status).toBe(400);
        return Promise.all([first, second]);
      });
      expect(own.filter((a) => a.status === 303)).toHaveLength(1);
    }
  });

  it('login session swap: a login the victim finishes at the region never signs in the browser that began it', async () => {
    const since = new Date();
    const auth = await authorization();
    // Each browser sends from a loopback address of its own: the refused login's rows are told by them.
    const sources = [ownLoopbackSource(53), ownLoopbackSource(55)];
    const agents = sources.map((localAddress) => new Agent({ localAddress }));
    const [victim, attacker] = agents.map((agent) => new HttpBrowser({}, agent)) as [HttpBrowser, HttpBrowser];
    try {
      // The attacker's browser begins a sign-in and stops at the region's genuine login link.
      let page = await attacker.get(auth.url);
      while (page.location !== undefined && !page.location.startsWith(service.region.issuer)) page = await attacker.get(page.location);
      const regionLink = String(page.location);
      const interaction = page.url;
      expect(interaction.startsWith(`${service.issuer}/interaction/`)).toBe(true);
      // Each SMART sign-in is a fresh login at the region (OpenID Connect Core 3.1.2.1): no silent reuse of a session there.
      expect(new URL(regionLink).searchParams.get('prompt')).toBe('login');
      // The victim opens that link in their own browser, logs in at the region, and comes back to the service.
      const victims = await walk(victim, regionLink);
      expect(victims.redirect).toBeUndefined();
      expect(victims.seen.some((u) => u.startsWith(`${service.issuer}/callback`))).toBe(true);
      expect(victims.page.status).toBe(400);
      expect(victims.page.body).toContain('Start the sign-in again in this browser');
      // The attacker's browser carries on with its interaction: nobody is signed in, no picker, no code.
      const attackers = await walk(attacker, interaction, { pick: 'Lilla' });
      expect(attackers.redirect).toBeUndefined();
      expect(attackers.page.body).not.toContain('name="patient"');
      expect(attackers.page.body).toContain('You are not signed in');
      const until = new Date();
      // The audit trail shows the refused login, and no grant by Märta.
      expect(await auditRows('grantAppAccess', since, until, { issuer: service.issuer })).toEqual([]);
      expect(await auditRows('regionLogin', since, until, { sources })).toEqual([{ outcome: 'denied', status: 400, actor_person_id: null, client_id: APP_ID }]);
      // Märta's own sign-in, in her own browser, still works, and is audited as hers.
      const { tokens } = await launch('Lilla');
      expect(typeof (tokens as unknown as { patient?: string }).patient).toBe('string');
      expect(await auditRows('regionLogin', until, new Date(), { issuer: service.region.issuer })).toEqual([{ outcome: 'allowed', status: 200, actor_person_id: '198112189876', client_id: APP_ID }]);
    } finally {
      await Promise.all(agents.map((agent) => agent.close()));
    }
  });

  it('lets two instances on one database serve one flow in turn, and refresh after both restarted', async () => {
    const second = await service.startInstance();
    const first = service.instances[0];
    if (first === undefined) throw new Error('no first instance');
    let turn = 0;
    // Each step of the service goes to the other instance, as a load balancer without affinity may.
    const alternate = (url: string): string => {
      const at = [service.base, second.base].find((b) => url.startsWith(b));
      if (at === undefined) return url;
      turn += 1;
      return `${turn % 2 === 0 ? service.base : second.base}${url.slice(at.length)}`;
    };
    const { tokens } = await launch('Lilla', alternate);
    expect(turn).toBeGreaterThan(4);
    const patient = String((tokens as unknown as { patient?: string }).patient);
    expect((await readPatient(second.base, tokens.access_token, patient)).statusCode).toBe(200);
    await second.close();
    await first.close();
    service.instances.splice(0);
    // Both restarted (on the same address, as behind the load balancer): the refresh token still works.
    const restarted = await service.startInstance(first.port);
    const refreshed = await client.refreshTokenGrant(app, String(tokens.refresh_token));
    expect((refreshed as unknown as { patient?: string }).patient).toBe(patient);
    expect((await readPatient(restarted.base, refreshed.access_token, patient)).statusCode).toBe(200);
  }, 60_000);
});

describe.skipIf(!available)('a region\'s login that cannot be discovered at start', () => {
  let service: SignInService;
  beforeAll(async () => {
    // Nothing listens on port 1: discovery fails at start and is retried in the background.
    service = await startSignInService({ env: { SIGN_IN_LOGIN_ISSUER: 'http://127.0.0.1:1' } });
  }, 60_000);
  afterAll(async () => stop(service));

  it('does not stop the start: the API answers, the sign-in page is 503 and says so, nothing is granted', async () => {
    expect((await request(`${service.base}/health/live`)).statusCode).toBe(200);
    const discovery = await request(`${service.issuer}/.well-known/openid-configuration`);
    expect(discovery.statusCode).toBe(200);
    await discovery.body.dump();
    const walked = await walk(new HttpBrowser(), await anAuthorization(service));
    expect(walked.redirect).toBeUndefined();
    expect(walked.page.status).toBe(503);
    expect(walked.page.body).toContain('cannot be reached just now');
  });
});

describe.skipIf(!available)('a region that does not take the service\'s client secret (issue 52 item 17)', () => {
  let service: SignInService;
  const logs: string[] = [];
  beforeAll(async () => {
    // The region holds another secret for the service than SIGN_IN_LOGIN_CLIENT_SECRET_FILE: its token endpoint answers invalid_client.
    service = await startSignInService({ regionSecret: 'the-region-holds-another-secret-0123456789', logs });
  }, 60_000);
  afterAll(async () => stop(service));

  it('tells the person the service\'s sign-in is misconfigured at the region, and the log names invalid_client and the setting, never the secret', async () => {
    const since = new Date();
    const source = ownLoopbackSource(54);
    const agent = new Agent({ localAddress: source });
    const walked = await walk(new HttpBrowser({}, agent), await anAuthorization(service)).finally(() => agent.close());
    expect(walked.redirect).toBeUndefined();
    expect(await auditRows('regionLogin', since, new Date(), { sources: [source] })).toEqual([{ outcome: 'failed', status: 502, actor_person_id: null, client_id: APP_ID }]);
    expect(walked.page.body).toContain('You are not signed in');
    expect(walked.page.body).toContain('not set up correctly at the region');
    expect(walked.page.body).not.toContain('could not be trusted');
    const failed = logs.map((l) => JSON.parse(l) as { msg: string; reason?: string }).filter((l) => /region's login failed/.test(l.msg));
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reason).toMatch(/invalid_client.*SIGN_IN_LOGIN_CLIENT_SECRET_FILE/);
    expect(logs.join('\n')).not.toContain('region-client-secret-0123456789');
  });
});
