// The service as a region runs it with its own authorization server (docs/sign-in.md): SIGN_IN_LOGIN_ISSUER
// naming a RegionProvider of the test's own, a clients file with two SMART apps, signing and cookie key
// files, state in a PostgreSQL schema of the test's own. Instances share the settings, so any of them
// serves any step; PUBLIC_BASE_URL is the first one's address (a browser reaches another by its port).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { freePort } from '../../bench/util.js';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { listen } from '../../src/start/listen.js';
import { adminPool, databaseUrl, dropSchema, freshSchema } from './database.js';
import { LOA3, RegionProvider } from './region-provider.js';

export const APP_ID = 'smart-app';
export const APP_REDIRECT = 'http://127.0.0.1:8765/callback';
export const SUBSCRIPTION_KEY = 'sign-in-test-key-0123456789';
/**
 * A second app as a region may register it: named only in Swedish and English (`client_name#sv`,
 * `client_name#en`), its one exact redirect URI and no loopback rule, so it may come back only there.
 */
export const RECORD_APP = { id: 'record-app', redirect: 'http://127.0.0.1:8765/record-app/', sv: 'Journalappen', en: 'Record app' } as const;

export interface Instance { base: string; port: number; metrics: string; close(): Promise<void> }

export interface SignInService {
  /** PUBLIC_BASE_URL: the first instance's address. */
  base: string;
  issuer: string;
  region: RegionProvider;
  schema: string;
  /** SIGN_IN_KEYS_FILE: the private JWKS the service signs its tokens with (kid `service-key-1`), for a test to forge one. */
  keysFile: string;
  instances: Instance[];
  /** Starts one more instance on the same settings, on `port` (the first's, after a restart) or another. */
  startInstance(port?: number): Promise<Instance>;
  close(): Promise<void>;
}

/**
 * `clients`: the clients file's entries, or a function of PUBLIC_BASE_URL making them (an app served by the service itself).
 * `regionSecret`: the secret the region's provider holds for the service, when it is to differ from the service's file.
 * `logs`: where each log line goes (at level info), for a test to read.
 * `tls`: a certificate and key (PEM files) to serve https with, as production does: PUBLIC_BASE_URL is then https.
 */
export async function startSignInService(options: {
  clients?: unknown[] | ((base: string) => unknown[]); env?: Record<string, string>; regionSecret?: string; logs?: string[];
  tls?: { certFile: string; keyFile: string };
} = {}): Promise<SignInService> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-sign-in-'));
  const port = await freePort();
  const base = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  const region = await RegionProvider.start({ clientId: 'pdas', clientSecret: options.regionSecret ?? 'region-client-secret-0123456789', redirectUris: [`${base}/auth/callback`] });
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const files = {
    clients: path.join(dir, 'clients.json'), keys: path.join(dir, 'keys.json'), cookies: path.join(dir, 'cookie-keys'), secret: path.join(dir, 'region-secret'),
  };
  await writeFile(files.clients, JSON.stringify((typeof options.clients === 'function' ? options.clients(base) : options.clients) ?? [{
    client_id: APP_ID, client_name: 'Test SMART app', token_endpoint_auth_method: 'none', redirect_uris: [APP_REDIRECT],
    scope: 'openid fhirUser launch/patient patient/*.rs user/*.rs user/Appointment-read', offline_access: true, loopback_redirects: true,
  }, {
    client_id: RECORD_APP.id, 'client_name#sv': RECORD_APP.sv, 'client_name#en': RECORD_APP.en, token_endpoint_auth_method: 'none',
    redirect_uris: [RECORD_APP.redirect], scope: 'openid fhirUser launch/patient patient/*.rs', offline_access: true,
  }]));
  await writeFile(files.keys, JSON.stringify({ keys: [{ ...await exportJWK(privateKey), kid: 'service-key-1' }] }));
  await writeFile(files.cookies, 'cookie-key-one-0123456789abcdef0123456789\n');
  await writeFile(files.secret, 'region-client-secret-0123456789\n');
  const schema = freshSchema('sign_in_e2e');
  const env: Record<string, string> = {
    METRICS_PORT: '0', LOG_LEVEL: process.env.SIGN_IN_TEST_LOG ?? 'silent', PUBLIC_BASE_URL: base, DATABASE_URL: databaseUrl(), SUBSCRIPTION_KEYS: `test:${SUBSCRIPTION_KEY}`, RELEASE_POLICY_FILE: 'none',
    SIGN_IN_LOGIN_ISSUER: region.issuer, SIGN_IN_LOGIN_CLIENT_ID: 'pdas', SIGN_IN_LOGIN_CLIENT_SECRET_FILE: files.secret,
    SIGN_IN_LOGIN_ACR: LOA3, SIGN_IN_CLIENTS_FILE: files.clients, SIGN_IN_KEYS_FILE: files.keys, SIGN_IN_COOKIE_KEYS_FILE: files.cookies,
    SIGN_IN_SCHEMA: schema, FHIR_ID_SECRET: 'sign-in-test-fhir-id-secret-0123456789abcdef',
    // Every browser of a test is one loopback address walking many flows a second: /auth's limit per
    // source (issue 52 item 8) is tested on its own (test/e2e/auth-rate-limit.e2e.test.ts).
    RATE_LIMIT_NO_KEY_MAX: '100000',
    ...(options.tls === undefined ? {} : { TLS_CERT_FILE: options.tls.certFile, TLS_KEY_FILE: options.tls.keyFile }), ...options.env,
  };
  const instances: Instance[] = [];
  const startInstance = async (at = 0): Promise<Instance> => {
    const dataDir = await mkdtemp(path.join(dir, 'data-'));
    const config = loadConfig({ ...env, DATA_DIR: dataDir, PORT: String(at) });
    const logs = options.logs;
    const logger = logs === undefined ? createLogger(process.env.SIGN_IN_TEST_LOG ?? 'silent') : createLogger('info', { write: (line: string) => { logs.push(line); } });
    const runtime: Runtime = await compose(config, logger);
    const { api, metrics } = await listen(runtime, config);
    const instance = { base: api, port: Number(new URL(api).port), metrics, close: () => runtime.close() };
    instances.push(instance);
    return instance;
  };
  await startInstance(port);
  return {
    base, issuer: `${base}/auth`, region, schema, keysFile: files.keys, instances,
    startInstance: (at?: number) => startInstance(at),
    close: async () => {
      for (const instance of instances) await instance.close().catch(() => undefined);
      await region.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The service's instances and region closed, its sign-in schema dropped (nothing when it never started). */
export async function stopSignInService(service: SignInService | undefined): Promise<void> {
  if (service === undefined) return;
  await service.close();
  const pool = adminPool();
  await dropSchema(pool, service.schema);
  await pool.end();
}
