/**
 * The values of the search parameters the FHIR API serves (docs/fhir-api.md#search), each validated
 * with a message that says what to send, and which of them take one value only. FHIR R4 lets a
 * server choose which parameters may repeat (SearchParameter.multipleAnd); a repeat means AND. The
 * API takes repeats of a date (a range: `date=ge…&date=lt…`), a token (`status=a&status=b`: both),
 * `identifier` (forms of one number), `_include` and `_revinclude`; `patient` (with `subject`, which
 * names the patient too), `_id`, `_count`, `_cursor` and `_format` decide one thing each, so a second
 * one is refused rather than one of them chosen.
 */
import type { ReferenceValue, TokenValue } from '../../domain/fhir/resource-search.js';
import { searchOf, type FhirType } from '../../domain/fhir/search-parameters.js';
import { namesAPerson } from '../../domain/redaction/names-a-person.js';
import { isSctid, isSnomedConceptValue, SNOMED_CT } from '../../domain/terminology/sctid.js';
import { ApiError } from '../api-error.js';

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 500;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const MAX_VALUES = 100;
/** Parameters that take one value wherever they are served; `patient` and `subject` share one. */
const SINGLE: ReadonlySet<string> = new Set(['_id', '_count', '_cursor', '_format']);

export const invalid = (message: string): ApiError => new ApiError(400, message);

/** A search value holding an identity number, refused without repeating it (no id or code of this API holds one). */
const personInValue = (param: string, snomedHint = false): ApiError => invalid(`Search parameter ${param} holds an identity number, which no id or code of this API does: `
  + 'find the Patient with Patient?identifier=<system>|<number>, then search with patient=Patient/<id>.'
  + (snomedHint ? ` If it is a SNOMED CT code, give it with its system: ${param}=${SNOMED_CT}|<code>.` : ''));

/**
 * Whether a search value (its comma-parted values, each `code` or `system|code`) names a person: the one
 * rule (names-a-person.ts), but for a SNOMED CT concept id under its own system, which is a code whatever
 * ten of its digits would say (sctid.ts). The check of a token value and of an unknown parameter's value
 * (patient-naming.ts), where a code may stand.
 */
export const searchValueNamesAPerson = (value: string): boolean => value.split(',').some((v) => !isSnomedConceptValue(v) && namesAPerson(v));

/** Whether FHIR R4 defines `subject` on `type`: where its `patient` parameter reads the `subject` element (`Condition.subject.where(resolve() is Patient)`). */
export const servesSubject = (type: FhirType): boolean =>
  (searchOf(type).references?.patient?.paths ?? []).includes('subject');

/**
 * Whether `name=value` names the search's patient by a reference parameter that may point at one
 * (`Appointment?actor=Patient/<id>`, which SMART apps send for "my appointments"): served as `patient`
 * is, the one patient of the search. Only a `Patient/` value is: a bare id stays a reference search,
 * where a Patient id is refused (referenceValues).
 */
export function namesPatientBy(type: FhirType, name: string, value: string): boolean {
  if (name === 'patient' || !value.startsWith('Patient/')) return false;
  const references = searchOf(type).references ?? {};
  return Object.hasOwn(references, name) && (references[name]?.targets ?? []).includes('Patient');
}

/**
 * The Patient id of a reference parameter that names the patient (namesPatientBy): one `Patient/<id>`,
 * as `patient` takes it; several values (another actor beside the patient, or two patients) are refused.
 */
export function patientReference(name: string, value: string): string {
  if (value.includes(',')) {
    throw invalid(`Search parameter ${name} names a patient among other values: name the patient alone (${name}=Patient/<id>, as patient=Patient/<id>), `
      + `and the other ${name} in a ${name} of its own.`);
  }
  return patientParam(name, value);
}

/** The one-value slot a served parameter fills, if it has one. */
function slotOf(type: FhirType, name: string, value: string): string | undefined {
  if ((name === 'patient' && type !== 'Patient') || (name === 'subject' && servesSubject(type)) || namesPatientBy(type, name, value)) return 'patient';
  return SINGLE.has(name) ? name : undefined;
}

/** 400 naming a parameter that takes one value and came more than once (`patient`, `subject` and `actor=Patient/<id>` count as one). */
export function refuseRepeats(type: FhirType, params: readonly [string, string][]): void {
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    const slot = slotOf(type, name, value);
    if (slot === undefined) continue;
    const first = seen.get(slot);
    if (first === undefined) {
      seen.set(slot, name);
    } else if (slot === 'patient') {
      throw invalid(`Search parameter ${first === name ? `${name} is given twice` : `${first} and ${name} both name the patient`}: a search names one patient, once, e.g. patient=Patient/<id>.`);
    } else {
      throw givenTwice(name);
    }
  }
}

