/**
 * What the patient app (app/) calls the access log's operations, bases and outcomes, in Swedish and
 * English: read from the operation table, the FHIR API's operations and the authorization server's
 * grants (through display-names.ts)
 * each time, never copied. The app imports this as the module `virtual:access-log-names`
 * (scripts/app-names/modules.ts): its bundle gets it as plain data at build time, so it holds neither
 * a copy that could drift from the table nor the table's own modules (typebox).
 */
import { BASES, BASIS_NAMES as LOG_BASIS_NAMES, LOG_OUTCOMES, OUTCOME_NAMES as LOG_OUTCOME_NAMES, operationDisplayName } from '../../src/domain/access-log/display-names.js';
import { FHIR_OPERATIONS } from '../../src/domain/operations/fhir-operations.js';
import { GRANT_OPERATIONS } from '../../src/domain/operations/grant-operations.js';
import { OPERATION_NAMES as TABLE_OPERATIONS } from '../../src/domain/operations/table.js';
import { AUDIT_EVENT_OUTCOMES } from '../../src/http/access-log/fhir-audit-event.js';

interface Words { sv: string; en: string }

const words = ({ sv, en }: Words): Words => ({ sv, en });

/** Each audited operation (its AuditEvent `subtype` code) by its name in the access log. */
export const OPERATION_NAMES: Readonly<Record<string, Words>> = Object.fromEntries(
  [...TABLE_OPERATIONS, ...Object.keys(FHIR_OPERATIONS), ...Object.keys(GRANT_OPERATIONS)].map((operation) => [operation, words(operationDisplayName(operation))]),
);

/** Each basis in the access log's order; the AuditEvent's agent carries the English name as `type.text`. */
export const BASIS_NAMES: readonly Words[] = BASES.map((basis) => words(LOG_BASIS_NAMES[basis]));

/** Each outcome by its AuditEvent.outcome code. */
export const OUTCOME_NAMES: Readonly<Record<string, Words>> = Object.fromEntries(
  LOG_OUTCOMES.map((outcome) => [AUDIT_EVENT_OUTCOMES[outcome], words(LOG_OUTCOME_NAMES[outcome])]),
);

/** The module the app's bundle gets: the names above as data, nothing imported. */
export function namesModuleSource(): string {
  return [
    '// The access log\'s names, from the operation table at build time (scripts/app-names/names.ts).',
    `export const OPERATION_NAMES = ${JSON.stringify(OPERATION_NAMES)};`,
    `export const BASIS_NAMES = ${JSON.stringify(BASIS_NAMES)};`,
    `export const OUTCOME_NAMES = ${JSON.stringify(OUTCOME_NAMES)};`,
    '',
  ].join('\n');
}
