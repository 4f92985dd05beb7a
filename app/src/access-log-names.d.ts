/**
 * The access log's names for operations, bases and outcomes, and the reads' sections, taken from the
 * operation table and the reads' FHIR forms when the app is built (scripts/app-names/): the app keeps
 * no copy of them.
 */
declare module 'virtual:access-log-names' {
  interface Words { sv: string; en: string }
  /** Each audited operation (its AuditEvent `subtype` code) by its name in the access log. */
  export const OPERATION_NAMES: Readonly<Record<string, Words>>;
  /** Each basis in the access log's order; the AuditEvent's agent carries the English name as `type.text`. */
  export const BASIS_NAMES: readonly Words[];
  /** Each outcome by its AuditEvent.outcome code (0, 4, 8; an event may leave it out, and is then flagged by its words). */
  export const OUTCOME_NAMES: Readonly<Record<string, Words>>;
  /** Each category a person may share (a read's scope name) by the access log's name of its read. */
  export const CATEGORY_NAMES: Readonly<Record<string, Words>>;
  /** Each read's operation name by the category that shares it. */
  export const READ_CATEGORIES: Readonly<Record<string, string>>;
  /** The patient summary's sections by their LOINC code, as each read's folder names its section. */
  export const SUMMARY_SECTIONS: Readonly<Record<string, Words>>;
  /** One of the record's sections: a read, as its folder's FHIR form describes it (src/reads/app-view.ts). */
  export interface AppRead {
    /** The read's operation name, as the access log and the sharing categories know it. */
    readonly read: string;
    /** The access log's name of the read. */
    readonly title: Words;
    /** The FHIR searches, one or more, `{id}` standing for the patient's id: the section is what they find together. */
    readonly searches: readonly [string, ...string[]];
    /** `list`, the view all reads share, or the read's own (app/src/views.ts must have each: the compiler names one it lacks). */
    // eslint-disable-next-line @typescript-eslint/consistent-type-imports -- an ambient module may not import by a relative path
    readonly view: 'list' | import('../../src/reads/app-view.js').OwnView;
    /** The types the searches match: the list view's items. */
    readonly types: readonly string[];
    /** Read keeping each decimal's digits as written (decimals.ts). */
    readonly keepsDigits: boolean;
  }
  /** The reads the app shows, in the order of their sections. */
  export const APP_READS: readonly AppRead[];
}
