/**
 * Settings of the service's own authorization server (docs/sign-in.md): on when
 * SIGN_IN_LOGIN_ISSUER names the region's OpenID Provider. A setting that cannot work stops the start,
 * named: no PUBLIC_BASE_URL (the issuer is `{PUBLIC_BASE_URL}/auth`), no DATABASE_URL (state shared by
 * every instance), no SIGN_IN_LOGIN_ACR (any login strength would do), a clients file entry without
 * redirect URIs, no signing key, no cookie key.
 */
import { readFileSync } from 'node:fs';
import type { JWK } from 'jose';
import type { AuthClient } from '../adapters/auth-server/clients.js';
import { parseCookieKeys, parseSigningKeys } from '../adapters/auth-server/key-files.js';
import { SIGN_IN_SCHEMA } from '../adapters/auth-server/postgres-models.js';
import { parseClientsFile } from '../adapters/auth-server/region-clients.js';
import { DEFAULT_LOGIN_SCOPES, PERSONAL_IDENTITY_NUMBER_CLAIM } from '../adapters/auth-server/region-login.js';

/** The Swedish assurance level 3 (BankID, Freja eID+): what a health record needs, shown in the refusal of a start without SIGN_IN_LOGIN_ACR. */
const LOA3 = 'http://id.elegnamnden.se/loa/1.0/loa3';
import { isLoopbackHost } from './transport-settings.js';

export interface SignInSettings {
  /** `{PUBLIC_BASE_URL}/auth`: the service's own issuer, which AUTH_ISSUER is (or is filled in as). */
  issuer: string;
  /** SIGN_IN_SCHEMA: the schema of its state in DATABASE_URL, `sign_in` unless set (as `npm run migrate -- --sign-in-schema`). */
  schema: string;
  login: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    clientKey?: JWK;
    scopes: string;
    acr: string[];
    identityClaim: string;
  };
  clients: AuthClient[];
  signingKeys: JWK[];
  cookieKeys: string[];
}

type Env = Readonly<Record<string, string | undefined>>;
type Fail = (message: string) => Error;

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function required(env: Env, name: string, why: string, fail: Fail): string {
  const value = text(env, name);
  if (value === undefined) throw fail(`SIGN_IN_LOGIN_ISSUER is set, so ${name} is required: ${why}`);
  return value;
}

