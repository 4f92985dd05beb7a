/**
 * Where FHIR R4 defines each search parameter the API serves: the canonical URL of its
 * SearchParameter, which the CapabilityStatement gives as `searchParam.definition` (R4: it SHALL be
 * set for a parameter the core specification defines). R4 names most `<Type>-<code>`; the ones it
 * defines once for several types have an id of their own, which each type declares beside its
 * parameters (`shared`, resources/resource-type.ts), so a new type changes nothing here.
 * test/http/fhir/capability-claims.test.ts checks every definition against R4's search-parameters.json.
 * A parameter a type declares as its own (`own`) has none.
 */
const R4_BASE = 'http://hl7.org/fhir/SearchParameter/';

/** `_id`, which R4 defines once for every resource. */
const RESOURCE_ID = { code: '_id', id: 'Resource-id' } as const;

/** The canonical URL of R4's definition of `code` on `type`, given the shared definitions the type declares. */
export function r4Definition(type: string, code: string, shared: Readonly<Record<string, string>>): string {
  const id = code === RESOURCE_ID.code ? RESOURCE_ID.id : Object.hasOwn(shared, code) ? shared[code] : undefined;
  return `${R4_BASE}${id ?? `${type}-${code}`}`;
}
