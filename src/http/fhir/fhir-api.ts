/**
 * What the FHIR API (docs/fhir-api.md) is given at start-up, and which reads serve each resource
 * type, derived from the reads' FHIR forms (src/reads/<read>/as-fhir.ts): a read with a form is
 * served on /fhir with nothing more to register.
 */
import { OPERATIONS, READ_NAMES, type ReadName } from '../../domain/operations/table.js';
import { declaringRead } from '../../domain/fhir/resource-types.js';
import { FHIR_TYPES, REFERENCED_TYPES, type FhirType } from '../../domain/fhir/search-parameters.js';
import { ScopeGrants } from '../../domain/access/scope-grants.js';
import type { FhirIds } from '../../ports/fhir-ids.port.js';
import type { FhirForm } from '../../reads/as-fhir.js';

/** Every read's FHIR form, where it has one. */
export type FhirForms = { readonly [R in ReadName]?: FhirForm<R> };

const SCOPE_GRANTS = new WeakMap<FhirForms, ScopeGrants>();

/**
 * What a scope grants on both doors (domain/access/scope-grants.ts), from the types each read's form
 * writes; the access log's records are AuditEvents. Made once for each set of forms.
 */
export function scopeGrantsOf(forms: FhirForms): ScopeGrants {
  let made = SCOPE_GRANTS.get(forms);
  if (made === undefined) {
    made = new ScopeGrants((operation) => (operation === 'getAccessLog' ? ['AuditEvent']
      : (forms[operation as ReadName] as FhirForm<ReadName> | undefined)?.types ?? []));
    SCOPE_GRANTS.set(forms, made);
  }
  return made;
}

export interface SmartEndpoints {
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  /** Whether the issuer hands out refresh tokens (`permission-offline`). */
  offlineAccess?: boolean;
  /** The grant types the issuer takes, from its discovery (or the service's own server); unknown when the endpoints are set by hand. */
  grantTypes?: string[];
  /** RFC 7009 revocation, from the issuer's discovery. */
  revocationEndpoint?: string;
  /** RFC 7662 introspection, from the issuer's discovery. */
  introspectionEndpoint?: string;
  /** How clients authenticate at the token endpoint, from the issuer's discovery: the `client-*` capabilities follow from it. */
  authMethods?: string[];
  /** The issuer and its keys, when it speaks OpenID Connect (`sso-openid-connect`). */
  issuer?: string;
  jwksUri?: string;
}

export interface FhirApi {
  forms: FhirForms;
  ids: FhirIds;
  /** PUBLIC_BASE_URL with BASE_PATH, no trailing slash: `fullUrl`s, links and discovery are absolute from it. */
  publicBaseUrl: string;
  smart: SmartEndpoints;
  /** FHIR_ID_ROOT: the root of record ids made from logical ids. */
  idRoot: string;
  videoActionIdSystem?: string;
  /** READS_OFF: a type only these reads serve is left out of the CapabilityStatement, and answered 501 as the COS door answers them. */
  readsOff?: ReadonlySet<ReadName>;
}

/** Where the API lives below the base path: FHIR's own and the vendor's alias. */
export const FHIR_PREFIXES = ['/fhir', '/api/open/fhir'] as const;

export interface TypeServing {
  type: FhirType;
  /** The reads whose records hold this type as a match, in the operation table's order. */
  reads: ReadName[];
  /** Served only as what a record references (Organization …): read and `_id` search within the patient's records. */
  referenced: boolean;
  /** The reads are alternatives, in order: the first whose records hold one of this type answers it. */
  alternatives?: true;
}

/**
 * The reads whose records may reference `type`: a shared party (Organization …) any read's; a type a
 * read's folder declares beside its own (a Medication, the product its prescriptions name) that read's
 * alone, so a scope or a proxy's grant that reaches no medication record reaches no Medication either.
 */
function referencingReads(type: FhirType, withForm: readonly ReadName[]): ReadName[] {
  const declaring = declaringRead(type);
  return declaring === undefined ? [...withForm] : withForm.filter((read) => read === declaring);
}

/**
 * The types served, each with its reads. A Patient is answered from one read: the newest layout the
 * EHR holds the person in (v2, else the older layout), so two layouts of one person never give two
 * Patients, and a person the EHR has in the older layout only still has one (issue 45 item 11).
 */
export function servedTypes(forms: FhirForms): TypeServing[] {
  const withForm = READ_NAMES.filter((r) => forms[r] !== undefined);
  const out: TypeServing[] = [];
  for (const type of FHIR_TYPES) {
    if (type === 'AuditEvent') {
      out.push({ type, reads: [], referenced: false });
      continue;
    }
    const reads = withForm.filter((r) => (forms[r] as FhirForm<ReadName>).types.includes(type));
    if (type === 'Patient') out.push({ type, reads: reads.reverse(), referenced: false, alternatives: true });
    else if (reads.length > 0) out.push({ type, reads, referenced: false });
    else if (REFERENCED_TYPES.has(type)) out.push({ type, reads: referencingReads(type, withForm), referenced: true });
  }
  return out;
}

/**
 * The types the CapabilityStatement lists: not one whose every read the region turned off (READS_OFF),
 * a referenced type too (a Medication, when the prescriptions are off). Its routes stay, so a client
 * that asks anyway learns why (501, OperationOutcome `not-supported`).
 */
export const listedTypes = (served: readonly TypeServing[], off: ReadonlySet<ReadName> = new Set()): TypeServing[] =>
  served.filter((s) => s.reads.length === 0 || s.reads.some((read) => !off.has(read)));

/** The API's scope of each read (`user/LabResult-read`), which on /fhir grants its types too. */
export const cosScopeOf = (read: ReadName): string => OPERATIONS[read].scope.name;
