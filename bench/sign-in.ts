/**
 * Part 11 (issue 46): the service's own authorization server (docs/sign-in.md) on one instance, its state
 * in a PostgreSQL schema of the bench's own (dropped afterwards), the region's login a real OpenID Provider
 * in this process (test/support/region-provider.ts, on the load generator's core).
 *
 *   11a. sign-ins one after another, each the whole way a browser goes (the app's authorization request,
 *        the region's login, the callback, the picker, consent, the code exchanged for tokens): the
 *        service's CPU per sign-in (every request of it) and the wall time of one (the region's part too).
 *   11b. refresh-token requests at the token endpoint from 10 apps at once, each refreshing its own
 *        chain (a refresh token is one-use): token requests per second, p50/p99, service CPU per request.
 *        Each chain is a sign-in of its own app: a person's next sign-in through the same app replaces
 *        that app's grant, and the refresh tokens of the grant before it are then refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import pg from 'pg';
import { request } from 'undici';
import { HttpBrowser, readForm, type Page } from '../test/dev/demo-issuer/http-browser.js';
import { LOA3, RegionProvider } from '../test/support/region-provider.js';
import { fmt, freePort, percentile, table } from './util.js';

/** The apps of 11b, one a chain; 11a signs in through the first. */
const APP_IDS = Array.from({ length: 10 }, (_, i) => `bench-app-${i}`);
const APP_ID = APP_IDS[0] as string;
const APP_REDIRECT = 'http://127.0.0.1:8765/callback';
const SCOPE = 'openid fhirUser launch/patient offline_access patient/*.rs';
const WARMUP_SIGN_INS = 5;
const MAX_SIGN_INS = 400;
export const REFRESH_CONNECTIONS = APP_IDS.length;
const MAX_REFRESHES = 200_000;

/** What the bench needs of a service process (run.ts's Target). */
export interface SignInTarget {
  origin: string;
  reset(): Promise<unknown>;
  stats(): Promise<{ cpuUserUs: number; cpuSystemUs: number }>;
  stop(): Promise<void>;
}

export interface SignInResult {
  signIns: number;
  signInCpuUs: number;
  signInWallP50Ms: number;
  signInWallP99Ms: number;
  /** Requests a browser and the app make to the service in one sign-in. */
  serviceRequests: number;
  refreshes: number;
  refreshRps: number;
  refreshP50Ms: number;
  refreshP99Ms: number;
  refreshCpuUs: number;
  errors: number;
}

function databaseUrl(): string {
  const v = process.env.DATABASE_URL?.trim();
  return v === undefined || v === '' ? 'postgres://postgres@127.0.0.1:5432/test' : v;
}

const base64url = (b: Buffer): string => b.toString('base64url');

/** One sign-in as a browser makes it, to the app's code; then the code exchanged. Returns the refresh token and how many service requests it took. */
async function signIn(issuer: string, base: string, appId = APP_ID): Promise<{ refreshToken: string; serviceRequests: number }> {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const params = new URLSearchParams({
    client_id: appId, response_type: 'code', redirect_uri: APP_REDIRECT, scope: SCOPE, state, aud: `${base}/fhir`,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()), code_challenge_method: 'S256',
  });
  const browser = new HttpBrowser();
  let serviceRequests = 0;
  const counted = (url: string): string => {
    if (url.startsWith(base)) serviceRequests += 1;
    return url;
  };
  let page: Page = await browser.get(counted(`${issuer}/auth?${params}`));
  let code: string | undefined;
  for (let hops = 0; hops < 30 && code === undefined; hops += 1) {
    if (page.location !== undefined) {
      if (page.location.startsWith(APP_REDIRECT)) code = new URL(page.location).searchParams.get('code') ?? undefined;
      else page = await browser.get(counted(page.location));
      continue;
    }
    const form = page.status === 200 ? readForm(page.body) : undefined;
    const action = form === undefined ? undefined : counted(new URL(form.action, page.url).href);
    if (form?.fields.prompt === 'patient' && action !== undefined) {
      const lilla = [...page.body.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].find((f) => f[1]?.includes('Lilla'))?.[1];
      page = await browser.post(action, { ...form.fields, patient: /name="patient" value="([^"]+)"/.exec(lilla ?? '')?.[1] ?? '' });
    } else if (form?.fields.prompt === 'consent' && action !== undefined) page = await browser.post(action, form.fields);
    else throw new Error(`the sign-in stopped at ${page.url}: ${page.status}`);
  }
  if (code === undefined) throw new Error('the sign-in did not reach the app');
  serviceRequests += 1;
  const tokens = await tokenRequest(issuer, { grant_type: 'authorization_code', code, redirect_uri: APP_REDIRECT, client_id: appId, code_verifier: verifier });
  return { refreshToken: tokens, serviceRequests };
}

