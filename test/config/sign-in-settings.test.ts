/**
 * Issue 46 step 3 (docs/sign-in.md#settings): with SIGN_IN_LOGIN_ISSUER, `npm start` refuses settings
 * that cannot work, naming the setting: no PUBLIC_BASE_URL or DATABASE_URL, a clients file entry
 * without redirect URIs or with a scope the service does not grant, no signing key, no cookie key; and a
 * good set makes AUTH_ISSUER the service's own issuer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { refusal } from '../support/config-refusal.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

const LOA3 = 'http://id.elegnamnden.se/loa/1.0/loa3';
const dir = mkdtempSync(path.join(tmpdir(), 'pdas-sign-in-settings-'));
const file = (name: string, text: string): string => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
const privateJwk = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'k1' };
const APP = { client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: ['https://app.example.se/cb'], scope: 'openid launch/patient patient/*.rs' };

const GOOD: Record<string, string> = {
  DATA_DIR: dir, SUBSCRIPTION_KEYS: 'app:subscription-key-cccccccccccc', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none',
  PUBLIC_BASE_URL: 'https://api.region.example.se/patient', DATABASE_URL: 'postgres://pdas@db.example.se/pdas',
  SIGN_IN_LOGIN_ISSUER: 'https://login.region.example.se', SIGN_IN_LOGIN_CLIENT_ID: 'pdas', SIGN_IN_LOGIN_ACR: LOA3,
  SIGN_IN_LOGIN_CLIENT_SECRET_FILE: file('secret', 'a-secret-from-the-region\n'),
  SIGN_IN_CLIENTS_FILE: file('clients.json', JSON.stringify([APP])),
  SIGN_IN_KEYS_FILE: file('keys.json', JSON.stringify({ keys: [privateJwk] })),
  SIGN_IN_COOKIE_KEYS_FILE: file('cookies', 'a-cookie-key-of-at-least-32-characters-0123\n'),
};
const without = (name: string): Record<string, string> => Object.fromEntries(Object.entries(GOOD).filter(([k]) => k !== name));

describe('the service\'s own authorization server: its settings', () => {
  it('takes a good set, and AUTH_ISSUER becomes {PUBLIC_BASE_URL}/auth', () => {
    const config = loadConfig(GOOD);
    expect(config.authIssuer).toBe('https://api.region.example.se/patient/auth');
    expect(config.signIn).toMatchObject({ issuer: 'https://api.region.example.se/patient/auth', schema: 'sign_in', login: { clientId: 'pdas', clientSecret: 'a-secret-from-the-region', acr: [LOA3] } });
    expect(config.signIn?.clients.map((c) => c.metadata.client_id)).toEqual(['app']);
    expect(loadConfig({ ...GOOD, AUTH_ISSUER: 'https://api.region.example.se/patient/auth' }).authIssuer).toBe('https://api.region.example.se/patient/auth');
  });

  it.each([
    ['PUBLIC_BASE_URL', /PUBLIC_BASE_URL is required/],
    ['DATABASE_URL', /DATABASE_URL is required/],
    ['SIGN_IN_LOGIN_CLIENT_ID', /SIGN_IN_LOGIN_CLIENT_ID is required/],
    // Issue 52 item 7: without it any login strength would be taken, silently.
    ['SIGN_IN_LOGIN_ACR', /SIGN_IN_LOGIN_ACR is required: .*e\.g\. SIGN_IN_LOGIN_ACR=http:\/\/id\.elegnamnden\.se\/loa\/1\.0\/loa3/],
    ['SIGN_IN_LOGIN_CLIENT_SECRET_FILE', /exactly one of SIGN_IN_LOGIN_CLIENT_SECRET_FILE .* and SIGN_IN_LOGIN_CLIENT_KEY_FILE/],
    ['SIGN_IN_CLIENTS_FILE', /SIGN_IN_CLIENTS_FILE is required/],
    ['SIGN_IN_KEYS_FILE', /SIGN_IN_KEYS_FILE is required/],
    ['SIGN_IN_COOKIE_KEYS_FILE', /SIGN_IN_COOKIE_KEYS_FILE is required/],
    ['SUBSCRIPTION_KEYS', /SUBSCRIPTION_KEYS or SUBSCRIPTION_KEYS_FILE is required/],
  ])('refuses a start without %s, naming it', (name, message) => {
    expect(refusal(without(name))).toMatch(message);
  });

  it.each([
    ['an entry without redirect URIs', [{ ...APP, redirect_uris: [] }], /SIGN_IN_CLIENTS_FILE entry 1 \(app\): redirect_uris must list/],
    ['a plain-http redirect off loopback', [{ ...APP, redirect_uris: ['http://app.example.se/cb'] }], /entry 1 \(app\): redirect URI http:\/\/app.example.se\/cb must be https/],
    // Issue 52 review item 4: a loopback redirect is a path alone (docs/sign-in.md).
    ['a loopback redirect with a query', [{ ...APP, redirect_uris: ['http://127.0.0.1:8765/cb?x=1'] }], /redirect URI http:\/\/127.0.0.1:8765\/cb\?x=1 must be https \(plain http only on 127.0.0.1 or \[::1\], with no query\)/],
    ['a shared secret', [{ ...APP, token_endpoint_auth_method: 'client_secret_basic' }], /entry 1 \(app\): token_endpoint_auth_method must be none .* or private_key_jwt/],
    ['private_key_jwt without keys', [{ ...APP, token_endpoint_auth_method: 'private_key_jwt' }], /entry 1 \(app\): private_key_jwt needs the app's public keys/],
    ['a scope the service does not grant', [{ ...APP, scope: 'openid patient/*.write email' }], /entry 1 \(app\): scope names what this service does not grant: patient\/\*.write email/],
    ['a v2 write the API does not take', [{ ...APP, scope: 'openid patient/Appointment.u' }], /scope names what this service does not grant: patient\/Appointment.u \(a write is named .* e\.g\. patient\/Appointment.write\)/],
    ['one client twice', [APP, APP], /lists client_id app twice/],
    // Hostile review: redirect URIs on two hosts (or two loopback ports) were taken here, then every
    // authorization of the app failed with oidc-provider's invalid_client_metadata (pairwise subjects
    // need one host), logged nowhere.
    ['redirect URIs on two hosts', [{ ...APP, redirect_uris: ['https://app.example.se/cb', 'https://www.app.example.se/cb'] }], /entry 1 \(app\): redirect_uris must all be on one host .* https:\/\/app.example.se\/cb and https:\/\/www.app.example.se\/cb/],
    ['loopback redirect URIs on two ports', [{ ...APP, redirect_uris: ['http://127.0.0.1:8080/app/', 'http://127.0.0.1:9999/cb'] }], /entry 1 \(app\): redirect_uris must all be on one host/],
    ['a name no page or access log can show', [{ ...APP, 'client_name#sv': 'x'.repeat(129) }], /entry 1 \(app\): client_name#sv must be 1 to 128 printable characters/],
    ['a name with a control character', [{ ...APP, client_name: 'App\u0007' }], /entry 1 \(app\): client_name must be 1 to 128 printable characters/],
    ['no array', { client_id: 'app' }, /must be a JSON array/],
    // Issue 54: the prefixes an app's notifications may go to, each held to the endpoint rules.
    ['notification endpoints that are no list', [{ ...APP, notification_endpoints: 'https://app.example.se/hooks/' }], /entry 1 \(app\): notification_endpoints must be a list of URL prefixes/],
    ['a notification endpoint with a query', [{ ...APP, notification_endpoints: ['https://app.example.se/hooks/', 'https://app.example.se/h?x=1'] }], /entry 1 \(app\): notification_endpoints entry 2 must not hold a query/],
    ['a notification endpoint in plain http', [{ ...APP, notification_endpoints: ['http://app.example.se/hooks/'] }], /entry 1 \(app\): notification_endpoints entry 1 must be https/],
    ['a notification endpoint at the metadata service', [{ ...APP, notification_endpoints: ['https://169.254.169.254/'] }], /entry 1 \(app\): notification_endpoints entry 1 names a cloud-metadata address/],
  ])('refuses a clients file with %s, naming the entry', (_name, clients, message) => {
    expect(refusal({ ...GOOD, SIGN_IN_CLIENTS_FILE: file(`clients-${Math.random()}.json`, JSON.stringify(clients)) })).toMatch(message);
  });

  it('issue 54: keeps a client\'s notification_endpoints; a loopback one only with SUBSCRIPTION_ALLOW_LOOPBACK=true', () => {
    const prefixes = ['https://app.example.se/fhir-notifications/', 'http://127.0.0.1/'];
    const clients = file('notifying.json', JSON.stringify([{ ...APP, notification_endpoints: prefixes }, { ...APP, client_id: 'quiet' }]));
    expect(refusal({ ...GOOD, SIGN_IN_CLIENTS_FILE: clients }))
      .toMatch(/^SIGN_IN_CLIENTS_FILE client app: notification_endpoints entry 2 names a loopback address.*SUBSCRIPTION_ALLOW_LOOPBACK=true/);
    const config = loadConfig({ ...GOOD, SIGN_IN_CLIENTS_FILE: clients, SUBSCRIPTION_ALLOW_LOOPBACK: 'true' });
    expect(config.signIn?.clients.map((c) => [c.metadata.client_id, c.notificationEndpoints])).toEqual([['app', prefixes], ['quiet', undefined]]);
  });

  it('issue 52 review item 5: takes SMART\'s forms of the API\'s write scopes, patient/ ones reaching the launch patient only', () => {
    const writes = 'patient/Appointment.write user/Appointment.write patient/PaymentNotice.write patient/Payment.write user/Payment-write';
    const config = loadConfig({ ...GOOD, SIGN_IN_CLIENTS_FILE: file('writes.json', JSON.stringify([{ ...APP, scope: `openid launch/patient ${writes}` }])) });
    const [client] = config.signIn?.clients ?? [];
    for (const scope of writes.split(' ')) expect([scope, client?.allows?.(scope)]).toEqual([scope, true]);
    expect(client?.allows?.('patient/Appointment-write')).toBe(false);
  });

  it('refuses unusable key files and login issuers, naming the setting', () => {
    expect(refusal({ ...GOOD, SIGN_IN_KEYS_FILE: file('public.json', JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', kid: 'k' }] })) }))
      .toMatch(/SIGN_IN_KEYS_FILE key 1 must be a private RSA key/);
    expect(refusal({ ...GOOD, SIGN_IN_KEYS_FILE: file('empty.json', '{"keys":[]}') })).toMatch(/SIGN_IN_KEYS_FILE must be a private JWKS with at least one key/);
    expect(refusal({ ...GOOD, SIGN_IN_KEYS_FILE: path.join(dir, 'missing.json') })).toMatch(/SIGN_IN_KEYS_FILE cannot be read .*ENOENT/);
    expect(refusal({ ...GOOD, SIGN_IN_COOKIE_KEYS_FILE: file('short', 'short\n') })).toMatch(/SIGN_IN_COOKIE_KEYS_FILE: every key must be 32\+ characters/);
    expect(refusal({ ...GOOD, SIGN_IN_LOGIN_ISSUER: 'http://login.region.example.se' })).toMatch(/SIGN_IN_LOGIN_ISSUER must be https \(plain http only on a loopback address\)/);
    // Issue 52 item 1: the sign-in's cookies are __Host- only over https; plain http only on loopback (tests, the demo).
    expect(refusal({ ...GOOD, PUBLIC_BASE_URL: 'http://api.region.example.se/patient' }))
      .toMatch(/SIGN_IN_LOGIN_ISSUER is set, so PUBLIC_BASE_URL must be https \(plain http only on a loopback address\)/);
    expect(loadConfig({ ...GOOD, PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }).signIn?.issuer).toBe('http://127.0.0.1:8080/auth');
    expect(refusal({ ...GOOD, AUTH_ISSUER: 'https://login.region.example.se' })).toMatch(/AUTH_ISSUER must be the service's own issuer https:\/\/api.region.example.se\/patient\/auth, or unset/);
  });
});
