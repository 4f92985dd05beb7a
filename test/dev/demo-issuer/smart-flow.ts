// A SMART App Launch 2.2 standalone launch against the service in demo mode, driven through the demo
// issuer's forms as a script would: authorize, sign in, pick, consent, then the token exchange.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createLogger } from '../../../src/http/logging.js';
import { loadConfig } from '../../../src/start/config.js';
import { compose, type Runtime } from '../../../src/start/container.js';
import { listen } from '../../../src/start/listen.js';
import type { HttpBrowser} from './http-browser.js';
import { readForm, type Page } from './http-browser.js';

export const APP_REDIRECT = 'http://127.0.0.1:8765/callback';
export const SMART_SCOPE = 'openid fhirUser launch/patient offline_access patient/*.rs';

export interface Discovery { issuer: string; authorization_endpoint: string; token_endpoint: string; revocation_endpoint: string; jwks_uri: string; end_session_endpoint: string }

export interface DemoService {
  base: string;
  /** DATA_DIR: the demo's keys and clients (demo-auth.json). */
  dataDir: string;
  fhirBase: string;
  smart: Record<string, unknown> & Discovery;
  oidc: Discovery;
  close(): Promise<void>;
}

/** The service as `npm start` runs it (demo issuer, embedded EHR), on ports the kernel picks. */
export async function startDemoService(env: Record<string, string> = {}): Promise<DemoService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-smart-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent', ...env });
  const runtime: Runtime = await compose(config, createLogger('silent'));
  const base = (await listen(runtime, config)).api;
  const answer = await request(`${base}/fhir/.well-known/smart-configuration`);
  // With FHIR_API=off there is no SMART discovery: the demo issuer's own, named in the start's notices.
  const issuer = answer.statusCode === 200 ? undefined : /demo authorization server: (\S+)/.exec(runtime.notices.join('\n'))?.[1];
  const found = answer.statusCode === 200 ? await answer.body.json() as DemoService['smart'] : (await answer.body.dump(), undefined);
  const oidc = await (await request(`${found?.issuer ?? issuer ?? ''}/.well-known/openid-configuration`)).body.json() as Discovery;
  const smart = found ?? { ...oidc };
  return {
    base, dataDir, fhirBase: `${base}/fhir`, smart, oidc,
    close: async () => {
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Pkce { verifier: string; challenge: string }
export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request's parameters, SMART's way; `change` adds, replaces or (undefined) removes any. */
export function authorizeUrl(service: DemoService, code: Pkce, change: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code', client_id: 'patient-app', redirect_uri: APP_REDIRECT, scope: SMART_SCOPE, state: randomBytes(8).toString('hex'),
    aud: service.fhirBase, code_challenge: code.challenge, code_challenge_method: 'S256', ...change,
  };
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return `${service.smart.authorization_endpoint}?${new URLSearchParams(defined).toString()}`;
}

/** Where the issuer sends the browser back to: the app's redirect with `code` or `error`. */
export function callbackOf(page: Page): URL {
  if (page.location === undefined) throw new Error(`no redirect: ${page.status} ${page.body.slice(0, 300)}`);
  return new URL(page.location);
}

export interface Steps {
  /** The identity number typed at sign-in (skipped when the session is signed in already). */
  login: string;
  /** Which picker entry to post, by its visible text; undefined: expect no picker. */
  pick?: string | undefined;
}

/** Posts a page's first form as it is (hidden fields included), with `fields` set. */
export async function postForm(browser: HttpBrowser, page: Page, fields: Record<string, string>): Promise<Page> {
  const form = readForm(page.body);
  return browser.post(new URL(form.action, page.url).href, { ...form.fields, ...fields });
}

/** The picker's Patient id of the entry whose button says `label`. */
export function pickerValue(page: Page, label: string): string {
  for (const form of page.body.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)) {
    if (form[1]?.includes(label)) return /name="patient" value="([^"]+)"/.exec(form[1])?.[1] ?? '';
  }
  throw new Error(`no picker entry "${label}"`);
}

/** Authorize → sign-in → picker → consent, each posted as a script would; the redirect back. */
export async function launch(browser: HttpBrowser, service: DemoService, url: string, steps: Steps): Promise<{ redirect: URL; pages: Page[] }> {
  return launchFrom(browser, service, await browser.get(url), steps);
}

/** The same from the authorization endpoint's first answer (a GET's or a POST's). */
export async function launchFrom(browser: HttpBrowser, service: DemoService, first: Page, steps: Steps): Promise<{ redirect: URL; pages: Page[] }> {
  const issuer = new URL(service.smart.issuer).origin;
  const pages: Page[] = [];
  let page = await browser.follow(first, issuer);
  for (let step = 0; step < 5 && page.location === undefined; step += 1) {
    pages.push(page);
    const prompt = readForm(page.body).fields.prompt;
    if (prompt === 'login') page = await postForm(browser, page, { login: steps.login });
    else if (prompt === 'patient') {
      if (steps.pick === undefined) throw new Error('a picker was shown where none was expected');
      page = await postForm(browser, page, { patient: pickerValue(page, steps.pick) });
    } else if (prompt === 'consent') page = await postForm(browser, page, {});
    else throw new Error(`unexpected page ${page.status}: ${page.body.slice(0, 300)}`);
    page = await browser.follow(page, issuer);
  }
  return { redirect: callbackOf(page), pages };
}

export async function tokenRequest(service: DemoService, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await request(service.smart.token_endpoint, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, headers: response.headers, body: await response.body.json() as Record<string, unknown> };
}

export const exchange = (service: DemoService, code: string, verifier: string, change: Record<string, string> = {}) =>
  tokenRequest(service, { grant_type: 'authorization_code', code, redirect_uri: APP_REDIRECT, client_id: 'patient-app', code_verifier: verifier, ...change });

/** A whole launch of the patient app in `browser` as `login` picking `pick`: its token response. */
export async function launchedIn(browser: HttpBrowser, service: DemoService, login: string, pick?: string): Promise<Record<string, unknown>> {
  const code = pkce();
  const { redirect } = await launch(browser, service, authorizeUrl(service, code), { login, pick });
  return (await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier)).body;
}
