/**
 * R4 datatypes written from record values, for the reads' FHIR forms: docs/upstream-fhir.md's rules
 * read backwards. A decimal as written (docs/upstream-fhir.md#text-numbers-and-codes), II(identifier)
 * and Own(resource) backwards (docs/upstream-fhir.md#rules-the-mapping-tables-use), a text as a
 * CodeableConcept, an instant, and the data-absent-reason R4 asks for where it requires an element
 * the record has no value for.
 */
import { ISO_3166, SC_CODING } from '../adapters/ehr-fhir/address.js';
import { RENDERED_VALUE } from '../adapters/ehr-fhir/rendered-value.js';
import type { AsFhirContext, RecordId } from './as-fhir.js';
import { fhirDateTime } from './as-fhir-common.js';

/** FHIR's `decimal` (and JSON's number) syntax. */
const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** What `JSON.rawJSON` makes: `JSON.stringify` writes its text as it is. */
export interface RawJson {
  readonly rawJSON: string;
}

// Node 24's JSON.rawJSON (the JSON.parse source text proposal); TypeScript's ES2023 library does not declare it yet.
const rawJson = (JSON as unknown as { rawJSON: (text: string) => RawJson }).rawJSON;

/**
 * A decimal written as the record has it: `4.0` must come back `4.0`, and a JS number would be
 * written `4`. So a text JavaScript writes differently from itself becomes `JSON.rawJSON(text)`,
 * which `JSON.stringify` (the API's serialiser) writes digit for digit; any other stays a number, as
 * every reader in this process expects. A text that is no FHIR decimal (a legacy `2,5`) is left out:
 * it has no exact FHIR form, and guessing one would change the record.
 */
export function fhirDecimal(text: string | undefined): number | RawJson | undefined {
  if (text === undefined || !DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return String(n) === text ? n : rawJson(text);
}

/** One decimal comma where FHIR has its point (`12,5`), and nothing else. */
const DECIMAL_COMMA = /^-?(0|[1-9][0-9]*),[0-9]+$/;

/**
 * A Quantity's `value` written as the record has it: a FHIR decimal as it is (fhirDecimal); a decimal
 * written with a comma (`12,5`, as Swedish EHRs write them) as its number with a point, the text as
 * written in FHIR's `rendered-value` extension on the value, which the inbound answers
 * (docs/upstream-fhir.md#text-numbers-and-codes); any other text no value, and that text in
 * `rendered-value` alone, never lost.
 */
export function fhirQuantityValue(text: string | undefined): { value?: number | RawJson; _value?: { extension: { url: string; valueString: string }[] } } {
  if (text === undefined || text === '') return {};
  const rendered = { extension: [{ url: RENDERED_VALUE, valueString: text }] };
  const pointed = DECIMAL_COMMA.test(text) ? text.replace(',', '.') : undefined;
  const value = fhirDecimal(pointed ?? text);
  // No number to give (`160/4,5`, `½`, `<5`): the text alone, which the inbound answers as written (hostile review helper-213, H4, H5).
  if (value === undefined) return { _value: rendered };
  return pointed === undefined ? { value } : { value, _value: rendered };
}

const OID = /^[0-2](\.(0|[1-9][0-9]*))+$/;

/** A root or code system as FHIR's system: an OID is `urn:oid:<root>`, any other (a URI) the system itself. */
export const systemOf = (root: string): string => (OID.test(root) ? `urn:oid:${root}` : root);

/** II(identifier) backwards. */
export const identifierOf = (id: RecordId | undefined): { system: string; value: string } | undefined =>
  (id === undefined ? undefined : { system: systemOf(id.root), value: id.extension });

/**
 * The logical id of a resource whose internal id the record holds (a unit's, a member of staff's, a
 * contact's): Own backwards, so the context decides as for every record id whether the id can be
 * shown as it is (a valid FHIR id that names no person) or only as a digest.
 */
export const logicalIdOf = (type: string, internalId: string, ctx: AsFhirContext): string =>
  ctx.idOf(type, { root: ctx.idRoot, extension: `${type}/${internalId}` });

/**
 * The logical id of a resource the record describes without an id of its own (a prescription's
 * contact, a note's value): a digest of the record's id and what part of it the resource is.
 */
export const partIdOf = (type: string, record: RecordId, part: string, ctx: AsFhirContext): string =>
  ctx.idOf(type, { root: record.root, extension: `${record.extension}#${part}` });

/** A text as a CodeableConcept: Text(x) reads `text` first. */
export const textConcept = (text: string | undefined): { text: string } | undefined => (text === undefined ? undefined : { text });

/**
 * An `instant` (`meta.lastUpdated`): a 14-digit time only; a date alone is no instant. The length
 * picks the form and fhirDateTime judges the date, so each value is checked once.
 */
export const fhirInstant = (ts: { value: string } | undefined, zone: string): string | undefined =>
  (ts !== undefined && ts.value.length === 14 ? fhirDateTime(ts, zone) : undefined);

/**
 * The element R4 requires and the record has no value for: empty but for the data-absent-reason
 * extension (`unknown`), FHIR's own way to say so, which Text(x) reads as nothing.
 */
export const UNKNOWN = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] } as const;

/**
 * A country and its code as `Address.country` (docs/upstream-fhir.md, Address, read backwards): FHIR
 * has one country, so a name goes there as written and its code beside it in FHIR's coding of a
 * string (`iso21090-SC-coding` on `_country`); a code alone is the country, coded too unless it is
 * the two capital letters the inbound reads as a code anyway.
 */
export function fhirCountry(code: string | undefined, name: string | undefined): { country?: string; _country?: { extension: object[] } } {
  const plainCode = name === undefined && code !== undefined && /^[A-Z]{2}$/.test(code);
  const coded = code === undefined || plainCode ? undefined : { extension: [{ url: SC_CODING, valueCoding: { system: ISO_3166, code } }] };
  const country = name ?? code;
  return { ...(country === undefined ? {} : { country }), ...(coded === undefined ? {} : { _country: coded }) };
}
