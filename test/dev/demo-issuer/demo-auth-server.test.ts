import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_PERSONS,
  startDemoAuthServer,
  type DemoAuthServer,
} from '../../../src/dev/demo-issuer/demo-auth-server.js';
import { patientClaimSeal } from '../../../src/adapters/auth-server/patient-claim-seal.js';
import { CREDENTIALS_FILE } from '../../../src/dev/demo-issuer/credentials-store.js';
import { noLaunch } from './no-launch.js';
import { ALL_SCOPES } from '../../support/app-wiring.js';
import { showsIdentityNumber } from '../../support/token-identity.js';
import { HttpBrowser, readForm, type Page } from './http-browser.js';

const AUDIENCE = 'patient-data-access';
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

interface Discovery { issuer: string; jwks_uri: string; token_endpoint: string; authorization_endpoint: string }

const logged: unknown[] = [];
const logger = {
  warn: (obj: object | string, msg?: string) => void logged.push({ level: 'warn', obj, msg }),
  info: (obj: object | string, msg?: string) => void logged.push({ level: 'info', obj, msg }),
  debug: (obj: object | string, msg?: string) => void logged.push({ level: 'debug', obj, msg }),
};

let dataDir: string;
let server: DemoAuthServer;
let discovery: Discovery;
/** What reached the console's stderr while the server was made. */
const consoleWarnings: string[] = [];
const start = (port = 0) =>
  startDemoAuthServer({ host: '127.0.0.1', port, audience: AUDIENCE, patientClaim: 'patient', dataDir, logger, smart: noLaunch() });

async function getJson<T>(url: string): Promise<T> {
  const response = await request(url);
  expect(response.statusCode).toBe(200);
  return (await response.body.json()) as T;
}