/** 400 naming a parameter that takes one value and came twice. */
export const givenTwice = (name: string): ApiError =>
  invalid(`Search parameter ${name} is given twice: it takes one value${name === '_id' ? ' (several ids in one _id, separated by commas, e.g. _id=a,b)' : ''}; give it once.`);

/** A request's `_format`, given once (one that is not JSON is 406: fhir-format.ts). Every FHIR route takes it. */
export function formatParam(params: readonly [string, string][]): string | undefined {
  const formats = params.filter(([name]) => name === '_format');
  if (formats.length > 1) throw givenTwice('_format');
  return formats[0]?.[1];
}

export function tokenValues(param: string, value: string): TokenValue[] {
  const values = value.split(',');
  if (param !== 'identifier' && searchValueNamesAPerson(value)) throw personInValue(param, values.some(isSctid));
  if (values.length > MAX_VALUES) throw invalid(`Search parameter ${param} takes at most ${MAX_VALUES} values.`);
  return values.map((v) => {
    const bar = v.indexOf('|');
    const code = bar < 0 ? v : v.slice(bar + 1);
    if (code === '') throw invalid(`Search parameter ${param} must be a code or <system>|<code>, e.g. ${param}=final.`);
    return bar < 0 ? { code } : { system: v.slice(0, bar), code };
  });
}

/** The Patient id of `patient` (or `subject`): `<id>` or `Patient/<id>`. */
export function patientParam(param: string, value: string): string {
  const id = value.startsWith('Patient/') ? value.slice('Patient/'.length) : value;
  if (!FHIR_ID.test(id)) throw invalid(`Search parameter ${param} must be a Patient id, e.g. ${param}=Patient/<id> as this API's Patient resources give it.`);
  return id;
}

/**
 * A reference parameter's values (`Type/id` or `id`, several separated by commas: OR); a type the
 * parameter never points at here finds nothing. A patient is named by `patient` alone (threat 57): a value
 * that names one here, by a Patient reference, an id of a Patient id's form (genuine or not) or an identity
 * number, is refused rather than searched.
 */
export function referenceValues(param: string, value: string, targets: readonly string[], isPatientIdForm: (id: string) => boolean): ReferenceValue[] {
  if (namesAPerson(value)) throw personInValue(param);
  const values = value.split(',');
  if (values.length > MAX_VALUES) throw invalid(`Search parameter ${param} takes at most ${MAX_VALUES} values.`);
  const example = `${param}=${targets[0] ?? 'Organization'}/<id>`;
  return values.map((v) => {
    const slash = v.indexOf('/');
    const type = slash < 0 ? undefined : v.slice(0, slash);
    const id = slash < 0 ? v : v.slice(slash + 1);
    if (type === 'Patient' || (type === undefined && isPatientIdForm(id))) {
      const others = targets.filter((target) => target !== 'Patient');
      throw invalid(`Search parameter ${param} names a patient: name the patient with patient=Patient/<id> alone${others.length === 0 ? '' : `, and ${param} by ${others.join(' or ')}`}.`);
    }
    if (type !== undefined && !/^[A-Z][A-Za-z]{0,63}$/.test(type)) throw invalid(`Search parameter ${param} must be <Type>/<id> or an id, e.g. ${example}.`);
    if (!FHIR_ID.test(id)) throw invalid(`Search parameter ${param} must be <Type>/<id> or an id (1 to 64 letters, digits, '-' or '.'), e.g. ${example}.`);
    return type === undefined ? { id } : { type, id };
  });
}

export function idList(value: string): ReadonlySet<string> {
  const ids = value.split(',');
  if (ids.length > MAX_VALUES || !ids.every((id) => FHIR_ID.test(id))) throw invalid('Search parameter _id must be resource ids separated by commas, e.g. _id=abc,def.');
  if (namesAPerson(value)) throw personInValue('_id');
  return new Set(ids);
}

export function count(value: string): number {
  if (!/^\d{1,32}$/.test(value)) {
    throw invalid(`Search parameter _count must be a whole number, e.g. _count=50: 0 asks for the total alone, and a page holds at most ${MAX_COUNT}.`);
  }
  // Above the maximum it is taken as the maximum, as FHIR lets a server do (the self link says so).
  return Math.min(Number(value), MAX_COUNT);
}
