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
}
