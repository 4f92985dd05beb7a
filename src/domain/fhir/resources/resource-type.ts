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
  /**
   * Reference parameters, searched by `Type/id` or `id` and taken by `_include` (`Type:param`) and
   * `_revinclude`: the Reference elements and the types they may point at here, so a search or an
   * include of `Appointment:practitioner` takes the Practitioners among the actors, and no Location.
   */
  readonly references?: Readonly<Record<string, ReferenceParam>>;
  /**
   * The parameters FHIR R4 does not define on this type, which this API serves as its own: they have
   * no `definition` in the CapabilityStatement. Every other one is R4's (search-definitions.ts).
   */
  readonly own?: readonly string[];
  /**
   * The parameters whose R4 definition is one R4 shares among several types (R4's
   * search-parameters.json), by that definition's id: `clinical-patient` for `patient` on most
   * clinical types. Every other parameter is R4's `<Type>-<code>` or the type's `own`; `_id` is
   * `Resource-id` everywhere. Required, `{}` when none, so a new type says which it is
   * (search-definitions.ts; test/http/fhir/capability-claims.test.ts checks every one against R4).
   */
  readonly shared: Readonly<Record<string, string>>;
}

export interface ReferenceParam {
  readonly paths: readonly ElementPath[];
  /** The resource types a reference here may name, as the forms write them (within R4's targets). */
  readonly targets: readonly string[];
}

/** A reference parameter: the elements it reads and the types they may point at. */
export const ref = <const T extends string[]>(paths: readonly ElementPath[], ...targets: T): ReferenceParam => ({ paths, targets });

/** Who a record names as its staff: a Practitioner, or one in a role (PractitionerRole). */
export const STAFF = ['Practitioner', 'PractitionerRole'] as const;

/**
 * A resource as the summary holds it: the shape of src/reads/as-fhir.ts's FhirResource, which a
 * type's declaration may not import (it gathers the reads that import the declarations).
 */
export interface SummaryEntry {
  readonly resourceType: string;
  readonly id: string;
  readonly [member: string]: unknown;
}

/** Finds a resource a reference names (`Type/id`), among those the document holds. */
export type Resolve = (reference: string) => SummaryEntry | undefined;

/**
 * The type's section of the International Patient Summary (IPS 2.0.0) the patient summary fills
 * (docs/fhir-api.md#patient-summary, ../ips-sections.ts): its LOINC code, title, and how an entry
 * reads in the section's narrative.
 */
export interface SummarySection {
  readonly code: string;
  readonly display: string;
  readonly title: string;
  /** IPS requires the section: it is there even when empty, saying why (IPS's ips-comp-1). */
  readonly required: boolean;
  /** The narrative of an empty section when nothing was left out: IPS's "no known …". */
  readonly noneKnown: string;
  /** What the patient app calls the section (app/src/summary.ts, through scripts/app-names/names.ts). */
  readonly words: { readonly sv: string; readonly en: string };
  /** Where the section stands in the document, lowest first: IPS's required sections lead. */
  readonly position: number;
  /** The entry's line in the narrative, in the EHR's own words (../narrative-labels.ts has the parts). */
  readonly line: (entry: SummaryEntry, resolve: Resolve) => string;
}

export interface ResourceTypeDeclaration<S extends TSchema = TSchema> {
  /** The resource as far as it is read, checked before it is mapped (as FHIR defines it, objects open). */
  readonly schema: S;
  readonly search: TypeSearch;
  /** The type's section of the patient summary, or null: the summary holds the type only as what entries reference. */
  readonly summary: SummarySection | null;
}

/** Resource types by their FHIR name. */
export type ResourceTypeDeclarations = Readonly<Record<string, ResourceTypeDeclaration>>;

/** `patient` as `subject`: the reference parameter of most clinical types. */
export const SUBJECT = { patient: ref(['subject'], 'Patient') } as const;
