/**
 * How request schemas are checked: ajv, never coercing a body or header (`{"contactId": 4711}` is
 * refused, not read as text), while a query parameter declared as a number is read from its digits
 * (`limit=100`), since a query string has no other way to carry one. Errors keep the failing schema
 * (`verbose`) so the one error mapper can say what the field must be (its `x-expected`, src/http/error-mapping.ts).
 */
import { Ajv, type Options } from 'ajv';
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
const QUERY = compiledOnce((schema) => query.compile(schema));

/** The validator compiler of the API's routes. */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => (httpPart === 'querystring' ? QUERY : EXACT)(schema);
}
