/**
 * The settings of the `fhir-r4` adapter (docs/upstream-fhir.md#settings) and of the delegation
 * registry's source (DELEGATION_REGISTRY). Read only when a FHIR server is used at all; fails closed
 * with the setting's name, the form expected and an example.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { FHIR_MAX_PAGE_BYTES } from '../adapters/ehr-fhir/adapter/options.js';
import { parseDelegationTag, type DelegationTag } from '../adapters/ehr-fhir/relationships.js';
import { RESOURCE_SCHEMAS } from '../adapters/ehr-fhir/schemas/index.js';
import { refusePlainRemote } from './transport-settings.js';

export type FhirAuth =
  | { kind: 'none' }
  | { kind: 'smart-backend'; tokenUrl: string; clientId: string; keyFile: string; scope: string };

export interface FhirSettings {
  auth: FhirAuth;
  /** FHIR_PAGE_SIZE: `_count` of every search. */
  pageSize: number;
  /** FHIR_MAX_PAGES: pages per search, the first included. */
  maxPages: number;
  /** FHIR_MAX_PAGE_BYTES: a larger answer body is refused while it streams. */
  maxPageBytes: number;
  /** FHIR_ID_ROOT: the OID root of the record ids made from logical ids. */
  idRoot: string;
  videoActionIdSystem: string | undefined;
  delegationTag: DelegationTag;
  paymentIdSystem: string;
}

export const EHR_ADAPTERS = ['embedded', 'xml-http', 'fhir-r4'] as const;
export type EhrAdapterKind = (typeof EHR_ADAPTERS)[number];

export interface RegistrySettings {
  /** DELEGATION_REGISTRY: the adapter kind that answers the registry; EHR_ADAPTER's by default. */
  delegationRegistry: EhrAdapterKind;
  /** DELEGATION_REGISTRY_URL: where a remote registry of another kind than the EHR lives. */
  delegationRegistryUrl: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_TAG = 'http://example.org/fhir/pdas/CodeSystem/registry|delegation';
/** FHIR_PAYMENT_ID_SYSTEM's default. */
export const DEFAULT_PAYMENT_SYSTEM = 'http://example.org/fhir/pdas/identifier/appointment-payment';
const OID = /^[0-2](\.(0|[1-9]\d*))+$/;
/**
 * The types the adapter reads (docs/upstream-fhir.md#0-at-a-glance): every type it has a schema for
 * (the reads, what they include and the registry), and the PaymentNotices a payment looks for first.
 */
const READ_TYPES = [...Object.keys(RESOURCE_SCHEMAS), 'PaymentNotice'];
export const DEFAULT_FHIR_SCOPE = [...READ_TYPES.map((t) => `system/${t}.read`), 'system/Appointment.write', 'system/PaymentNotice.write'].join(' ');

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function integer(env: Env, name: string, fallback: number, max: number, fail: (m: string) => Error, min = 1): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw fail(`${name} must be an integer from ${min} to ${max}, e.g. ${fallback}`);
  return Number(raw);
}

/** FHIR_MAX_PAGE_BYTES's bounds: room for a CapabilityStatement, and no more than every EHR answer's 10 MiB cap. */
const SMALLEST_PAGE_CAP = 64 * 1024;
const EHR_ANSWER_CAP = 10 * 1024 * 1024;

function absoluteUrl(env: Env, name: string, fail: (m: string) => Error): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined && !URL.canParse(raw)) throw fail(`${name} must be an absolute URL, e.g. https://fhir.region.example.se/fhir/R4`);
  return raw;
}

function smartBackend(env: Env, fail: (m: string) => Error): FhirAuth {
  const need = (name: string): string => {
    const v = text(env, name);
    if (v === undefined) throw fail(`FHIR_AUTH=smart-backend needs ${name}`);
    return v;
  };
  const tokenUrl = need('FHIR_TOKEN_URL');
  if (!URL.canParse(tokenUrl)) throw fail('FHIR_TOKEN_URL must be an absolute URL, e.g. https://auth.region.example.se/token');
  refusePlainRemote('FHIR_TOKEN_URL', new URL(tokenUrl), fail);
  const keyFile = path.resolve(need('FHIR_CLIENT_KEY_FILE'));
  try {
    accessSync(keyFile, constants.R_OK);
  } catch {
    throw fail(`FHIR_CLIENT_KEY_FILE cannot be read: ${keyFile}`);
  }
  return { kind: 'smart-backend', tokenUrl, clientId: need('FHIR_CLIENT_ID'), keyFile, scope: text(env, 'FHIR_SCOPE') ?? DEFAULT_FHIR_SCOPE };
}