async function tokenRequest(form: Record<string, string>, basic?: [string, string]) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(basic.join(':')).toString('base64')}`;
  const response = await request(discovery.token_endpoint, {
    method: 'POST',
    headers,
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

/** The token's patient claim opened with the demo's own signing keys (in DATA_DIR), as the service opens it. */
async function opened(payload: JWTPayload): Promise<string | undefined> {
  const { signingKeys } = JSON.parse(await readFile(join(dataDir, CREDENTIALS_FILE), 'utf8')) as { signingKeys: JWK[] };
  return patientClaimSeal(signingKeys).open(payload.patient, payload);
}

function secretOf(clientId: string): string {
  const secret = server.credentials.clients[clientId]?.clientSecret;
  if (!secret) throw new Error(`no secret for ${clientId}`);
  return secret;
}

async function clientToken(clientId: string, scope: string): Promise<string> {
  const { status, body } = await tokenRequest({ grant_type: 'client_credentials', scope }, [clientId, secretOf(clientId)]);
  expect(status).toBe(200);
  return body.access_token as string;
}

async function verify(token: string, issuer = server.issuer, jwksUri = discovery.jwks_uri): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(jwksUri));
  const { payload } = await jwtVerify(token, jwks, { issuer, audience: AUDIENCE, algorithms: ['RS256', 'ES256'] });
  return payload;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'demo-auth-test-'));
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void consoleWarnings.push(args.map(String).join(' ')));
  try {
    server = await start();
  } finally {
    warn.mockRestore();
  }
  discovery = await getJson<Discovery>(`${server.issuer}/.well-known/openid-configuration`);
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('demo authorization server', () => {
  it('publishes discovery on the bound loopback port and warns loudly, without secrets', async () => {
    expect(server.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.issuer).not.toMatch(/:0$/);
    expect(discovery.issuer).toBe(server.issuer);
    expect(discovery.jwks_uri.startsWith(`${server.issuer}/`)).toBe(true);
    const warning = JSON.stringify(logged);
    expect(warning).toContain('not for production');
    expect(warning).toContain(server.issuer);
    for (const clientId of ['demo-integration', 'checkin-kiosk']) expect(warning).not.toContain(secretOf(clientId));
    expect(server.credentials.clients['patient-app']?.grant).toBe('authorization_code');
    expect(server.credentials.clients['patient-app']).not.toHaveProperty('clientSecret');
  });

  it('issue 47 item 2: keeps oidc-provider\'s capitalised warning off the console and says once what the demo is', () => {
    expect(consoleWarnings.filter((line) => line.includes('oidc-provider WARNING'))).toEqual([]);
    const notices = logged.filter((entry) => (entry as { level: string }).level === 'warn').map((entry) => String((entry as { msg?: string }).msg));
    expect(notices.filter((msg) => msg.includes('demo authorization server'))).toHaveLength(1);
    expect(notices.join('\n')).toMatch(/demo signing keys.*loopback only/);
    // Not lost: the library's words are in the debug log.
    expect(JSON.stringify(logged.filter((entry) => (entry as { level: string }).level === 'debug'))).toContain('in-memory adapter');
  });

  it('keeps secrets and keys in a 0600 file in the data dir', async () => {
    const file = join(dataDir, 'demo-auth.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(secretOf('demo-integration'));
  });

  it('issues a JWT for every API scope to demo-integration without a resource parameter', async () => {
    const token = await clientToken('demo-integration', ALL_SCOPES);
    const header = decodeProtectedHeader(token);
    expect(header.typ).toBe('at+jwt');
    expect(header.kid).toEqual(expect.any(String));
    const payload = await verify(token);
    expect(payload.scope).toBe(ALL_SCOPES);
    expect(payload.client_id).toBe('demo-integration');
    expect(payload.aud).toBe(AUDIENCE);
    expect(payload).not.toHaveProperty('patient');
    expect(payload.exp! - payload.iat!).toBe(15 * 60);
  });

  it('grants only what is asked for', async () => {
    expect((await verify(await clientToken('demo-integration', 'user/Patient-read'))).scope).toBe('user/Patient-read');
    const kiosk = await verify(await clientToken('checkin-kiosk', 'user/Appointment-write'));
    expect(kiosk.scope).toBe('user/Appointment-write');
    expect(kiosk).not.toHaveProperty('patient');
  });

  it.each([
    ['an unknown scope', 'demo-integration', 'user/Patient-read user/Journal-read', 'user/Journal-read'],
    ['a scope the client may not have', 'checkin-kiosk', 'user/Appointment-write user/JournalNote-read', 'user/JournalNote-read'],
  ])('issue 22 item 2: refuses %s with 400 invalid_scope naming it, instead of a token without it', async (_label, clientId, scope, refused) => {
    const { status, body } = await tokenRequest({ grant_type: 'client_credentials', scope }, [clientId, secretOf(clientId)]);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_scope');
    expect(body.error_description).toContain(refused);
    expect(body).not.toHaveProperty('access_token');
    // Hostile review helper-211, F4: what it may ask for listed every API scope, the one just refused included.
    const offered = String(body.error_description).split('it may ask for ')[1]?.split(' ') ?? [];
    expect([offered.includes(refused), clientId === 'checkin-kiosk' && offered.includes('user/AccessLog-read')]).toEqual([false, false]);
    // helper-212, F1: nor `openid`, which a client credentials grant never carries.
    expect(offered.includes('openid')).toBe(false);
  });

  it('takes a token request whose form comes chunked, without Content-Length, as one that states it', async () => {
    const response = await request(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`demo-integration:${secretOf('demo-integration')}`).toString('base64')}` },
      body: Readable.from([Buffer.from('grant_type=client_credentials&scope=user%2FPatient-read')]),
    });
    const body = (await response.body.json()) as { access_token?: string };
    expect(response.statusCode).toBe(200);
    expect((await verify(body.access_token ?? '')).scope).toBe('user/Patient-read');
  });

  it('issue 47 item 8, issue 52 item 15: says an unknown or expired sign-in is so in the language asked for, on the service\'s page', async () => {
    for (const [language, lang, said] of [['sv-SE,sv;q=0.9', 'sv', 'börja om därifrån.'], ['en', 'en', 'start again from there.']] as const) {
      const response = await request(`${server.issuer}/interaction/no-such-sign-in`, { headers: { 'accept-language': language } });
      expect([response.statusCode, await response.body.text()]).toEqual([400, expect.stringMatching(new RegExp(`^<!DOCTYPE html><html lang="${lang}">.*${said}`))]);
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('answers a request over Node\'s header limit with its own page and the headers of its other refusals, not a bare status line', async () => {
    /** Headers of this answer alone: when and how it was sent, and how long it is. */
    const ANSWER_SPECIFIC = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    const headersOf = (response: { headers: Record<string, unknown> }) => Object.fromEntries(Object.entries(response.headers).filter(([name]) => !ANSWER_SPECIFIC.has(name)));
    for (const [language, lang, said] of [['sv-SE,sv;q=0.9', 'sv', 'för stort'], ['en', 'en', 'too large']] as const) {
      const refusal = await request(`${server.issuer}/interaction/no-such-sign-in`, { headers: { 'accept-language': language } });
      await refusal.body.dump();
      const huge = await request(`${discovery.authorization_endpoint}?client_id=demo-app&state=${'x'.repeat(20_000)}`, { headers: { 'accept-language': language } });
      // It was Node's `HTTP/1.1 431 Request Header Fields Too Large` with no body and no header but Connection.
      expect([huge.statusCode, await huge.body.text()]).toEqual([431, expect.stringMatching(new RegExp(`^<!DOCTYPE html><html lang="${lang}">.*${said}`))]);
      expect(headersOf(huge)).toEqual(headersOf(refusal));
      expect(huge.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('answers a browser\'s CORS preflight of the token endpoint (the docs page and the patient app call it from their page)', async () => {
    // Failed before: 500 text/plain, a 204 without content type crashed the service's page middleware, so the
    // docs page's Authorize could not exchange its code (test/e2e/docs-browser.e2e.test.ts).
    const preflight = (origin: string) => request(discovery.token_endpoint, {
      method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    const app = await preflight('http://smart-launch.invalid');
    await app.body.dump();
    expect([app.statusCode, app.headers['access-control-allow-origin']]).toEqual([204, 'http://smart-launch.invalid']);
    // Any origin gets its preflight answered; oidc-provider decides by client whether the POST is allowed.
    const other = await preflight('http://elsewhere.invalid');
    await other.body.dump();
    expect(other.statusCode).toBe(204);
  });

  it('refuses a wrong client secret with 401 invalid_client', async () => {
    const { status, body } = await tokenRequest(
      { grant_type: 'client_credentials', scope: 'user/Patient-read' },
      ['demo-integration', 'not-the-secret'],
    );
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it('keeps client secrets and signing keys across a restart', async () => {
    const before = await clientToken('demo-integration', 'user/Appointment-read');
    const secrets = JSON.stringify(server.credentials);
    const { port } = new URL(server.issuer);
    await server.close();
    // Same port, so the issuer is the same, as it is for `npm start`.
    server = await start(Number(port));
    expect(JSON.stringify(server.credentials)).toBe(secrets);
    discovery = await getJson<Discovery>(`${server.issuer}/.well-known/openid-configuration`);
    expect((await verify(before)).scope).toBe('user/Appointment-read');
    expect((await verify(await clientToken('demo-integration', 'user/Patient-read'))).scope).toBe('user/Patient-read');
  });
});

/** Drives the devInteractions pages as a person in a browser would, up to the redirect to the app. */
async function signIn(browser: HttpBrowser, start: Page, logins: string[]): Promise<URL> {
  let page = await browser.follow(start, server.issuer);
  const remaining = [...logins];
  for (let steps = 0; steps < 12; steps += 1) {
    if (page.location?.startsWith(REDIRECT_URI)) return new URL(page.location);
    expect(page.status, page.body).toBeLessThan(400);
    const form = readForm(page.body);
    const action = new URL(form.action, page.url).href;
    if (form.fields.prompt === 'login') {
      const login = remaining.shift();
      if (!login) throw new Error('login form shown again with no login left to try');
      page = await browser.post(action, { ...form.fields, login, password: 'any' });
    } else {
      // The consent form, or the self-submitting form oidc-provider uses to switch accounts.
      page = await browser.post(action, form.fields);
    }
    page = await browser.follow(page, server.issuer);
  }
  throw new Error('sign-in did not finish');
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(challenge: string | undefined, scope: string): string {
  const params = new URLSearchParams({
    client_id: 'patient-app',
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope,
    state: 'demo-state',
    ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  });
  return `${discovery.authorization_endpoint}?${params.toString()}`;
}

describe('demo authorization server, authorization code with PKCE', () => {
  it('exports the demo persons', () => {
    expect(DEMO_PERSONS.map((person) => person.identityNumber)).toContain('191212121212');
    expect(DEMO_PERSONS).toHaveLength(6);
  });

  it('signs in a demo person and issues a token carrying their identity number', async () => {
    const scope = 'openid user/Appointment-read user/JournalNote-read user/Payment-write';
    const signedIn = async () => {
      const browser = new HttpBrowser();
      const { verifier, challenge } = pkcePair();
      const callback = await signIn(browser, await browser.get(authorizeUrl(challenge, scope)), ['191212121212']);
      expect(callback.searchParams.get('state')).toBe('demo-state');
      expect(callback.searchParams.get('iss')).toBe(server.issuer);
      const code = callback.searchParams.get('code') ?? '';
      return { verifier, exchange: (code_verifier: string) =>
        tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: 'patient-app', code_verifier }) };
    };
    const first = await signedIn();
    const wrong = await first.exchange(pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    // The failed attempt spent the code (RFC 6749 §4.1.2, token-audit.ts): the right verifier after it gets nothing.
    expect((await first.exchange(first.verifier)).body.error).toBe('invalid_grant');

    const { verifier, exchange } = await signedIn();
    const { status, body } = await exchange(verifier);
    expect(status).toBe(200);
    const token = body.access_token as string;
    expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
    const payload = await verify(token);
    // Issue 52 item 11: sealed, so the app reads no identity number; the service's own keys open it.
    expect(showsIdentityNumber(token, ['191212121212'])).toBe(false);
    expect(await opened(payload)).toBe('191212121212');
    expect(payload.sub).toEqual(expect.any(String));
    expect(payload.sub).not.toBe('191212121212');
    expect(payload.sub).not.toContain('191212121212');
    expect(payload.client_id).toBe('patient-app');
    expect(payload.scope).toBe('user/Appointment-read user/JournalNote-read user/Payment-write');
    expect(payload.exp! - payload.iat!).toBe(15 * 60);
    expect(JSON.stringify(logged)).not.toContain(token);
  });

  it('gives the same person the same opaque sub every time', async () => {
    const subs: unknown[] = [];
    for (let i = 0; i < 2; i += 1) {
      const browser = new HttpBrowser();
      const { verifier, challenge } = pkcePair();
      const callback = await signIn(browser, await browser.get(authorizeUrl(challenge, 'openid user/Patient-read')), ['198112189876']);
      const { body } = await tokenRequest({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: REDIRECT_URI,
        client_id: 'patient-app',
        code_verifier: verifier,
      });
      const payload = await verify(body.access_token as string);
      expect(await opened(payload)).toBe('198112189876');
      subs.push(payload.sub);
    }
    expect(subs[0]).toBe(subs[1]);
  });

  it('asks again when the login is not a demo person', async () => {
    const browser = new HttpBrowser();
    const { challenge } = pkcePair();
    const first = await browser.follow(await browser.get(authorizeUrl(challenge, 'openid user/Patient-read')), server.issuer);
    const form = readForm(first.body);
    const again = await browser.follow(
      await browser.post(new URL(form.action, first.url).href, { ...form.fields, login: '199001011234', password: 'any' }),
      server.issuer,
    );
    expect(again.location).toBeUndefined();
    expect(readForm(again.body).fields.prompt).toBe('login');
    // Then a demo person can still sign in from the same browser.
    const callback = await signIn(browser, again, ['200404122384']);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('issue 22 item 2: refuses an authorization request for an unknown scope with invalid_scope at the redirect URI', async () => {
    const page = await new HttpBrowser().get(authorizeUrl('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'openid user/Journal-read'));
    const redirect = new URL(page.location ?? '');
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('error')).toBe('invalid_scope');
    expect(redirect.searchParams.get('error_description')).toContain('user/Journal-read');
  });

  it('refuses an authorization request without PKCE', async () => {
    const page = await new HttpBrowser().get(authorizeUrl(undefined, 'openid user/Patient-read'));
    const redirect = new URL(page.location ?? '');
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('error')).toBe('invalid_request');
  });
});
