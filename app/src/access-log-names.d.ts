/**
 * The access log's names for operations, bases and outcomes, taken from the operation table when the
 * app is built (scripts/app-names/): the app keeps no copy of them.
 */
declare module 'virtual:access-log-names' {
  interface Words { sv: string; en: string }
  /** Each audited operation (its AuditEvent `subtype` code) by its name in the access log. */
  export const OPERATION_NAMES: Readonly<Record<string, Words>>;
  /** Each basis in the access log's order; the AuditEvent's agent carries the English name as `type.text`. */
  export const BASIS_NAMES: readonly Words[];
  /** Each outcome by its AuditEvent.outcome code (0, 4, 8). */
  export const OUTCOME_NAMES: Readonly<Record<string, Words>>;
  /** Each category a person may share (a read's scope name) by the access log's name of its read. */
  export const CATEGORY_NAMES: Readonly<Record<string, Words>>;
  /** Each read's operation name by the category that shares it. */
  export const READ_CATEGORIES: Readonly<Record<string, string>>;
  /** The patient summary's sections by their LOINC code, as each read's folder names its section. */
  export const SUMMARY_SECTIONS: Readonly<Record<string, Words>>;
}
