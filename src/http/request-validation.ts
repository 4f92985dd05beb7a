/**
 * How request schemas are checked: ajv, never coercing a body or header (`{"contactId": 4711}` is
 * refused, not read as text), while a query parameter declared as a number is read from its digits
 * (`limit=100`), since a query string has no other way to carry one. Errors keep the failing schema
 * (`verbose`) so the one error mapper can say what the field must be (its `x-expected`, src/http/error-mapping.ts).
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { EXPECTED } from '../domain/operations/parameters.js';
import { compiledOnce } from './compiled-once.js';

// As fastify's own defaults, less what would change what the caller sent; one error at a time (allErrors costs a DoS).
// `int32` documents an integer's size for client generators; minimum and maximum already bound it.
const OPTIONS: Options = {
  allErrors: false, removeAdditional: false, useDefaults: false, addUsedSchema: false, verbose: true, formats: { int32: true },
};

function ajvWith(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...OPTIONS, coerceTypes });
  ajv.addKeyword({ keyword: EXPECTED, schemaType: 'string' });
  return ajv;
}

/**
 * One pair of ajv instances for the process, and each schema's validator compiled once in it
 * (compiled-once.ts): 5 of a test worker's 140 busy seconds went to compiling them again for every app.
 */
const exact = ajvWith(false);
const query = ajvWith(true);
const EXACT = compiledOnce((schema) => exact.compile(schema));
const QUERY = compiledOnce((schema) => digitsOnly(schema, query.compile(schema)));

const DIGITS = /^[0-9]+$/;
/** Not a number in any form: the validator then refuses the member as it refuses `limit=abc`. */
const NOT_A_NUMBER = '-';

/**
 * A number in a query string is its digits alone. ajv reads a text as a number as JavaScript does, so
 * `0x5`, `1e1`, `+5`, ` 5` and `1.0` would be 5 or 10; such a member is handed to the validator as text
 * no number reads, and refused with the member's own message (the review of 2026-11-29).
 */
function digitsOnly(schema: object, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const numbers = Object.keys(properties).filter((name) => properties[name]?.type === 'integer' || properties[name]?.type === 'number');
  if (numbers.length === 0) return validate;
  const checked = ((data: unknown) => {
    if (typeof data === 'object' && data !== null) {
      const members = data as Record<string, unknown>;
      for (const name of numbers) {
        const value = members[name];
        if (typeof value === 'string' && !DIGITS.test(value)) members[name] = NOT_A_NUMBER;
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

/** The validator compiler of the API's routes. */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => (httpPart === 'querystring' ? QUERY : EXACT)(schema);
}
