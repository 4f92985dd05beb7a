/**
 * What the patient app (app/) calls the access log's operations, bases and outcomes, in Swedish and
 * English: read from the operation table, the FHIR API's operations and its Subscriptions', the
 * authorization server's grants and what time does to a proxy grant (through display-names.ts)
 * each time, never copied. The app imports this as the module `virtual:access-log-names`
 * (scripts/app-names/modules.ts): its bundle gets it as plain data at build time, so it holds neither
 * a copy that could drift from the table nor the table's own modules (typebox).
 */
import { BASES, BASIS_NAMES as LOG_BASIS_NAMES, LOG_OUTCOMES, OUTCOME_NAMES as LOG_OUTCOME_NAMES, operationDisplayName } from '../../src/domain/access-log/display-names.js';
import { IPS_SECTIONS } from '../../src/domain/fhir/ips-sections.js';
import { FHIR_OPERATIONS } from '../../src/domain/operations/fhir-operations.js';
import { GRANT_OPERATIONS } from '../../src/domain/operations/grant-operations.js';
import { PROXY_EVENTS } from '../../src/domain/operations/proxy-events.js';
import { SUBSCRIPTION_OPERATIONS } from '../../src/domain/operations/subscription-operations.js';
import { OPERATION_NAMES as TABLE_OPERATIONS } from '../../src/domain/operations/table.js';
import { categoryOf, PROXY_CATEGORIES, readsOfCategory } from '../../src/domain/proxies/categories.js';
import { AUDIT_EVENT_OUTCOMES } from '../../src/http/access-log/fhir-audit-event.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { appReadsOf, type AppRead } from './app-reads.js';

interface Words { sv: string; en: string }

const words = ({ sv, en }: Words): Words => ({ sv, en });

/** Each audited operation (its AuditEvent `subtype` code) by its name in the access log. */
export const OPERATION_NAMES: Readonly<Record<string, Words>> = Object.fromEntries(
  [...TABLE_OPERATIONS, ...Object.keys(FHIR_OPERATIONS), ...Object.keys(GRANT_OPERATIONS), ...Object.keys(PROXY_EVENTS), ...SUBSCRIPTION_OPERATIONS.keys()].map((operation) => [operation, words(operationDisplayName(operation))]),
);

/** Each basis in the access log's order; the AuditEvent's agent carries the English name as `type.text`. */
export const BASIS_NAMES: readonly Words[] = BASES.map((basis) => words(LOG_BASIS_NAMES[basis]));

/** Each outcome by its AuditEvent.outcome code. */
export const OUTCOME_NAMES: Readonly<Record<string, Words>> = Object.fromEntries(
  LOG_OUTCOMES.map((outcome) => [AUDIT_EVENT_OUTCOMES[outcome], words(LOG_OUTCOME_NAMES[outcome])]),
);

/**
 * Each category a person may share (docs/proxies.md#what-a-grant-opens) by the access log's name of its
 * read, so the Sharing tab says "Lab results" where the record's section does; the Patient layouts
 * share one scope and are one category, named by the first.
 */
export const CATEGORY_NAMES: Readonly<Record<string, Words>> = Object.fromEntries(
  PROXY_CATEGORIES.map((category) => [category, words(operationDisplayName(readsOfCategory(category)[0] ?? category))]),
);

/** Each read (its operation name) by the category that shares it: which of the record's sections a proxy may see. */
export const READ_CATEGORIES: Readonly<Record<string, string>> = Object.fromEntries(
  PROXY_CATEGORIES.flatMap((category) => readsOfCategory(category).map((read) => [read, categoryOf(read)])),
);

/**
 * The patient summary's sections by their LOINC code, as the app names them: each declared with its
 * type in the read's folder (`summary.words`), so a new read's section is named with no edit in app/.
 */
export const SUMMARY_SECTIONS: Readonly<Record<string, Words>> = Object.fromEntries(IPS_SECTIONS.map((s) => [s.code, words(s.words)]));

/**
 * The record's sections, one a read, in their order: each as its folder's FHIR form describes it
 * (src/reads/app-view.ts), titled with the access log's name of the read (app-reads.ts).
 */
export const APP_READS: readonly AppRead[] = appReadsOf(READ_SOURCES, (read) => words(operationDisplayName(read)));

/** The module the app's bundle gets: the names above as data, nothing imported. */
export function namesModuleSource(): string {
  return [
    '// The access log\'s names, from the operation table at build time (scripts/app-names/names.ts).',
    `export const OPERATION_NAMES = ${JSON.stringify(OPERATION_NAMES)};`,
    `export const BASIS_NAMES = ${JSON.stringify(BASIS_NAMES)};`,
    `export const OUTCOME_NAMES = ${JSON.stringify(OUTCOME_NAMES)};`,
    `export const CATEGORY_NAMES = ${JSON.stringify(CATEGORY_NAMES)};`,
    `export const READ_CATEGORIES = ${JSON.stringify(READ_CATEGORIES)};`,
    `export const SUMMARY_SECTIONS = ${JSON.stringify(SUMMARY_SECTIONS)};`,
    `export const APP_READS = ${JSON.stringify(APP_READS)};`,
    '',
  ].join('\n');
}
