/**
 * Issue 46, deployment: the service's own authorization server (docs/sign-in.md) as deploy/ runs it.
 * Three containers of the image with the region's sign-in on (its clients file, signing keys, cookie
 * keys and client secret as files from secrets, state in one PostgreSQL database made by
 * `npm run migrate`), behind HAProxy balancing round-robin with no affinity; the region's OpenID
 * Provider is the test's own (test/support/region-provider.ts) on the host's loopback, which the
 * containers share. One SMART standalone launch by openid-client: every step at the service (authorize,
 * the region's callback, the picker, consent, the token request) lands on another instance than the
 * step before, by HAProxy's X-Served-By. Then every container is restarted in turn, and the refresh
 * token still works through the load balancer and the new access token reads Lilla's record.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../bench/util.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { startEhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { HttpBrowser, readForm, type Page } from '../dev/demo-issuer/http-browser.js';
import { LOA3, RegionProvider } from '../support/region-provider.js';
import { runScript } from '../support/run-script.js';
import { runCleanup, type CleanupStep } from './support/cleanup.js';
import { Haproxy } from './support/haproxy.js';
import { Instances } from './support/instances.js';
import { adminDatabaseUrl, createDatabase, databaseUrlFor, dropDatabase, redisUrl } from './support/stores.js';

const ZONE = 'Europe/Stockholm';
const APP_ID = 'deploy-smart-app';
const APP_REDIRECT = 'http://127.0.0.1:8765/callback';
const SCOPE = 'openid fhirUser launch/patient offline_access patient/*.rs';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One step of the flow at the service: what was asked and which instance answered. */
interface Step { what: string; servedBy: string | undefined }

