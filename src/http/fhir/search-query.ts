/**
 * A FHIR search as the API takes it (docs/fhir-api.md#search), from the query string or a
 * `_search` form body: the parameters FHIR.md names for the type, validated with a message that
 * says what to send. A parameter that takes one value is refused when given twice (patient-naming
 * and search-values say how); one that may repeat means AND, as FHIR R4 says. An unknown
 * parameter is ignored and left out of the `self` link (FHIR's lenient default), unless it names a
 * patient (patient-naming.ts); with `Prefer: handling=strict` every unknown one is refused.
 */
import { dateComparison, type DateComparison } from '../../domain/fhir/fhir-dates.js';
import type { IncludeSpec, ReferenceValue, TokenValue } from '../../domain/fhir/resource-search.js';
import { isFhirType, searchOf, type FhirType } from '../../domain/fhir/search-parameters.js';
import { namingRefusal, patientFilterRefusal } from './patient-naming.js';
import {
  count, DEFAULT_COUNT, givenTwice, idList, invalid, namesPatientBy, patientParam, patientReference, referenceValues, refuseRepeats, servesSubject, tokenValues,
} from './search-values.js';

export { DEFAULT_COUNT, MAX_COUNT } from './search-values.js';

export interface FhirSearch {
  type: FhirType;
  /** The Patient id the search names (`patient`, `subject` where it names a Patient, or a `Patient/` reference of `actor`). */
  patient?: string;
  /** `identifier=<system>|<value>` on Patient, several forms of one number joined by `,` (FHIR's OR). */
  identifiers?: TokenValue[];
  ids?: ReadonlySet<string>;
  dates: DateComparison[];
  /** Each token parameter's repetitions, every one of which must match (AND), each a list of values any of which may (OR). */
  tokens: Map<string, TokenValue[][]>;
  /** Each reference parameter's repetitions (AND), each a list of references any of which may match (OR); never `patient`. */
  references: Map<string, ReferenceValue[][]>;
  count: number;
  includes: IncludeSpec[];
  revincludes: IncludeSpec[];
  cursor?: string;
  /** The parameters taken, validated, in the order given, for the `self` and `next` links (never `identifier`, which names a person). */
  linkParams: [string, string][];
}

/** What a search is read with: the EHR's zone, `Prefer: handling=strict`, and which ids have a Patient id's form. */
export interface SearchReading {
  zone: string;
  strict: boolean;
  isPatientIdForm: (id: string) => boolean;
}

function include(value: string, iterate: boolean): IncludeSpec | undefined {
  const [type, name, target, ...rest] = value.split(':');
  if (type === undefined || name === undefined || rest.length > 0 || !isFhirType(type)) return undefined;
  const references = searchOf(type).references;
  // Own names only: `Observation:__proto__` names no parameter.
  if (references === undefined || !Object.hasOwn(references, name)) return undefined;
  // A type the parameter cannot name is no include this API serves (hostile review helper-95, F2): it read that type's data for nothing.
  if (target !== undefined && !(isFhirType(target) && references[name]?.targets.includes(target) === true)) return undefined;
  return { type, param: name, iterate, ...(target === undefined ? {} : { target }) };
}

/** Reads the parameters of a search of `type` (`_format` is the route's, validated before: formatParam). */
export function parseSearch(type: FhirType, params: readonly [string, string][], reading: SearchReading): FhirSearch {
  refuseRepeats(type, params);
  const search: FhirSearch = { type, dates: [], tokens: new Map(), references: new Map(), count: DEFAULT_COUNT, includes: [], revincludes: [], linkParams: [] };
  const def = searchOf(type);
  const tokens = def.tokens ?? {};
  const references = def.references ?? {};
  const keep = (name: string, value: string) => search.linkParams.push([name, value]);
  for (const [name, value] of params) {
    if ((name === 'patient' && type !== 'Patient') || (name === 'subject' && servesSubject(type))) {
      search.patient = patientParam(name, value);
      keep(name, value);
    } else if (namesPatientBy(type, name, value)) {
      // `Appointment?actor=Patient/<id>`: the patient named as `patient` names it (docs/fhir-api.md#search).
      search.patient = patientReference(name, value);
      keep(name, value);
    } else if (name === '_id') {
      search.ids = idList(value);
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
      search.dates.push(dateComparison(name, value, reading.zone));
      keep(name, value);
    } else if (Object.hasOwn(tokens, name)) {
      search.tokens.set(name, [...(search.tokens.get(name) ?? []), tokenValues(name, value)]);
      keep(name, value);
    } else if (name !== 'patient' && Object.hasOwn(references, name)) {
      const targets = references[name]?.targets ?? [];
      search.references.set(name, [...(search.references.get(name) ?? []), referenceValues(name, value, targets, reading.isPatientIdForm)]);
      keep(name, value);
    } else if (name === '_include' || name === '_include:iterate' || name === '_revinclude') {
      const spec = include(value, name === '_include:iterate');
      if (spec === undefined) {
        if (reading.strict) throw invalid(`A ${name} is not one this API serves on ${type}: see the searchInclude and searchRevInclude of GET /fhir/metadata.`);
        continue;
      }
      (name === '_revinclude' ? search.revincludes : search.includes).push(spec);
      keep(name, value);
    } else {
      const refusal = type === 'Patient' ? patientFilterRefusal(name) : namingRefusal(`on ${type}`, name, value, reading.isPatientIdForm);
      if (refusal !== undefined) throw refusal;
      if (reading.strict) throw invalid(`A search parameter is not one this API serves on ${type} (Prefer: handling=strict): see the searchParam of GET /fhir/metadata.`);
    }
  }
  return search;
}

