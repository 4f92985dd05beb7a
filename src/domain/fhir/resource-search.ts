/**
 * One search over the resources of the patient's records (docs/fhir-api.md#search): which match,
 * in which order, and what the includes add. Pure: the records were read, released and audited
 * before, so nothing here can reach another patient's data.
 */
import type { FhirResource } from '../../reads/as-fhir.js';
import { rangeOf, satisfies, type DateComparison, type InstantRange } from './fhir-dates.js';
import { searchOf, type FhirType } from './search-parameters.js';

export interface TokenValue { system?: string; code: string }

/** A reference parameter's value: `Type/id`, or `id` alone (any of the parameter's target types). */
export interface ReferenceValue { type?: string; id: string }

export interface ResourceQuery {
  type: FhirType;
  ids?: ReadonlySet<string>;
  dates: readonly DateComparison[];
  /**
   * Token parameters: each a list of its repetitions, every one of which must match (a repeated
   * parameter is FHIR's AND), each a list of values any of which may (FHIR's `,`, OR).
   */
  tokens: ReadonlyMap<string, readonly (readonly TokenValue[])[]>;
  /** Reference parameters, as `tokens`: repetitions AND, values within one OR. */
  references?: ReadonlyMap<string, readonly (readonly ReferenceValue[])[]>;
}

export interface IncludeSpec { type: FhirType; param: string; iterate: boolean; target?: string }

/** Every value at `path` (arrays on the way are walked), undefined members skipped. */
export function valuesAt(resource: unknown, path: string): unknown[] {
  let current: unknown[] = [resource];
  for (const step of path.split('.')) {
    current = current.flatMap((v) => {
      if (v === null || typeof v !== 'object') return [];
      const next = (v as Record<string, unknown>)[step];
      if (next === undefined) return [];
      return Array.isArray(next) ? next : [next];
    });
  }
  return current;
}

/** The instant range a date element stands for: a dateTime, instant, date or Period. */
function rangeOfElement(value: unknown, zone: string): InstantRange | undefined {
  if (typeof value === 'string') return rangeOf(value, zone);
  if (value === null || typeof value !== 'object') return undefined;
  const period = value as { start?: string; end?: string };
  const start = period.start === undefined ? undefined : rangeOf(period.start, zone);
  const end = period.end === undefined ? undefined : rangeOf(period.end, zone);
  if (start === undefined && end === undefined) return undefined;
  return { start: start?.start ?? Number.MIN_SAFE_INTEGER, end: end?.end ?? Number.MAX_SAFE_INTEGER };
}

/** The resource's date for searching and sorting: its first date element that has a value. */
export function dateRangeOf(resource: FhirResource, type: FhirType, zone: string): InstantRange | undefined {
  const date = searchOf(type).date;
  for (const path of date?.elements ?? []) {
    for (const v of valuesAt(resource, path)) {
      const range = rangeOfElement(v, zone);
      if (range !== undefined) return range;
    }
  }
  return undefined;
}

/** The codes at a token element: a code or boolean itself, a Coding, or each Coding of a CodeableConcept (and an Identifier). */
function tokensAt(value: unknown): TokenValue[] {
  if (typeof value === 'string') return [{ code: value }];
  if (typeof value === 'boolean') return [{ code: String(value) }];
  if (value === null || typeof value !== 'object') return [];
  const v = value as { system?: string; code?: string; value?: string; coding?: { system?: string; code?: string }[] };
  if (v.coding !== undefined) return v.coding.flatMap((c) => (c.code === undefined ? [] : [{ ...(c.system === undefined ? {} : { system: c.system }), code: c.code }]));
  const code = v.code ?? v.value;
  return code === undefined ? [] : [{ ...(v.system === undefined ? {} : { system: v.system }), code }];
}

const tokenMatches = (have: TokenValue, want: TokenValue): boolean =>
  have.code === want.code && (want.system === undefined || (want.system === '' ? have.system === undefined : have.system === want.system));

/** The `Type/id` references at a reference parameter's elements that name one of its target types. */
function referencesOf(resource: FhirResource, type: FhirType, param: string): string[] {
  const def = searchOf(type).references?.[param];
  if (def === undefined) return [];
  return def.paths.flatMap((p) => valuesAt(resource, p))
    .flatMap((ref) => (typeof (ref as { reference?: unknown }).reference === 'string' ? [(ref as { reference: string }).reference] : []))
    .filter((key) => def.targets.some((target) => key.startsWith(`${target}/`)));
}

