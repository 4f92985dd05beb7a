/**
 * A FHIR search as the API takes it (docs/fhir-api.md#search), from the query string or a
 * `_search` form body: the parameters FHIR.md names for the type, validated with a message that
 * says what to send. An unknown parameter is ignored and left out of the `self` link (FHIR's lenient
 * default); with `Prefer: handling=strict` it is refused.
 */
import { dateComparison, type DateComparison } from '../../domain/fhir/fhir-dates.js';
import type { IncludeSpec, TokenValue } from '../../domain/fhir/resource-search.js';
import { isFhirType, searchOf, type FhirType } from '../../domain/fhir/search-parameters.js';
import { namesAPerson } from '../../domain/redaction/names-a-person.js';
import { ApiError } from '../api-error.js';

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 500;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const MAX_VALUES = 100;

export interface FhirSearch {
  type: FhirType;
  /** The `patient` parameter's Patient id (`Patient/<id>` or `<id>`). */
  patient?: string;
  /** `identifier=<system>|<value>` on Patient, several forms of one number joined by `,` (FHIR's OR). */
  identifiers?: TokenValue[];
  ids?: ReadonlySet<string>;
  dates: DateComparison[];
  tokens: Map<string, TokenValue[]>;
  count: number;
  includes: IncludeSpec[];
  revincludes: IncludeSpec[];
  cursor?: string;
  /** The parameters taken, in the order given, for the `self` and `next` links (never `identifier`, which names a person). */
  linkParams: [string, string][];
}

const invalid = (message: string): ApiError => new ApiError(400, message);

/** A search value holding an identity number, refused without repeating it (no id or code of this API holds one). */
const personInValue = (param: string): ApiError => invalid(`Search parameter ${param} holds an identity number, which no id or code of this API does: `
  + 'find the Patient with Patient?identifier=<system>|<number>, then search with patient=Patient/<id>.');

function tokenValues(param: string, value: string): TokenValue[] {
  const values = value.split(',');
  if (param !== 'identifier' && namesAPerson(value)) throw personInValue(param);
  if (values.length > MAX_VALUES) throw invalid(`Search parameter ${param} takes at most ${MAX_VALUES} values.`);
  return values.map((v) => {
    const bar = v.indexOf('|');
    const code = bar < 0 ? v : v.slice(bar + 1);
    if (code === '') throw invalid(`Search parameter ${param} must be a code or <system>|<code>, e.g. ${param}=final.`);
    return bar < 0 ? { code } : { system: v.slice(0, bar), code };
  });
}

function include(value: string, iterate: boolean): IncludeSpec | undefined {
  const [type, name, target, ...rest] = value.split(':');
  if (type === undefined || name === undefined || rest.length > 0 || !isFhirType(type)) return undefined;
  const references = searchOf(type).references as Readonly<Record<string, readonly string[]>> | undefined;
  // Own names only: `Observation:__proto__` names no parameter.
  if (references === undefined || !Object.hasOwn(references, name)) return undefined;
  if (target !== undefined && !isFhirType(target)) return undefined;
  return { type, param: name, iterate, ...(target === undefined ? {} : { target }) };
}

function patientParam(value: string): string {
  const id = value.startsWith('Patient/') ? value.slice('Patient/'.length) : value;
  if (!FHIR_ID.test(id)) throw invalid('Search parameter patient must be a Patient id, e.g. patient=Patient/<id> as this API\'s Patient resources give it.');
  return id;
}

function count(value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw invalid(`Search parameter _count must be a whole number from 0 to ${MAX_COUNT}, e.g. _count=50.`);
  // Above the maximum it is taken as the maximum, as FHIR lets a server do.
  return Math.min(Number(value), MAX_COUNT);
}

/** Reads the parameters of a search of `type`; `strict`: Prefer: handling=strict. */
export function parseSearch(type: FhirType, params: readonly [string, string][], zone: string, strict: boolean): FhirSearch {
  const search: FhirSearch = { type, dates: [], tokens: new Map(), count: DEFAULT_COUNT, includes: [], revincludes: [], linkParams: [] };
  const def = searchOf(type);
  const tokens = (def.tokens ?? {}) as Readonly<Record<string, readonly string[]>>;
  const keep = (name: string, value: string) => search.linkParams.push([name, value]);
  for (const [name, value] of params) {
    if (name === 'patient' && type !== 'Patient') {
      search.patient = patientParam(value);
      keep(name, value);
    } else if (name === '_id') {
      const ids = value.split(',');
      if (ids.length > MAX_VALUES || !ids.every((id) => FHIR_ID.test(id))) throw invalid('Search parameter _id must be resource ids separated by commas, e.g. _id=abc,def.');
      if (namesAPerson(value)) throw personInValue(name);
      search.ids = new Set(ids);
      keep(name, value);
    } else if (name === '_count') {
      search.count = count(value);
      keep(name, String(search.count));
    } else if (name === '_cursor') {
      search.cursor = value;
    } else if (name === '_format') {
      keep(name, value);
    } else if (name === 'identifier' && type === 'Patient') {
      search.identifiers = [...(search.identifiers ?? []), ...tokenValues(name, value)];
    } else if (def.date !== undefined && name === def.date.param) {
      search.dates.push(dateComparison(name, value, zone));
      keep(name, value);
    } else if (Object.hasOwn(tokens, name)) {
      search.tokens.set(name, [...(search.tokens.get(name) ?? []), ...tokenValues(name, value)]);
      keep(name, value);
    } else if (name === '_include' || name === '_include:iterate' || name === '_revinclude') {
      const spec = include(value, name === '_include:iterate');
      if (spec === undefined) {
        if (strict) throw invalid(`A ${name} is not one this API serves on ${type}: see the searchInclude and searchRevInclude of GET /fhir/metadata.`);
        continue;
      }
      (name === '_revinclude' ? search.revincludes : search.includes).push(spec);
      keep(name, value);
    } else if (strict) {
      throw invalid(`A search parameter is not one this API serves on ${type} (Prefer: handling=strict): see the searchParam of GET /fhir/metadata.`);
    }
  }
  return search;
}