/** A file's text, or a refusal naming the setting; any error the parser raises is named by it too. */
function fromFile<T>(env: Env, name: string, why: string, fail: Fail, parse: (text: string) => T): T {
  const file = required(env, name, why, fail);
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (err) {
    throw fail(`${name} cannot be read (${file}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return parse(content);
  } catch (err) {
    throw fail((err as Error).message);
  }
}

function loginIssuer(raw: string, fail: Fail): string {
  if (!URL.canParse(raw)) throw fail('SIGN_IN_LOGIN_ISSUER must be the region\'s OpenID Provider issuer URL, e.g. https://login.region.example.se/realms/patients');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, '')))) {
    throw fail('SIGN_IN_LOGIN_ISSUER must be https (plain http only on a loopback address)');
  }
  return raw;
}

export function readSignInSettings(env: Env, context: { publicBaseUrl: string | undefined; databaseUrl: string | undefined; authIssuer: string | undefined }, fail: Fail): SignInSettings | undefined {
  const raw = text(env, 'SIGN_IN_LOGIN_ISSUER');
  if (raw === undefined) return undefined;
  const loginAt = loginIssuer(raw, fail);
  if (context.publicBaseUrl === undefined) throw fail('SIGN_IN_LOGIN_ISSUER is set, so PUBLIC_BASE_URL is required: the service\'s own issuer is {PUBLIC_BASE_URL}/auth, the same on every instance');
  // The sign-in's cookies are __Host- (no other site can plant them) only over https: plain http only on loopback (tests, the demo).
  const base = new URL(context.publicBaseUrl);
  if (base.protocol !== 'https:' && !isLoopbackHost(base.hostname.replace(/^\[|\]$/g, ''))) {
    throw fail('SIGN_IN_LOGIN_ISSUER is set, so PUBLIC_BASE_URL must be https (plain http only on a loopback address): the sign-in\'s cookies are kept from other sites only over https');
  }
  const issuer = `${context.publicBaseUrl}/auth`;
  if (context.authIssuer !== undefined && context.authIssuer !== issuer) {
    throw fail(`SIGN_IN_LOGIN_ISSUER is set, so AUTH_ISSUER must be the service's own issuer ${issuer}, or unset (it is filled in)`);
  }
  if (context.databaseUrl === undefined) throw fail('SIGN_IN_LOGIN_ISSUER is set, so DATABASE_URL is required: sign-ins, grants and refresh tokens are kept there, shared by every instance');
  const secretFile = text(env, 'SIGN_IN_LOGIN_CLIENT_SECRET_FILE');
  const keyFile = text(env, 'SIGN_IN_LOGIN_CLIENT_KEY_FILE');
  if ((secretFile === undefined) === (keyFile === undefined)) {
    throw fail('SIGN_IN_LOGIN_ISSUER is set, so exactly one of SIGN_IN_LOGIN_CLIENT_SECRET_FILE (client_secret_basic) and SIGN_IN_LOGIN_CLIENT_KEY_FILE (private_key_jwt) is required');
  }
  const clientSecret = secretFile === undefined ? undefined
    : fromFile(env, 'SIGN_IN_LOGIN_CLIENT_SECRET_FILE', '', fail, (t) => {
      if (t.trim() === '') throw new Error('SIGN_IN_LOGIN_CLIENT_SECRET_FILE is empty');
      return t.trim();
    });
  const clientKey = keyFile === undefined ? undefined
    : fromFile(env, 'SIGN_IN_LOGIN_CLIENT_KEY_FILE', '', fail, (t) => JSON.parse(t) as JWK);
  // Without it any login the region offers would do, however weak: never assumed, never silently.
  const acr = required(env, 'SIGN_IN_LOGIN_ACR', `the acr values a login must reach, e.g. SIGN_IN_LOGIN_ACR=${LOA3} (LoA 3, as BankID)`, fail)
    .split(/\s+/).filter((a) => a !== '');
  const schema = text(env, 'SIGN_IN_SCHEMA') ?? SIGN_IN_SCHEMA;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw fail('SIGN_IN_SCHEMA must be a lower-case SQL name such as sign_in');
  return {
    issuer,
    schema,
    login: {
      issuer: loginAt,
      clientId: required(env, 'SIGN_IN_LOGIN_CLIENT_ID', 'the client id the region registered the service under', fail),
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(clientKey === undefined ? {} : { clientKey }),
      scopes: text(env, 'SIGN_IN_LOGIN_SCOPES') ?? DEFAULT_LOGIN_SCOPES,
      acr,
      identityClaim: text(env, 'SIGN_IN_LOGIN_IDENTITY_CLAIM') ?? PERSONAL_IDENTITY_NUMBER_CLAIM,
    },
    clients: fromFile(env, 'SIGN_IN_CLIENTS_FILE', 'the apps the region registers (docs/sign-in.md#registering-an-app)', fail,
      (t) => parseClientsFile(t, 'SIGN_IN_CLIENTS_FILE')),
    signingKeys: fromFile(env, 'SIGN_IN_KEYS_FILE', 'the private JWKS that signs tokens, the first key signing', fail,
      (t) => parseSigningKeys(t, 'SIGN_IN_KEYS_FILE')),
    cookieKeys: fromFile(env, 'SIGN_IN_COOKIE_KEYS_FILE', 'the keys of the sign-in cookies, one a line', fail,
      (t) => parseCookieKeys(t, 'SIGN_IN_COOKIE_KEYS_FILE')),
  };
}
