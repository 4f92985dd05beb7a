import { createHash } from 'node:crypto';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The schema name, double-quoted for SQL. Identifiers cannot be bound as parameters, so only plain
 * lower-case names are accepted: nothing from outside can reach the statement text.
 */
export function quotedSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new TypeError('audit schema must be a lower-case SQL name such as audit');
  return `"${schema}"`;
}

/**
 * A 64-bit advisory-lock key (decimal text, for a `bigint` parameter) for one purpose in one
 * schema: instances sharing a schema contend for it, tests on separate schemas do not.
 */
export function lockKey(purpose: 'migrate' | 'chain', schema: string): string {
  const digest = createHash('sha256').update(`patient-data-access:audit:${purpose}:${schema}`).digest();
  return digest.readBigInt64BE(0).toString();
}
