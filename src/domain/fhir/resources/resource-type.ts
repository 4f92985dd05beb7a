/**
 * A FHIR resource type as this project knows it, declared once where it belongs: a read's folder
 * declares the types it brings (`src/reads/<read>/resource-types.ts`, named by its operation entry's
 * `fhirTypes`), parties.ts those every read shares. From the declarations come the checks the
 * `fhir-r4` adapter runs on what it reads (src/adapters/ehr-fhir/schemas/index.ts) and the search
 * parameters the FHIR API serves (../search-parameters.ts, docs/fhir-api.md#search).
 */
import type { TSchema } from 'typebox';

/** An element path below the resource, `.` between steps; an array on the way is searched in every member. */
export type ElementPath = string;

/**
 * What may be searched on a type: the parameters the `fhir-r4` adapter sends for the reads
 * (docs/upstream-fhir.md §0 and §3), so the API answers its own dialect, with the elements each reads.
 */
export interface TypeSearch {
  /** The date parameter (`eq|ge|gt|le|lt` prefixes) and the elements it reads: a dateTime, an instant, a date or a Period. */
  readonly date?: { readonly param: string; readonly elements: readonly ElementPath[] };
  /** Token parameters: a code, a Coding or a CodeableConcept at the elements named. */
  readonly tokens?: Readonly<Record<string, readonly ElementPath[]>>;
  /** Reference parameters, for `_include` (`Type:param`) and `_revinclude`: the Reference elements. */
  readonly references?: Readonly<Record<string, readonly ElementPath[]>>;
}

export interface ResourceTypeDeclaration<S extends TSchema = TSchema> {
  /** The resource as far as it is read, checked before it is mapped (as FHIR defines it, objects open). */
  readonly schema: S;
  readonly search: TypeSearch;
}

/** Resource types by their FHIR name. */
export type ResourceTypeDeclarations = Readonly<Record<string, ResourceTypeDeclaration>>;

/** `patient` as `subject`: the reference parameter of most clinical types. */
export const SUBJECT = { patient: ['subject'] } as const;