describe.skipIf(inject('deploySkip') !== '')('the region\'s sign-in through HAProxy, each step on another instance, a refresh after a rolling restart', () => {
  const runId = randomBytes(4).toString('hex');
  const database = `pdas_deploy_${runId}`;
  const cleanup: CleanupStep[] = [];
  const steps: Step[] = [];
  let instances: Instances;
  let haproxy: Haproxy;
  let app: client.Configuration;
  let tokens: client.TokenEndpointResponse;
  let patient: string;

  const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) if (await check().catch(() => false)) return;
    throw new Error(`${what}: not within ${timeoutMs} ms`);
  };
  const allUp = async (): Promise<boolean> => [...(await haproxy.servers()).values()].filter((s) => s.status === 'UP').length === 3;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-deploy-sign-in-'));
    cleanup.push(['remove the temporary folder', () => rm(dir, { recursive: true, force: true })]);
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: ZONE });
    const sim = await startEhrSimulator({ dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: ZONE });
    cleanup.push(['stop the EHR simulator', () => sim.close()]);
    const [port, statsPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const loginSecret = randomBytes(24).toString('hex');
    const region = await RegionProvider.start({ clientId: 'pdas', clientSecret: loginSecret, redirectUris: [`${base}/auth/callback`] });
    cleanup.push(['stop the region\'s provider', () => region.close()]);
    await createDatabase(database);
    cleanup.push([`drop database ${database}`, () => dropDatabase(database)]);
    const url = databaseUrlFor(adminDatabaseUrl(), database);
    // The migration Job's step (deploy/base/migration-job.yaml), before any instance starts.
    const migrated = await runScript('migrate.ts', ['--sign-in-schema', 'sign_in'], { DATABASE_URL: url });
    expect([migrated.code, migrated.stderr], migrated.stdout).toEqual([0, '']);

    const secretFile = async (name: string, text: string): Promise<string> => {
      const file = path.join(dir, name);
      await writeFile(file, `${text}\n`, { mode: 0o600 });
      return file;
    };
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const ports: Array<[number, number]> = [];
    for (let i = 0; i < 3; i++) ports.push([await freePort(), await freePort()]);
    instances = new Instances(inject('deployImage'), runId, ports, {
      PUBLIC_BASE_URL: base, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url, EHR_TIMEZONE: ZONE, REDIS_URL: redisUrl(), LOG_LEVEL: 'info',
      SIGN_IN_LOGIN_ISSUER: region.issuer, SIGN_IN_LOGIN_CLIENT_ID: 'pdas', SIGN_IN_LOGIN_ACR: LOA3, SIGN_IN_SCHEMA: 'sign_in',
      // One test browser behind HAProxy walks the flows: /auth's limit per source (issue 52 item 8) is tested on its own.
      RATE_LIMIT_NO_KEY_MAX: '100000',
      // Required outside demo mode (issue 52 item 18); the sign-in is what this file proves, not what a policy withholds.
      RELEASE_POLICY_FILE: 'none',
    }, { DATABASE_URL: url }, {
      SUBSCRIPTION_KEYS_FILE: await secretFile('subscription-keys', `deploy${runId}:${randomBytes(18).toString('hex')}`),
      AUDIT_CHAIN_KEY_FILE: await secretFile('audit-chain-key', `deploy-${runId}:${randomBytes(32).toString('hex')}`),
      FHIR_ID_SECRET_FILE: await secretFile('fhir-id-secret', randomBytes(24).toString('hex')),
      ACCESS_LOG_CURSOR_SECRET_FILE: await secretFile('access-log-cursor-secret', randomBytes(24).toString('hex')),
      SIGN_IN_CLIENTS_FILE: await secretFile('clients.json', JSON.stringify([{
        client_id: APP_ID, client_name: 'Deploy test app', token_endpoint_auth_method: 'none', redirect_uris: [APP_REDIRECT],
        scope: 'openid fhirUser launch/patient patient/*.rs', offline_access: true,
      }])),
      SIGN_IN_KEYS_FILE: await secretFile('signing-keys.json', JSON.stringify({ keys: [{ ...await exportJWK(privateKey), kid: `deploy-${runId}` }] })),
      SIGN_IN_COOKIE_KEYS_FILE: await secretFile('cookie-keys', randomBytes(36).toString('base64')),
      SIGN_IN_LOGIN_CLIENT_SECRET_FILE: await secretFile('login-client-secret', loginSecret),
    });
    cleanup.push(['remove the containers, their volumes and secrets', () => instances.removeAll()]);
    await instances.createSecrets();
    for (const instance of instances.list) await instances.create(instance);
    for (const instance of instances.list) {
      const ready = await instances.ready(instance);
      if (!ready.ready) throw new Error(`${instance.name} did not become ready: ${ready.last}\n${await instances.report(instance)}`);
    }
    haproxy = await Haproxy.start(dir, port, statsPort, instances.list.map((i) => ({ name: i.name, port: i.port })));
    cleanup.push(['stop HAProxy', () => haproxy.stop()]);
    await until('HAProxy routes to all three', allUp, 30_000);

    // openid-client's own requests (discovery, token, refresh) through HAProxy, each noted with who answered.
    const noting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      steps.push({ what: `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`, servedBy: response.headers.get('x-served-by') ?? undefined });
      return response;
    };
    app = await client.discovery(new URL(`${base}/auth`), APP_ID, undefined, client.None(), { execute: [client.allowInsecureRequests], [client.customFetch]: noting });
    app[client.customFetch] = noting;
  }, 600_000);

  afterAll(async () => {
    expect(await runCleanup(cleanup)).toEqual([]);
  }, 240_000);

  /** A browser's way from the authorization URL to the app's redirect: redirects followed, Lilla picked, consent given. */
  async function signIn(url: string): Promise<URL> {
    const browser = new HttpBrowser();
    const at = (page: Page, method = 'GET'): Page => {
      if (page.url.startsWith(`${app.serverMetadata().issuer}`)) steps.push({ what: `${method} ${new URL(page.url).pathname} ${page.status}`, servedBy: page.servedBy });
      return page;
    };
    let page = at(await browser.get(url));
    for (let hops = 0; hops < 30; hops += 1) {
      if (page.location !== undefined) {
        if (page.location.startsWith(APP_REDIRECT)) return new URL(page.location);
        page = at(await browser.get(page.location));
        continue;
      }
      if (page.status !== 200 || !/<form/.test(page.body)) break;
      const form = readForm(page.body);
      const action = new URL(form.action, page.url).href;
      if (form.fields.prompt === 'patient') {
        const lilla = [...page.body.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].find((f) => f[1]?.includes('Lilla'))?.[1];
        page = at(await browser.post(action, { ...form.fields, patient: /name="patient" value="([^"]+)"/.exec(lilla ?? '')?.[1] ?? '' }), 'POST');
      } else if (form.fields.prompt === 'consent') page = at(await browser.post(action, form.fields), 'POST');
      else break;
    }
    throw new Error(`the sign-in did not reach the app: ${page.status} ${page.url}\n${page.body.slice(0, 600)}`);
  }

  it('completes one SMART launch whose every step at the service lands on another instance than the step before', async () => {
    steps.splice(0);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(app, {
      redirect_uri: APP_REDIRECT, scope: SCOPE, state, aud: `${new URL(app.serverMetadata().issuer).origin}/fhir`,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const redirect = await signIn(url.href);
    tokens = await client.authorizationCodeGrant(app, redirect, { pkceCodeVerifier: verifier, expectedState: state });
    patient = String((tokens as unknown as { patient?: string }).patient);
    console.log(`test:deploy: the launch's steps at the service:\n  ${steps.map((s) => `${s.what} <- ${s.servedBy ?? '?'}`).join('\n  ')}`);

    const paths = steps.map((s) => s.what).join(' ');
    for (const step of ['/auth/auth', '/auth/callback', '/auth/token']) expect(paths, step).toContain(step);
    expect(steps.filter((s) => s.what.startsWith('POST /auth/interaction')).length, 'the picker and consent posts').toBeGreaterThanOrEqual(2);
    expect(steps.every((s) => s.servedBy !== undefined && instances.list.some((i) => i.name === s.servedBy)), 'each step names its instance').toBe(true);
    expect(steps.slice(1).filter((s, i) => s.servedBy === steps[i]?.servedBy).map((s) => s.what), 'steps on the same instance as the one before').toEqual([]);
    expect(new Set(steps.map((s) => s.servedBy)).size).toBe(3);
    expect(patient).toMatch(/\S/);
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('after every container was restarted in turn, the refresh token still works and the new access token reads Lilla\'s record', async () => {
    expect(tokens, 'the launch above').toBeDefined();
    for (const instance of instances.list) {
      const stopped = await instances.stop(instance);
      expect(stopped.exitCode, `${instance.name} on SIGTERM\n${await instances.report(instance)}`).toBe(0);
      await instances.start(instance);
      const ready = await instances.ready(instance);
      expect(ready.ready, `${instance.name}: ${ready.last}\n${await instances.report(instance)}`).toBe(true);
      await until(`HAProxy routes to ${instance.name} again`, async () => (await haproxy.servers()).get(instance.name)?.status === 'UP', 30_000);
    }
    for (const instance of instances.list) expect((await instances.logs(instance)).match(/"msg":"shut down cleanly"/g)?.length, instance.name).toBe(1);

    const refreshed = await client.refreshTokenGrant(app, String(tokens.refresh_token));
    expect((refreshed as unknown as { patient?: string }).patient).toBe(patient);
    const origin = new URL(app.serverMetadata().issuer).origin;
    const readLilla = () => fetch(`${origin}/fhir/Patient/${patient}`, { headers: { authorization: `Bearer ${refreshed.access_token}`, accept: 'application/fhir+json' } });
    const read = await readLilla();
    const body = await read.json() as { id?: string; name?: Array<{ given?: string[] }> };
    expect([read.status, body.id], JSON.stringify(body).slice(0, 400)).toEqual([200, patient]);
    expect(body.name?.[0]?.given).toContain('Lilla');
    // Rotating: the old refresh token is spent, and coming back it is taken for a stolen copy, which ends the
    // grant (issue 52 items 13 and 16): the new access token is refused from the next request, on any instance.
    await expect(client.refreshTokenGrant(app, String(tokens.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
    const after = await readLilla();
    await after.body?.cancel();
    expect(after.status).toBe(401);
  }, 300_000);
});