const referenceMatches = (have: string, want: ReferenceValue): boolean =>
  (want.type === undefined ? have.slice(have.indexOf('/') + 1) === want.id : have === `${want.type}/${want.id}`);

export function matchesQuery(resource: FhirResource, query: ResourceQuery, zone: string): boolean {
  if (resource.resourceType !== query.type) return false;
  if (query.ids !== undefined && !query.ids.has(resource.id)) return false;
  if (query.dates.length > 0) {
    const range = dateRangeOf(resource, query.type, zone);
    if (range === undefined || !query.dates.every((c) => satisfies(range, c))) return false;
  }
  const tokens = searchOf(query.type).tokens ?? {};
  for (const [param, repetitions] of query.tokens) {
    const paths = (tokens as Record<string, readonly string[]>)[param] ?? [];
    const have = paths.flatMap((p) => valuesAt(resource, p)).flatMap(tokensAt);
    if (!repetitions.every((wanted) => wanted.some((w) => have.some((h) => tokenMatches(h, w))))) return false;
  }
  for (const [param, repetitions] of query.references ?? []) {
    const have = referencesOf(resource, query.type, param);
    if (!repetitions.every((wanted) => wanted.some((w) => have.some((h) => referenceMatches(h, w))))) return false;
  }
  return true;
}

/** Matches in the API's order: by their date, oldest first (undated last), then by id. */
export function sortMatches(matches: readonly FhirResource[], type: FhirType, zone: string): FhirResource[] {
  const keyed = matches.map((r) => ({ r, at: dateRangeOf(r, type, zone)?.start ?? Number.MAX_SAFE_INTEGER }));
  keyed.sort((a, b) => a.at - b.at || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
  return keyed.map((k) => k.r);
}

/** A resource's `Type/id`: how a reference names it, and how a request's records are keyed. */
export const keyOf = (r: FhirResource): string => `${r.resourceType}/${r.id}`;

/** The `Type/id` keys the reference elements of `param` name in `resource`: of its target types only (and of `:Type`, where given). */
const referencedKeys = (resource: FhirResource, spec: IncludeSpec): string[] =>
  referencesOf(resource, spec.type, spec.param).filter((key) => spec.target === undefined || key.startsWith(`${spec.target}/`));

/**
 * The types an include may bring (the targets of its parameter, or its `:Type`) and a revinclude
 * (the type that refers): what a search must read besides its own type's records to answer them.
 */
export function typesToInclude(includes: readonly IncludeSpec[], revincludes: readonly IncludeSpec[]): string[] {
  const targets = includes.flatMap((spec) => (spec.target === undefined ? searchOf(spec.type).references?.[spec.param]?.targets ?? [] : [spec.target]));
  return [...new Set([...targets, ...revincludes.map((spec) => spec.type), ...includes.filter((s) => s.iterate).map((s) => s.type)])];
}

/**
 * What `_include` and `_revinclude` add to the matches, from the same records: each resource once,
 * none of the matches again. `:iterate` includes follow from what was included too.
 */
export function included(matches: readonly FhirResource[], all: readonly FhirResource[], includes: readonly IncludeSpec[], revincludes: readonly IncludeSpec[]): FhirResource[] {
  if (includes.length === 0 && revincludes.length === 0) return [];
  const byKey = new Map(all.map((r) => [keyOf(r), r]));
  const seen = new Set(matches.map(keyOf));
  const out: FhirResource[] = [];
  const add = (r: FhirResource | undefined): void => {
    if (r === undefined || seen.has(keyOf(r))) return;
    seen.add(keyOf(r));
    out.push(r);
  };
  for (const spec of includes.filter((s) => !s.iterate)) {
    for (const m of matches) if (m.resourceType === spec.type) referencedKeys(m, spec).forEach((k) => add(byKey.get(k)));
  }
  const matchKeys = new Set(matches.map(keyOf));
  for (const spec of revincludes) {
    for (const r of all) if (r.resourceType === spec.type && referencedKeys(r, spec).some((k) => matchKeys.has(k))) add(r);
  }
  // :iterate until nothing new: bounded by the records' own resources.
  for (let grew = true; grew;) {
    grew = false;
    for (const spec of includes.filter((s) => s.iterate)) {
      for (const r of [...matches, ...out]) {
        if (r.resourceType !== spec.type) continue;
        for (const k of referencedKeys(r, spec)) {
          const before = out.length;
          add(byKey.get(k));
          grew ||= out.length > before;
        }
      }
    }
  }
  return out;
}
