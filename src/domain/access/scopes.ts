/**
 * Scopes as the API names them (`user/Appointment-read`). Every scope also counts in its SMART
 * forms (`user/Appointment.read`, `patient/Appointment.read`) and in the spellings its operation
 * lists (FHIR's `PaymentNotice`, `AuditEvent`); all are folded onto the API's name, so one
 * comparison serves every issuer. An unknown scope stays as it is and grants nothing.
 */
import type { Scope } from '../operations/operation.js';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../operations/table.js';

const FORM = /^user\/([A-Za-z]+)-(read|write)$/;

/** `user/X-read` as SMART writes it: `user/X.read` and `patient/X.read`. */
function smartForms(name: string): string[] {
  const m = FORM.exec(name);
  if (!m) throw new Error(`operation scope ${name} is not of the form user/<Resource>-read or -write`);
  return [`user/${m[1]}.${m[2]}`, `patient/${m[1]}.${m[2]}`];
}

/** Every spelling of every operation's scope, to the API's name; one spelling for two scopes is refused at start. */
export function scopeAliases(operations: Readonly<Record<OperationName, { scope: Scope }>> = OPERATIONS): ReadonlyMap<string, string> {
  const table = new Map<string, string>();
  for (const name of OPERATION_NAMES) {
    const scope = operations[name].scope;
    for (const alias of [...smartForms(scope.name), ...(scope.aliases ?? [])]) {
      const earlier = table.get(alias);
      if (earlier !== undefined && earlier !== scope.name) throw new Error(`scope ${alias} would count as both ${earlier} and ${scope.name}`);
      table.set(alias, scope.name);
    }
  }
  return table;
}

const ALIASES = scopeAliases();

export function canonicalScope(scope: string): string {
  return ALIASES.get(scope) ?? scope;
}

/** Every scope an operation needs, once each, with what it allows (the demo issuer offers exactly these). */
export function apiScopes(): ReadonlyMap<string, string> {
  return new Map(OPERATION_NAMES.map((name) => [OPERATIONS[name].scope.name, OPERATIONS[name].scope.description]));
}

/** Scopes from a `scope` string (space-separated) or `scp` (string or array), as written. */
export function rawScopesFromClaims(scope: unknown, scp: unknown): Set<string> {
  const raw: string[] = [];
  for (const value of [scope, scp]) {
    if (typeof value === 'string') raw.push(...value.split(' '));
    else if (Array.isArray(value)) raw.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return new Set(raw.filter((s) => s.length > 0));
}

/** Scopes from a `scope` string or `scp`, each folded onto the API's name (canonicalScope). */
export function scopesFromClaims(scope: unknown, scp: unknown): Set<string> {
  return new Set([...rawScopesFromClaims(scope, scp)].map(canonicalScope));
}
