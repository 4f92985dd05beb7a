/**
 * Every FHIR resource type the project knows, each declared once (resources/resource-type.ts): the
 * patient's own types and the parties every read shares (resources/parties.ts), and the types each read
 * brings, gathered from the reads' operation entries (`fhirTypes`, from their folders'
 * `resource-types.ts`) as the legacy documents are gathered from their `sources.ts`. A read with a new
 * type declares it in its folder and nothing here changes.
 */
import type { TSchema } from 'typebox';
import { OPERATIONS, READ_NAMES, type ReadName } from '../operations/table.js';
import type { RecordsRead } from '../operations/operation.js';
import { PARTY_TYPES, PATIENT_TYPES } from './resources/parties.js';
import type { ResourceTypeDeclaration, ResourceTypeDeclarations } from './resources/resource-type.js';

type Table = typeof OPERATIONS;
type TypesOf<R extends ReadName> = Table[R] extends RecordsRead<TSchema, infer F> ? F : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The types the reads bring, by name, in the operation table's order. */
export type ReadResourceTypes = Intersection<{ [R in ReadName]: TypesOf<R> }[ReadName]>;

/** Which read's folder declares each of the reads' types (gathered below). */
const declaredBy = new Map<string, ReadName>();

function gathered(): ReadResourceTypes {
  const out: Record<string, ResourceTypeDeclaration> = {};
  for (const read of READ_NAMES) {
    const types: ResourceTypeDeclarations = (OPERATIONS[read] as RecordsRead).fhirTypes ?? {};
    for (const [type, declaration] of Object.entries(types)) {
      const other = declaredBy.get(type) ?? (Object.hasOwn(PATIENT_TYPES, type) || Object.hasOwn(PARTY_TYPES, type) ? 'parties.ts' : undefined);
      // One type, one declaration: two would give one type two schemas or two sets of parameters.
      if (other !== undefined) throw new Error(`FHIR resource type ${type} is declared by ${read} and by ${other}; declare it once`);
      declaredBy.set(type, read);
      out[type] = declaration;
    }
  }
  return out as ReadResourceTypes;
}

export const READ_RESOURCE_TYPES = gathered();

/** The read whose folder declares `type`, if a read's does (a shared party or the patient's own type has none). */
export const declaringRead = (type: string): ReadName | undefined => declaredBy.get(type);

/** Every resource type, the patient's first, then the reads' in the table's order, the shared parties last. */
export const RESOURCE_TYPES = { ...PATIENT_TYPES, ...READ_RESOURCE_TYPES, ...PARTY_TYPES };