/** The FHIR settings, when EHR_ADAPTER or DELEGATION_REGISTRY is `fhir-r4`; undefined otherwise. */
export function readFhirSettings(env: Env, used: boolean, fail: (message: string) => Error): FhirSettings | undefined {
  if (!used) return undefined;
  const authKind = text(env, 'FHIR_AUTH') ?? 'none';
  if (authKind !== 'none' && authKind !== 'smart-backend') throw fail('FHIR_AUTH must be none or smart-backend');
  const idRoot = text(env, 'FHIR_ID_ROOT');
  if (idRoot === undefined || !OID.test(idRoot)) throw fail('FHIR_ID_ROOT must be set to an OID, e.g. 1.2.752.99999.1.1 (the root of record ids made from FHIR ids)');
  let delegationTag: DelegationTag;
  try {
    delegationTag = parseDelegationTag(text(env, 'FHIR_DELEGATION_TAG') ?? DEFAULT_TAG);
  } catch {
    throw fail(`FHIR_DELEGATION_TAG must be system|code, e.g. ${DEFAULT_TAG}`);
  }
  return {
    auth: authKind === 'none' ? { kind: 'none' } : smartBackend(env, fail),
    pageSize: integer(env, 'FHIR_PAGE_SIZE', 100, 1000, fail),
    maxPages: integer(env, 'FHIR_MAX_PAGES', 20, 1000, fail),
    maxPageBytes: integer(env, 'FHIR_MAX_PAGE_BYTES', FHIR_MAX_PAGE_BYTES, EHR_ANSWER_CAP, fail, SMALLEST_PAGE_CAP),
    idRoot,
    videoActionIdSystem: absoluteUrl(env, 'FHIR_VIDEO_ACTION_ID_SYSTEM', fail),
    delegationTag,
    paymentIdSystem: absoluteUrl(env, 'FHIR_PAYMENT_ID_SYSTEM', fail) ?? DEFAULT_PAYMENT_SYSTEM,
  };
}

const isAdapterKind = (value: string): value is EhrAdapterKind => (EHR_ADAPTERS as readonly string[]).includes(value);

export function readEhrAdapter(env: Env, fail: (message: string) => Error): EhrAdapterKind {
  const kind = text(env, 'EHR_ADAPTER') ?? 'embedded';
  if (!isAdapterKind(kind)) throw fail(`EHR_ADAPTER must be one of ${EHR_ADAPTERS.join(', ')}`);
  return kind;
}

/**
 * DELEGATION_REGISTRY (the EHR adapter's own by default) and, for a remote registry of another kind
 * than the EHR, DELEGATION_REGISTRY_URL: a region may keep its registry apart from its records.
 */
export function readRegistrySettings(env: Env, ehrAdapter: EhrAdapterKind, fail: (message: string) => Error): RegistrySettings {
  const kind = text(env, 'DELEGATION_REGISTRY') ?? ehrAdapter;
  if (!isAdapterKind(kind)) throw fail(`DELEGATION_REGISTRY must be one of ${EHR_ADAPTERS.join(', ')} (default: EHR_ADAPTER's)`);
  const registryUrl = absoluteUrl(env, 'DELEGATION_REGISTRY_URL', fail);
  if (registryUrl !== undefined) refusePlainRemote('DELEGATION_REGISTRY_URL', new URL(registryUrl), fail);
  if (kind !== ehrAdapter && kind !== 'embedded' && registryUrl === undefined) {
    throw fail(`DELEGATION_REGISTRY=${kind} beside EHR_ADAPTER=${ehrAdapter} needs DELEGATION_REGISTRY_URL, the registry's base URL`);
  }
  if (kind === 'embedded' && registryUrl !== undefined) throw fail('DELEGATION_REGISTRY_URL is for a remote registry (xml-http or fhir-r4), not embedded');
  return { delegationRegistry: kind, delegationRegistryUrl: registryUrl };
}
