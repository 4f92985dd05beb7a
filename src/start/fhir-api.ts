/**
 * The FHIR API's pieces (docs/fhir-api.md), made at start-up: every read's FHIR form from its
 * folder, the keyed ids (FHIR_ID_SECRET, else a secret kept in DATA_DIR), the public address, and
 * the SMART endpoints (set, or read once from the issuer's OpenID discovery).
 */
import type { Logger } from 'pino';
import { KeyedFhirIds } from '../adapters/fhir-ids/keyed-fhir-ids.js';
import { keptSecret } from '../adapters/page-cursor/cursor-secret.js';
import { READ_NAMES, type ReadName } from '../domain/operations/table.js';
import type { FhirApi, FhirForms, SmartEndpoints } from '../http/fhir/fhir-api.js';
import type { FhirIds } from '../ports/fhir-ids.port.js';
import type { FhirForm } from '../reads/as-fhir.js';
import { servedForm } from '../reads/read-sources.js';
import { READ_SOURCES } from '../reads/source-table.js';
import type { Config } from './config.js';

export const FHIR_ID_SECRET_FILE = 'fhir-id-secret';
const DISCOVERY_TIMEOUT_MS = 5000;

/** Every read's FHIR form, where its folder declares one. */
export function fhirForms(): FhirForms {
  const forms: Partial<Record<ReadName, FhirForm<ReadName>>> = {};
  for (const read of READ_NAMES) {
    const form = servedForm(READ_SOURCES[read]);
    if (form !== undefined) forms[read] = form;
  }
  return forms as FhirForms;
}

/** The address clients reach the service at: PUBLIC_BASE_URL, else the listening address. */
export function publicBaseUrlOf(config: Config, port: number): string {
  if (config.publicBaseUrl !== undefined) return config.publicBaseUrl;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.tls === undefined ? 'http' : 'https'}://${host}:${port}${config.basePath}`;
}

/** SMART's two endpoints: as set, else the issuer's OpenID discovery's; left out (and logged) when it cannot be read. */
export async function smartEndpoints(config: Config, issuer: string | undefined, logger: Logger): Promise<SmartEndpoints> {
  const set = { authorizationEndpoint: config.smartAuthorizationEndpoint, tokenEndpoint: config.smartTokenEndpoint };
  if ((set.authorizationEndpoint !== undefined && set.tokenEndpoint !== undefined) || issuer === undefined) return definedOnly(set);
  try {
    const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    const doc = await response.json() as Record<string, unknown>;
    const text = (v: unknown): string | undefined => (typeof v === 'string' && URL.canParse(v) ? v : undefined);
    const openid = Array.isArray(doc.scopes_supported) && doc.scopes_supported.includes('openid');
    return definedOnly({
      authorizationEndpoint: set.authorizationEndpoint ?? text(doc.authorization_endpoint),
      tokenEndpoint: set.tokenEndpoint ?? text(doc.token_endpoint),
      offlineAccess: Array.isArray(doc.grant_types_supported) && doc.grant_types_supported.includes('refresh_token'),
      grantTypes: Array.isArray(doc.grant_types_supported) ? doc.grant_types_supported.filter((g): g is string => typeof g === 'string') : undefined,
      revocationEndpoint: text(doc.revocation_endpoint),
      introspectionEndpoint: text(doc.introspection_endpoint),
      authMethods: Array.isArray(doc.token_endpoint_auth_methods_supported)
        ? doc.token_endpoint_auth_methods_supported.filter((m): m is string => typeof m === 'string') : undefined,
      ...(openid ? { issuer: text(doc.issuer), jwksUri: text(doc.jwks_uri) } : {}),
    });
  } catch (err) {
    logger.warn({ err }, 'the issuer\'s OpenID discovery could not be read: SMART discovery names no endpoints (set SMART_AUTHORIZATION_ENDPOINT and SMART_TOKEN_ENDPOINT)');
    return definedOnly(set);
  }
}

const definedOnly = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The FHIR API's ids (FHIR_ID_SECRET, else the secret kept in DATA_DIR), or undefined with FHIR_API=off. */
export async function fhirIdsOf(config: Config): Promise<FhirIds | undefined> {
  return config.fhirApi ? new KeyedFhirIds(await keptSecret(config.fhirIdSecret, config.dataDir, FHIR_ID_SECRET_FILE)) : undefined;
}

/** The FHIR API, or undefined without its ids (FHIR_API=off). `port` is the one the service listens on. */
export async function fhirApiOf(config: Config, ids: FhirIds | undefined, port: number, issuer: string | undefined, logger: Logger, own?: SmartEndpoints): Promise<FhirApi | undefined> {
  if (ids === undefined) return undefined;
  return {
    forms: fhirForms(),
    ids,
    publicBaseUrl: publicBaseUrlOf(config, port),
    // The service's own authorization server is known, never fetched from the service's own address.
    smart: own ?? await smartEndpoints(config, issuer, logger),
    idRoot: config.fhir?.idRoot ?? config.fhirIdRoot,
    ...(config.fhir?.videoActionIdSystem === undefined ? {} : { videoActionIdSystem: config.fhir.videoActionIdSystem }),
    readsOff: config.readsOff,
  };
}
