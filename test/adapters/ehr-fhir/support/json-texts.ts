/**
 * JSON texts as a FHIR server might write them, for the properties of src/adapters/ehr-fhir/fhir-json.ts:
 * numbers with trailing zeros, exponents, a negative zero, more digits than a double keeps; keys that
 * reach a prototype; whitespace anywhere it may stand; strings that read like numbers where JSON has
 * them (`"a: 4.0, b"`, an OID).
 */
import fc from 'fast-check';

/** Numbers written as a FHIR server might: trailing zeros, exponents, a negative zero, more digits than a double keeps. */
export const numberText = fc.oneof(
  fc.integer().map(String),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.nat({ max: 3 }), fc.nat({ max: 999 })).map(([whole, zeros, rest]) => `${whole}.${'0'.repeat(zeros)}${rest}`),
  fc.tuple(fc.integer({ min: -99, max: 99 }), fc.integer({ min: -30, max: 30 })).map(([m, e]) => `${m}e${e}`),
  fc.constantFrom('4.0', '-0.0', '0.10', '1E+2', '12345678901234567890', '200.00', '0'),
);
export const space = fc.constantFrom('', '', ' ', '\n', '\t ', '\r\n  ');
/**
 * Any string a FHIR string may be: a character it may not hold makes the answer refused (fhir-json.test.ts
 * tries those), which would hide what these texts are for, the numbers.
 */
const fhirString = (maxLength: number) => fc.string({ maxLength, unit: 'binary' })
  // eslint-disable-next-line no-control-regex -- the control characters FHIR refuses are exactly what it removes
  .map((s) => (s as string & { toWellFormed(): string }).toWellFormed().replace(/[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, ''));
const keyText = fc.oneof(fc.constantFrom('a', 'value', '__proto__', 'constructor', '1', '', 'entry', 'x"y', 'k\\n'), fhirString(4))
  .map((k) => JSON.stringify(k));
/** A string whose text holds what a number's search could take for a number: `:`, `,` or `[`, then a number and what may follow one. */
const numberLikeString = fc.array(fc.oneof(numberText, fc.constantFrom(':', ',', '[', ']', '}', ' ', '\n', 'urn:oid:1.2.752.129.2.1.4.1', 'x', '"')), { maxLength: 6 })
  .map((parts) => JSON.stringify(parts.join('')));
const leaf = fc.oneof(
  numberText, fhirString(8).map((s) => JSON.stringify(s)), numberLikeString, fc.constantFrom('true', 'false', 'null'),
);
export const { json } = fc.letrec<{ json: string; array: string; object: string }>((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(fc.tuple(space, tie('json'), space), { maxLength: 6 }).map((items) => `[${items.map((i) => i.join('')).join(',')}]`),
  object: fc.array(fc.tuple(space, keyText, space, space, tie('json'), space), { maxLength: 6 })
    .map((members) => `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
}));
