/**
 * A grant's categories as FHIR resource types, both ways (docs/contract.md §11 "FHIR"): a category
 * carries the types its reads' FHIR forms write (LabResult: DiagnosticReport, Observation), `*` every
 * type a read writes. Derived from the forms, so a read added later is a class by itself.
 */
import { EVERY_CATEGORY, PROXY_CATEGORIES, readsOfCategory } from '../../domain/proxies/categories.js';
import { formTypes } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';

export interface ConsentClasses {
  /** The resource types `categories` open, in the order the categories and their forms name them. */
  typesOf(categories: readonly string[]): string[];
  /**
   * The categories a set of resource types names: each category whose types are all among them. A
   * type no category carries, or one left over (only part of a category's types), is `unknown`.
   */
  categoriesOf(types: readonly string[]): { categories: string[]; unknown?: string };
}

export function consentClasses(api: FhirApi): ConsentClasses {
  const byCategory = new Map(PROXY_CATEGORIES.map((c) => [c, [...new Set(readsOfCategory(c).flatMap((read) => formTypes(api, read)))]]));
  // A category no read of which has a FHIR form opens nothing on this door: it is no class.
  const carried = [...byCategory].filter(([, types]) => types.length > 0);
  const every = [...new Set(carried.flatMap(([, types]) => types))];
  return {
    typesOf: (categories) => (categories.includes(EVERY_CATEGORY) ? every : [...new Set(categories.flatMap((c) => byCategory.get(c) ?? []))]),
    categoriesOf: (types) => {
      const asked = new Set(types);
      const categories = carried.filter(([, own]) => own.every((t) => asked.has(t))).map(([c]) => c);
      const covered = new Set(categories.flatMap((c) => byCategory.get(c) ?? []));
      const unknown = types.find((t) => !covered.has(t));
      return unknown === undefined ? { categories } : { categories, unknown };
    },
  };
}
