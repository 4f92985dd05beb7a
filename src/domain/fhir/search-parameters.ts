/**
 * The search parameters the FHIR API serves per resource type (docs/fhir-api.md#search), taken from
 * the types' declarations (resource-types.ts: the reads' own from their folders, the shared ones from
 * resources/parties.ts), and the access log's AuditEvent, which the API alone serves. FHIR defines
 * search parameters per resource type, not per read, so the table is by type: Appointment serves two
 * reads, Organization every read.
 */
import { PARTY_TYPES, PATIENT_TYPES } from './resources/parties.js';
import type { TypeSearch } from './resources/resource-type.js';
import { READ_RESOURCE_TYPES } from './resource-types.js';

export type { ElementPath, TypeSearch } from './resources/resource-type.js';

type SearchesOf<T extends Readonly<Record<string, { readonly search: TypeSearch }>>> = { readonly [K in keyof T]: T[K]['search'] };

const searchesOf = <T extends Readonly<Record<string, { readonly search: TypeSearch }>>>(types: T): SearchesOf<T> =>
  Object.fromEntries(Object.entries(types).map(([type, d]) => [type, d.search])) as SearchesOf<T>;

/** The patient's access log, which only the API serves (src/http/fhir/audit-events.ts). */
const AUDIT_EVENT = { AuditEvent: { shared: {}, date: { param: 'date', elements: ['recorded'] } } } as const satisfies Readonly<Record<string, TypeSearch>>;

/** Every type the API serves and what may be searched on it; a type absent here is not served. */
export const SEARCH_PARAMETERS = {
  ...searchesOf(PATIENT_TYPES),
  ...searchesOf(READ_RESOURCE_TYPES),
  ...AUDIT_EVENT,
  ...searchesOf(PARTY_TYPES),
};

export type FhirType = keyof typeof SEARCH_PARAMETERS;
export const FHIR_TYPES = Object.keys(SEARCH_PARAMETERS) as FhirType[];
export const isFhirType = (name: string): name is FhirType => Object.hasOwn(SEARCH_PARAMETERS, name);

/** Types readable with any scope that reaches a record referencing them (docs/fhir-api.md#scopes). */
export const REFERENCED_TYPES: ReadonlySet<FhirType> = new Set(['Organization', 'Practitioner', 'PractitionerRole', 'Location', 'Medication', 'HealthcareService']);

export const searchOf = (type: FhirType): TypeSearch => SEARCH_PARAMETERS[type];
