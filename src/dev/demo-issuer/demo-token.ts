// A demo person's access token through the real authorization code flow with PKCE, as the patient
// app would get it: authorization request, the demo sign-in and consent pages, the code at the
// redirect URI, the token request with the verifier. For `npm run demo:token` and the README.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { API_SCOPES, PATIENT_APP_REDIRECT_URI } from './demo-clients.js';
import { CSRF_FIELD } from '../../adapters/auth-server/form-tokens.js';
import { INTERACTION_PATH } from '../../adapters/auth-server/interactions.js';

const MAX_STEPS = 12;

/** The sign-in page refused the login: its own words. */
export class DemoSignInRefused extends Error {
  override name = 'DemoSignInRefused';
}

interface Step { status: number; location: string | undefined; body: string }

/** Just the cookies of one sign-in, by name (the provider's cookie names do not repeat across paths). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

async function step(jar: CookieJar, url: URL, form?: Record<string, string>): Promise<Step> {
  const response = await request(url, {
    method: form ? 'POST' : 'GET',
    headers: {
      accept: 'text/html', cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : null,
  });
  jar.keep(response.headers['set-cookie']);
  const location = response.headers.location;
  return { status: response.statusCode, location: typeof location === 'string' ? location : undefined, body: await response.body.text() };
}

/** The `error` text of a sign-in page that refused the login. */
const pageError = (html: string): string | undefined => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];

/**
 * What a demo sign-in asks for: the person, the scopes (every API scope unless given), and for SMART
 * scopes (`patient/…`, `user/…` of FHIR types) the FHIR base they are for (`aud`), and whom the
 * patient picker picks: the entry whose words hold `pick` (the person themself unless given).
 */
export interface DemoSignIn {
  issuer: string;
  person: string;
  scopes?: readonly string[];
  aud?: string;
  pick?: string;
}

/** The picker's entry for the person themself (src/adapters/auth-server/interaction-pages.ts). */
const YOURSELF = '— yourself';

/** The hidden fields of the picker's form whose text holds `pick`; undefined when none does. */
function pickedForm(html: string, pick: string): Record<string, string> | undefined {
  for (const [, form = ''] of html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)) {
    if (!form.includes(pick)) continue;
    const fields = Object.fromEntries([...form.matchAll(/<(?:input|button)[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
    if (fields.patient !== undefined) return fields;
  }
  return undefined;
}

/** Signs `person` in at `issuer` as the patient app and returns the access token for every API scope (or `scopes`). */
export async function demoPersonToken(input: DemoSignIn): Promise<string> {
  const issuer = new URL(input.issuer);
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL('/auth', issuer);
  authorize.search = new URLSearchParams({
    client_id: 'patient-app', response_type: 'code', redirect_uri: PATIENT_APP_REDIRECT_URI, state,
    scope: ['openid', ...(input.scopes ?? API_SCOPES)].join(' '), ...(input.aud === undefined ? {} : { aud: input.aud }),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  }).toString();

  const jar = new CookieJar();
  let current = await step(jar, authorize);
  let url = authorize;
  for (let i = 0; i < MAX_STEPS; i += 1) {
    if (current.location !== undefined) {
      const next = new URL(current.location, url);
      if (next.href.startsWith(PATIENT_APP_REDIRECT_URI)) return exchange(issuer, next, state, verifier);
      if (next.origin !== issuer.origin) throw new Error(`the authorization server sent the browser to ${next.origin}`);
      url = next;
      current = await step(jar, url);
      continue;
    }
    if (current.status !== 200 || !url.pathname.startsWith(INTERACTION_PATH)) {
      throw new Error(`sign-in stopped at ${url.pathname} with status ${current.status}`);
    }
    const refused = pageError(current.body);
    if (refused !== undefined) throw new DemoSignInRefused(refused);
    // Each form of the page carries its token in a hidden field, posted back as it is.
    const csrf = new RegExp(`name="${CSRF_FIELD}" value="([^"]*)"`).exec(current.body)?.[1] ?? '';
    let form: Record<string, string> = current.body.includes('name="prompt" value="login"') ? { csrf, prompt: 'login', login: input.person } : { csrf, prompt: 'consent' };
    if (current.body.includes('name="prompt" value="patient"')) {
      const picked = pickedForm(current.body, input.pick ?? YOURSELF);
      if (picked === undefined) throw new DemoSignInRefused(`the patient picker offers nobody matching "${input.pick ?? YOURSELF}"`);
      form = picked;
    }
    current = await step(jar, url, form);
  }
  throw new Error('sign-in did not finish');
}

async function exchange(issuer: URL, callback: URL, state: string, verifier: string): Promise<string> {
  const error = callback.searchParams.get('error');
  if (error !== null) throw new Error(`the authorization server refused: ${error} ${callback.searchParams.get('error_description') ?? ''}`.trim());
  if (callback.searchParams.get('state') !== state) throw new Error('the redirect carried another state');
  const response = await request(new URL('/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', code: callback.searchParams.get('code') ?? '', redirect_uri: PATIENT_APP_REDIRECT_URI,
      client_id: 'patient-app', code_verifier: verifier,
    }).toString(),
  });
  const body = (await response.body.json()) as { access_token?: string; error?: string };
  if (response.statusCode !== 200 || typeof body.access_token !== 'string') throw new Error(`token request refused: ${body.error ?? response.statusCode}`);
  return body.access_token;
}