/**
 * The parameters of a search of a list the caller keeps (Consent: the grants a person gave), which
 * filters by its `patient` alone: `patient` once, `_count` as on every search (the list is one page),
 * `_format`. Any other parameter that names a patient is refused as on every search, and with
 * `Prefer: handling=strict` any other at all; else it is passed over, FHIR's lenient default.
 */
export function parseKeptListSearch(type: string, params: readonly [string, string][], reading: Omit<SearchReading, 'zone'>): KeptListSearch {
  let asked: number | undefined;
  let ids: ReadonlySet<string> | undefined;
  const patient = patientAlone(params, reading, { once: `a search of ${type}`, naming: `on ${type}` }, {
    _count: (value) => { asked = count(value); },
    _id: (value) => { ids = idList(value); },
  });
  return { ...(patient === undefined ? {} : { patient }), ...(asked === undefined ? {} : { count: asked }), ...(ids === undefined ? {} : { ids }) };
}

export interface KeptListSearch {
  patient?: string;
  /** `_count` as asked: 0 asks for the total alone (FHIR R4 §3.1.1.5.6); any other count is the one page. */
  count?: number;
  /** `_id`: only these (FHIR's lenient default passed it over, and a list of them all was taken for the one asked; helper-161, F4). */
  ids?: ReadonlySet<string>;
}

/** `_id` of a search that takes no other filter, once: the ids it names, or undefined when not given. */
export function idsParam(params: readonly [string, string][]): ReadonlySet<string> | undefined {
  const given = params.filter(([name]) => name === '_id');
  if (given.length > 1) throw givenTwice('_id');
  return given[0] === undefined ? undefined : idList(given[0][1]);
}

/** The `patient` a read by id names (docs/fhir-api.md#interactions), once; any other parameter naming a patient is refused. */
export function readPatientParam(params: readonly [string, string][], isPatientIdForm: (id: string) => boolean): string | undefined {
  return patientAlone(params, { strict: false, isPatientIdForm }, { once: 'a read by id', naming: 'on a read by id' });
}

/**
 * The `patient` `params` name, once, where no other parameter may name one (the words of `where` say
 * what is read). The members of `checked` (each value checked by its function) are the caller's, once
 * each, and so is `_format` (formatParam, which every caller runs first, refuses it twice); any other
 * naming a patient is refused, and with `strict` any other at all.
 */
function patientAlone(params: readonly [string, string][], reading: Omit<SearchReading, 'zone'>, where: { once: string; naming: string },
  checked: Readonly<Record<string, (value: string) => unknown>> = {}): string | undefined {
  let patient: string | undefined;
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (name === 'patient') {
      if (patient !== undefined) throw invalid(`Search parameter patient is given twice: ${where.once} names one patient, once, e.g. patient=Patient/<id>.`);
      patient = patientParam(name, value);
    } else if (Object.hasOwn(checked, name)) {
      // Each decides one thing, as on every search (refuseRepeats): never one of two taken.
      if (seen.has(name)) throw givenTwice(name);
      seen.add(name);
      checked[name]?.(value);
    } else if (name !== '_format') {
      const refusal = namingRefusal(where.naming, name, value, reading.isPatientIdForm);
      if (refusal !== undefined) throw refusal;
      if (reading.strict) throw invalid(`A search parameter is not one this API serves ${where.naming} (Prefer: handling=strict): see the searchParam of GET /fhir/metadata.`);
    }
  }
  return patient;
}
