/**
 * Every FHIR resource type the mapping reads (declared once each: the reads' in their folders, the
 * shared ones in src/domain/fhir/resources/parties.ts), and the check each one passes before it is mapped, as
 * the XML side checks a parsed document against its shape: a resource that is not as FHIR defines
 * it (as far as it is read) is refused with the type and the path of the first fault, never mapped
 * with a meaning of our own.
 */
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { RESOURCE_TYPES } from '../../../domain/fhir/resource-types.js';
import { fhirFault } from '../fault.js';
import { oneFormEach } from './choice.js';

type Declared = typeof RESOURCE_TYPES;

/** Each type's schema, from its one declaration (src/domain/fhir/resource-types.ts). */
export const RESOURCE_SCHEMAS = Object.fromEntries(Object.entries(RESOURCE_TYPES).map(([type, d]) => [type, d.schema])) as
  { readonly [T in keyof Declared]: Declared[T]['schema'] };

export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
export type ResourceOf<T extends ResourceType> = Static<(typeof RESOURCE_SCHEMAS)[T]>;
export type MappedResource = ResourceOf<ResourceType>;

export const isResourceType = (type: string): type is ResourceType => Object.hasOwn(RESOURCE_SCHEMAS, type);

type Checker = ReturnType<typeof Compile>;
const checkers = new Map<TSchema, Checker>();

function checkerOf(schema: TSchema): Checker {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = Compile(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

/** `value` as the schema types it, or a fault naming `what` and the first member at fault. */
export function checked<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  const checker = checkerOf(schema);
  let valid: boolean;
  try {
    valid = checker.Check(value);
  } catch (err) {
    // A document nested deeper than the stack can walk is not one this service reads.
    if (err instanceof RangeError) throw fhirFault(`${what} nested too deeply`);
    throw err;
  }
  if (valid) return value as Static<S>;
  const first = checker.Errors(value)[0];
  throw fhirFault(`${what} not as expected at ${first?.instancePath || '(top level)'}`);
}

/** A resource of `type`, checked. */
export function checkedResource<T extends ResourceType>(type: T, value: unknown): ResourceOf<T> {
  const resource = checked(RESOURCE_SCHEMAS[type], value, type) as ResourceOf<T>;
  oneFormEach(resource, type);
  return resource;
}
