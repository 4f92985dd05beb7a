/**
 * How request schemas are checked: ajv, never coercing a body or header (`{"contactId": 4711}` is
 * refused, not read as text), while a query parameter declared as a number is read from its digits
 * (`limit=100`), since a query string has no other way to carry one. Errors keep the failing schema
 * (`verbose`) so the one error mapper can say what the field must be (its `x-expected`, src/http/error-mapping.ts).
 */
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { EXPECTED } from '../domain/operations/parameters.js';

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
 * One pair of ajv instances for the process: ajv keeps what it compiled by schema object, and the
 * route schemas are module constants, so every app built in a process (a test worker builds hundreds)
 * reuses the validators the first one compiled (5 of a test worker's 140 busy seconds went to
 * compiling them again).
 */
const EXACT = ajvWith(false);
const QUERY = ajvWith(true);

/** The validator compiler of the API's routes. */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => (httpPart === 'querystring' ? QUERY : EXACT).compile(schema as object);
}
