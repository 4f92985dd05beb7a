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
import type { FhirForm } from '../reads/as-fhir.js';
import { isServed } from '../reads/read-sources.js';
import { READ_SOURCES } from '../reads/source-table.js';
import type { Config } from './config.js';

export const FHIR_ID_SECRET_FILE = 'fhir-id-secret';
const DISCOVERY_TIMEOUT_MS = 5000;

/** Every read's FHIR form, where its folder declares one. */
export function fhirForms(): FhirForms {
  const forms: Partial<Record<ReadName, FhirForm<ReadName>>> = {};
  for (const read of READ_NAMES) {
    const form = READ_SOURCES[read].asFhir as FhirForm<ReadName> | string;
    if (typeof form !== 'string' && isServed(form)) forms[read] = form;
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
    const doc = await response.json() as { authorization_endpoint?: unknown; token_endpoint?: unknown; grant_types_supported?: unknown };
    const text = (v: unknown): string | undefined => (typeof v === 'string' && URL.canParse(v) ? v : undefined);
    return definedOnly({
      authorizationEndpoint: set.authorizationEndpoint ?? text(doc.authorization_endpoint),
      tokenEndpoint: set.tokenEndpoint ?? text(doc.token_endpoint),
      offlineAccess: Array.isArray(doc.grant_types_supported) && doc.grant_types_supported.includes('refresh_token'),
    });
  } catch (err) {
    logger.warn({ err }, 'the issuer\'s OpenID discovery could not be read: SMART discovery names no endpoints (set SMART_AUTHORIZATION_ENDPOINT and SMART_TOKEN_ENDPOINT)');
    return definedOnly(set);
  }
}

const definedOnly = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The FHIR API, or undefined with FHIR_API=off. `port` is the one the service listens on. */
export async function fhirApiOf(config: Config, port: number, issuer: string | undefined, logger: Logger): Promise<FhirApi | undefined> {
  if (!config.fhirApi) return undefined;
  return {
    forms: fhirForms(),
    ids: new KeyedFhirIds(await keptSecret(config.fhirIdSecret, config.dataDir, FHIR_ID_SECRET_FILE)),
    publicBaseUrl: publicBaseUrlOf(config, port),
    smart: await smartEndpoints(config, issuer, logger),
    idRoot: config.fhir?.idRoot ?? config.fhirIdRoot,
    ...(config.fhir?.videoActionIdSystem === undefined ? {} : { videoActionIdSystem: config.fhir.videoActionIdSystem }),
  };
}