/** A token request; the new refresh token. */
async function tokenRequest(issuer: string, form: Record<string, string>): Promise<string> {
  const res = await request(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  const body = await res.body.json() as { refresh_token?: string; error?: string };
  if (res.statusCode !== 200 || typeof body.refresh_token !== 'string') throw new Error(`token request answered ${res.statusCode} ${body.error ?? ''}`);
  return body.refresh_token;
}

/** 11a and 11b against a service `start` runs with the given settings on the given port. */
export async function measureSignIn(start: (env: Record<string, string>, port: number) => Promise<SignInTarget>, seconds: number): Promise<SignInResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-bench-sign-in-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const issuer = `${base}/auth`;
  const schema = `bench_sign_in_${randomBytes(4).toString('hex')}`;
  const region = await RegionProvider.start({ clientId: 'pdas', clientSecret: 'bench-region-secret-0123456789', redirectUris: [`${issuer}/callback`] });
  region.person = { pnr: '198112189876', acr: LOA3 };
  let target: SignInTarget | undefined;
  try {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const files = { clients: path.join(dir, 'clients.json'), keys: path.join(dir, 'keys.json'), cookies: path.join(dir, 'cookie-keys'), secret: path.join(dir, 'secret') };
    await writeFile(files.clients, JSON.stringify(APP_IDS.map((id, i) => ({
      client_id: id, client_name: `Bench app ${i}`, token_endpoint_auth_method: 'none', redirect_uris: [APP_REDIRECT],
      scope: 'openid fhirUser launch/patient patient/*.rs', offline_access: true,
    }))));
    await writeFile(files.keys, JSON.stringify({ keys: [{ ...await exportJWK(privateKey), kid: 'bench-key-1' }] }));
    await writeFile(files.cookies, `${randomBytes(32).toString('base64url')}\n`);
    await writeFile(files.secret, 'bench-region-secret-0123456789\n');
    target = await start({
      PUBLIC_BASE_URL: base, DATABASE_URL: databaseUrl(), SUBSCRIPTION_KEYS: `bench:${randomBytes(16).toString('hex')}`, DATA_DIR: path.join(dir, 'data'),
      SIGN_IN_LOGIN_ISSUER: region.issuer, SIGN_IN_LOGIN_CLIENT_ID: 'pdas', SIGN_IN_LOGIN_CLIENT_SECRET_FILE: files.secret, SIGN_IN_LOGIN_ACR: LOA3,
      SIGN_IN_CLIENTS_FILE: files.clients, SIGN_IN_KEYS_FILE: files.keys, SIGN_IN_COOKIE_KEYS_FILE: files.cookies, SIGN_IN_SCHEMA: schema,
      // The load comes from one address: neither the API's limits nor /auth's per source (issue 52 item 8) are measured here.
      FHIR_ID_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '10000000', RATE_LIMIT_NO_KEY_MAX: '10000000',
      // Every start outside demo mode names its release policy (issue 52 item 18); a sign-in reads no record.
      RELEASE_POLICY_FILE: 'none',
    }, port);
    const service = target;

    // 11a: one after another, for `seconds` (at most MAX_SIGN_INS), after a warm-up.
    for (let i = 0; i < WARMUP_SIGN_INS; i += 1) await signIn(issuer, base);
    await service.reset();
    const walls: number[] = [];
    let serviceRequests = 0;
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until && walls.length < MAX_SIGN_INS) {
      const began = performance.now();
      const done = await signIn(issuer, base);
      walls.push(performance.now() - began);
      serviceRequests = done.serviceRequests;
    }
    const signInStats = await service.stats();

    // 11b: each connection refreshes its own chain, one request at a time, for `seconds`: a chain
    // begins with the last sign-in through its app.
    const chains: string[] = [];
    for (const appId of APP_IDS) chains.push((await signIn(issuer, base, appId)).refreshToken);
    await service.reset();
    const latencies: number[] = [];
    let errors = 0;
    const refreshUntil = Date.now() + seconds * 1000;
    const began = performance.now();
    await Promise.all(chains.map(async (first, i) => {
      let token = first;
      while (Date.now() < refreshUntil && latencies.length < MAX_REFRESHES) {
        const at = performance.now();
        try {
          token = await tokenRequest(issuer, { grant_type: 'refresh_token', refresh_token: token, client_id: APP_IDS[i] as string });
          latencies.push(performance.now() - at);
        } catch {
          errors += 1;
          return;
        }
      }
    }));
    const elapsedS = (performance.now() - began) / 1000;
    const refreshStats = await service.stats();
    walls.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    return {
      signIns: walls.length, signInCpuUs: (signInStats.cpuUserUs + signInStats.cpuSystemUs) / walls.length,
      signInWallP50Ms: percentile(walls, 50), signInWallP99Ms: percentile(walls, 99), serviceRequests,
      refreshes: latencies.length, refreshRps: latencies.length / elapsedS, refreshP50Ms: percentile(latencies, 50), refreshP99Ms: percentile(latencies, 99),
      refreshCpuUs: (refreshStats.cpuUserUs + refreshStats.cpuSystemUs) / Math.max(1, latencies.length), errors,
    };
  } finally {
    await target?.stop();
    await region.close();
    await rm(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 5000 });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
  }
}

export function signInTable(r: SignInResult): string {
  return table(['scenario', 'count', 'service CPU µs each', 'p50 ms', 'p99 ms', 'rate', 'errors'], [
    [`11a. a whole sign-in, one at a time (${r.serviceRequests} service requests each)`, String(r.signIns), fmt(r.signInCpuUs), fmt(r.signInWallP50Ms, 1), fmt(r.signInWallP99Ms, 1), '–', '0'],
    [`11b. refresh-token requests, ${REFRESH_CONNECTIONS} apps at once`, String(r.refreshes), fmt(r.refreshCpuUs), fmt(r.refreshP50Ms, 1), fmt(r.refreshP99Ms, 1), `${fmt(r.refreshRps)} req/s`, String(r.errors)],
  ]);
}
