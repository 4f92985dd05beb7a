/**
 * The CapabilityStatement check (docs/upstream-fhir.md#transport): the server must speak FHIR 4.0,
 * and know every search parameter a read sends, per type (or for every type, such as `_id` and
 * `_tag`). A server that does not know a parameter may answer nothing (Medplum does), and data would
 * go missing without an error. A parameter every read needs (the patient lookup, the registry, what
 * references name) missing makes `ping` not ready; one that only some reads send makes those reads
 * unavailable (issue 57 item 4: answered 501, named by readiness) and the others serve. Either way the
 * type and the parameter are named. Includes are not checked: what is not included is fetched. What
 * the writes need (interactions, versioning, conditional create) is read too, for them to decide on.
 */
import type { ReadName } from '../../../domain/operations/table.js';
import { checked } from '../schemas/index.js';
import { CapabilityStatementSchema } from '../schemas/envelopes.js';
import type { FhirClient } from './fhir-client.js';
import { patientLookupParams } from './patient-lookup.js';
import { READ_PLANS } from './read-plans.js';
import { parameterName, type SearchParams } from './search-url.js';

export interface TypeCapabilities {
  searchParams: ReadonlySet<string>;
  interactions: ReadonlySet<string>;
  versioning?: string;
  conditionalCreate?: boolean;
}

export interface ServerCapabilities {
  /** The statement's fhirVersion when it is a version number (`4.0.1`, `5.0.0-ballot`), else NOT_A_VERSION: it is logged and shown in the kit's table. */
  fhirVersion: string;
  types: ReadonlyMap<string, TypeCapabilities>;
}

export interface NeededSearch {
  type: string;
  params: readonly string[];
  /** The read that sends it; none for what every read needs. */
  read?: ReadName;
}

export interface CapabilityCheck {
  /** FHIR 4.0, and every search parameter that is not one read's alone is listed. */
  ready: boolean;
  /** The FHIR version is not 4.0.x. */
  wrongVersion: boolean;
  /** Every search parameter not listed, whoever sends it. */
  missing: { type: string; param: string }[];
  /** The reads a parameter they send is missing for: they cannot be served, the others can. */
  unavailable: ReadonlySet<ReadName>;
  capabilities: ServerCapabilities;
}

/** What the references of the reads may name, read by `_id` when not included. */
const FETCHED_TYPES = ['Patient', 'Organization', 'Practitioner', 'PractitionerRole', 'Location', 'HealthcareService', 'Medication', 'Encounter', 'Observation'];
const NOT_PARAMETERS: ReadonlySet<string> = new Set(['_include', '_revinclude', '_count', '_sort', '_total', '_elements', '_summary']);
const A_RANGE = { from: '20000101000000', to: '20000101000000' };

const namesOf = (params: SearchParams): string[] => [...new Set(params.map(([name]) => parameterName(name)).filter((n) => !NOT_PARAMETERS.has(n)))];

/**
 * What a FHIR server serves for this service: the patient's records, the delegation registry, or
 * both (the default). The registry's search is asked for only of the server that is the registry:
 * a server that serves the records alone (this service's own FHIR API, say) need not know it.
 */
export type FhirRole = 'records' | 'registry' | 'both';

/** The searches `reads` send (the patient lookup, and the registry's where the server is the registry), and `_id` for what they fetch. */
export function neededSearches(reads: readonly ReadName[], role: FhirRole = 'both'): NeededSearch[] {
  const registry: NeededSearch = { type: 'RelatedPerson', params: ['identifier', '_tag'] };
  if (role === 'registry') return [registry];
  const needed: NeededSearch[] = [{ type: 'Patient', params: namesOf(patientLookupParams('191212121212')) }];
  for (const read of reads) {
    const plan = READ_PLANS[read];
    for (const search of plan?.searches ?? []) needed.push({ type: search.type, params: namesOf(search.params('id', A_RANGE, 'UTC')), read });
    if (plan?.reverse !== undefined) needed.push({ type: plan.reverse.type, params: ['patient', plan.reverse.param], read });
  }
  if (role === 'both') needed.push(registry);
  return [...needed, ...FETCHED_TYPES.map((type) => ({ type, params: ['_id'] }))];
}

const VERSION = /^\d{1,2}\.\d{1,2}\.\d{1,3}(?:-[A-Za-z0-9.]{1,20})?$/;
/** What is said of a fhirVersion that is no version number: the server's text itself may hold anything (threat 50 of docs/threat-model.md). */
export const NOT_A_VERSION = 'not a version number';

export function readCapabilities(json: unknown): ServerCapabilities {
  const statement = checked(CapabilityStatementSchema, json, 'CapabilityStatement');
  const rest = statement.rest?.find((r) => r.mode === undefined || r.mode === 'server');
  const common = (rest?.searchParam ?? []).map((p) => p.name);
  const types = new Map<string, TypeCapabilities>((rest?.resource ?? []).map((r) => [r.type, {
    searchParams: new Set([...common, ...(r.searchParam ?? []).map((p) => p.name)]),
    interactions: new Set((r.interaction ?? []).map((i) => i.code)),
    versioning: r.versioning,
    conditionalCreate: r.conditionalCreate,
  }]));
  return { fhirVersion: VERSION.test(statement.fhirVersion) ? statement.fhirVersion : NOT_A_VERSION, types };
}

/** The types the statement declares the `patient` search parameter on; none without a statement. */
export function typesTakingPatient(capabilities: ServerCapabilities | undefined): ReadonlySet<string> {
  return new Set([...capabilities?.types ?? []].filter(([, t]) => t.searchParams.has('patient')).map(([type]) => type));
}

export function missingSearchParameters(capabilities: ServerCapabilities, needed: readonly NeededSearch[]): { type: string; param: string }[] {
  const missing = new Map<string, { type: string; param: string }>();
  for (const { type, params } of needed) {
    const known = capabilities.types.get(type)?.searchParams;
    for (const param of params) if (!known?.has(param)) missing.set(`${type}.${param}`, { type, param });
  }
  return [...missing.values()];
}

/** `GET metadata`, judged against what the reads need. */
export async function checkCapabilities(client: FhirClient, needed: readonly NeededSearch[], signal?: AbortSignal): Promise<CapabilityCheck> {
  const capabilities = readCapabilities(await client.get(`${client.baseUrl}/metadata`, 'CapabilityStatement', signal));
  const wrongVersion = !capabilities.fhirVersion.startsWith('4.0');
  const missing = missingSearchParameters(capabilities, needed);
  const common = missingSearchParameters(capabilities, needed.filter((n) => n.read === undefined));
  const unavailable = new Set(needed.filter((n) => n.read !== undefined && missingSearchParameters(capabilities, [n]).length > 0).map((n) => n.read as ReadName));
  return { ready: !wrongVersion && common.length === 0, wrongVersion, missing, unavailable, capabilities };
}
