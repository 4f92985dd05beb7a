/**
 * Settings of the service's own FHIR R4 API (docs/fhir-api.md#settings): whether it is served, the
 * address clients reach the service at (never taken from Host or X-Forwarded-*), the key of its
 * Patient ids, and the SMART endpoints discovery names.
 */
import { readFileSync } from 'node:fs';

export interface FhirApiSettings {
  /** FHIR_API: `on` (the default) or `off`, which removes every /fhir route. */
  fhirApi: boolean;
  /** PUBLIC_BASE_URL without a trailing slash; undefined: the listening address (http(s)://HOST:PORT + BASE_PATH). */
  publicBaseUrl: string | undefined;
  /** FHIR_ID_SECRET (or _FILE); undefined: a random secret kept in DATA_DIR. */
  fhirIdSecret: string | undefined;
  /** SMART_AUTHORIZATION_ENDPOINT / SMART_TOKEN_ENDPOINT; undefined: from AUTH_ISSUER's OpenID discovery. */
  smartAuthorizationEndpoint: string | undefined;
  smartTokenEndpoint: string | undefined;
  /** FHIR_ID_ROOT where set: record ids with this root were made from FHIR logical ids, and go back to them. */
  fhirIdRoot: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The root of record ids made from logical ids when FHIR_ID_ROOT is not set (the demo's, docs/upstream-fhir.md). */
export const DEFAULT_FHIR_ID_ROOT = '1.2.752.99999.1.1';
const MIN_SECRET = 32;

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function absolute(env: Env, name: string, fail: (message: string) => Error): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw fail(`${name} must be an absolute http(s) URL, e.g. https://api.region.example.se/patient`);
  return raw.replace(/\/+$/, '');
}

export function readFhirApiSettings(env: Env, fail: (message: string) => Error): FhirApiSettings {
  const api = text(env, 'FHIR_API') ?? 'on';
  if (api !== 'on' && api !== 'off') throw fail('FHIR_API must be on or off');
  const file = text(env, 'FHIR_ID_SECRET_FILE');
  const secret = text(env, 'FHIR_ID_SECRET') ?? (file === undefined ? undefined : readFileSync(file, 'utf8').trim());
  if (secret !== undefined && secret.length < MIN_SECRET) throw fail(`FHIR_ID_SECRET must be at least ${MIN_SECRET} characters`);
  const publicBaseUrl = absolute(env, 'PUBLIC_BASE_URL', fail);
  if (publicBaseUrl !== undefined && (new URL(publicBaseUrl).search !== '' || new URL(publicBaseUrl).hash !== '')) {
    throw fail('PUBLIC_BASE_URL must have no query or fragment, e.g. https://api.region.example.se/patient');
  }
  return {
    fhirApi: api === 'on',
    publicBaseUrl,
    fhirIdSecret: secret,
    smartAuthorizationEndpoint: absolute(env, 'SMART_AUTHORIZATION_ENDPOINT', fail),
    smartTokenEndpoint: absolute(env, 'SMART_TOKEN_ENDPOINT', fail),
    fhirIdRoot: text(env, 'FHIR_ID_ROOT') ?? DEFAULT_FHIR_ID_ROOT,
  };
}
