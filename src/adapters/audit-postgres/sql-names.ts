import { createHash } from 'node:crypto';

/** A plain lower-case SQL name: what a schema or role of the audit store may be called. */
export const SQL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A name double-quoted for SQL. Identifiers cannot be bound as parameters, so only plain lower-case
 * names are accepted: nothing from outside can reach the statement text.
 */
function quoted(name: string, what: string, example: string): string {
  if (!SQL_NAME.test(name)) throw new TypeError(`${what} must be a lower-case SQL name such as ${example}`);
  return `"${name}"`;
}

export const quotedSchema = (schema: string): string => quoted(schema, 'audit schema', 'audit');

export const quotedRole = (role: string): string => quoted(role, 'role', 'pdas_service');

/**
 * A 64-bit advisory-lock key (decimal text, for a `bigint` parameter) for what `parts` name (a store,
 * its schema, a purpose, a patient): instances sharing a schema contend for it, tests on separate
 * schemas do not.
 */
export function advisoryKey(...parts: readonly string[]): string {
  return createHash('sha256').update(`patient-data-access:${parts.join(':')}`).digest().readBigInt64BE(0).toString();
}

/** The audit store's lock of one purpose in one schema (the text it hashes is unchanged since the first version: old and new instances contend). */
export const lockKey = (purpose: 'migrate' | 'chain', schema: string): string => advisoryKey('audit', purpose, schema);
