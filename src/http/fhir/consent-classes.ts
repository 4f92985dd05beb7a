/**
 * A grant's categories as a Consent's classes, both ways (docs/contract.md §11 "FHIR",
 * docs/proxies.md): a category is written as the resource types its reads' FHIR forms write
 * (LabResult: DiagnosticReport, Observation) and those their folders declare beside them
 * (MedicationPrescription: MedicationRequest, Medication), `*` as every category. Derived from the
 * forms, so a read added later is a class by itself. A category is taken back from its forms' types;
 * a type declared beside them comes with it, never alone.
 *
 * Two categories may write the same type: video meetings are Appointments on this door as the
 * bookings are. A type then names only the first category that writes it (in the categories' table
 * order), and the later one is written as its own code (PROXY_CATEGORY), since a Consent is never
 * taken as a wider grant than the person wrote: `Appointment` alone does not share the meetings'
 * join links, nor does a grant of video meetings alone read back as every appointment.
 *
 * `*` (every read, now and later) is written as every class and the code `*` besides, so that a FHIR
 * client sees the grant reaches reads added later, and can give one: the code read back is `*` again.
 */
import { EVERY_CATEGORY, PROXY_CATEGORIES, readsOfCategory } from '../../domain/proxies/categories.js';
import { declaringRead, READ_RESOURCE_TYPES } from '../../domain/fhir/resource-types.js';
import type { ReadName } from '../../domain/operations/table.js';
import { formTypes } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';

export const RESOURCE_TYPES = 'http://hl7.org/fhir/resource-types';
/** The code of a category that no resource type names alone (docs/proxies.md). */
export const PROXY_CATEGORY = 'http://example.org/fhir/pdas/CodeSystem/proxy-category';

export interface ConsentClass {
  system: string;
  code: string;
}

export interface ConsentClasses {
  /** The classes `categories` are written as, in the order the categories and their forms name them. */
  classesOf(categories: readonly string[]): ConsentClass[];
  /**
   * The categories a Consent's classes name: each category written by types whose types are all among
   * them, and each category named by its code. A type no such category writes, one left over (only
   * part of a category's types) or a code of no category is `unknown`, as `system|code`.
   */
  categoriesOf(classes: readonly ConsentClass[]): { categories: string[]; unknown?: string };
}

/**
 * The types a read's folder declares beside its form's (a Medication, the product its prescriptions name):
 * opened with its records (fhir-api.ts), so written with its category's classes, though never one alone.
 */
const besideForm = (api: FhirApi, read: ReadName): string[] => {
  const own = formTypes(api, read);
  return own.length === 0 ? [] : Object.keys(READ_RESOURCE_TYPES).filter((type) => declaringRead(type) === read && !own.includes(type));
};

export function consentClasses(api: FhirApi): ConsentClasses {
  const byCategory = new Map(PROXY_CATEGORIES.map((c) => [c, [...new Set(readsOfCategory(c).flatMap((read) => formTypes(api, read)))]]));
  const besides = new Map(PROXY_CATEGORIES.map((c) => [c, readsOfCategory(c).flatMap((read) => besideForm(api, read))]));
  // A category no read of which has a FHIR form opens nothing on this door: it is no class.
  const carried = [...byCategory].filter(([, types]) => types.length > 0);
  const written = new Set<string>();
  const byTypes = new Map<string, readonly string[]>();
  const byCode = new Set<string>();
  for (const [category, types] of carried) {
    if (types.some((t) => written.has(t))) byCode.add(category);
    else byTypes.set(category, types);
    for (const t of types) written.add(t);
  }
  const classesOfOne = (category: string): ConsentClass[] => (byCode.has(category) ? [{ system: PROXY_CATEGORY, code: category }]
    : [...byTypes.get(category) ?? [], ...besides.get(category) ?? []].map((code) => ({ system: RESOURCE_TYPES, code })));
  const every = carried.map(([category]) => category);
  return {
    classesOf: (categories) => {
      const whole = categories.includes(EVERY_CATEGORY);
      // Each class once, where it first comes (two categories may not share one, but a list may repeat a category).
      const classes = [...new Map((whole ? every : categories).flatMap(classesOfOne).map((c) => [`${c.system}|${c.code}`, c] as const)).values()];
      return whole ? [...classes, { system: PROXY_CATEGORY, code: EVERY_CATEGORY }] : classes;
    },
    categoriesOf: (classes) => {
      const types = new Set(classes.filter((c) => c.system === RESOURCE_TYPES).map((c) => c.code));
      const codes = classes.filter((c) => c.system === PROXY_CATEGORY).map((c) => c.code);
      const unknownCode = codes.find((code) => code !== EVERY_CATEGORY && !byCode.has(code) && !byTypes.has(code));
      const fromTypes = [...byTypes].filter(([, own]) => own.every((t) => types.has(t))).map(([c]) => c);
      const named = every.filter((c) => fromTypes.includes(c) || codes.includes(c));
      const categories = codes.includes(EVERY_CATEGORY) ? [EVERY_CATEGORY, ...named] : named;
      const covered = new Set(fromTypes.flatMap((c) => [...byTypes.get(c) ?? [], ...besides.get(c) ?? []]));
      const unknownType = [...types].find((t) => !covered.has(t));
      const unknown = unknownCode !== undefined ? `${PROXY_CATEGORY}|${unknownCode}` : unknownType === undefined ? undefined : `${RESOURCE_TYPES}|${unknownType}`;
      return unknown === undefined ? { categories } : { categories, unknown };
    },
  };
}
