/**
 * How the patient app (app/, docs/patient-app.md) shows a read: each read's FHIR form says it
 * (`app` in src/reads/<read>/as-fhir.ts), and the app's build takes every read's into
 * `virtual:access-log-names` (scripts/app-names/app-reads.ts), so a new read appears in the app with
 * no edit in app/. Its section's title is the access log's name of the read (the operation table's
 * display name), so the page and the log of who read what say the same words.
 */

/**
 * The views of reads that need their own (app/src/views.ts): every other read is shown by the view
 * all reads share (`list`, a card a resource, app/src/list-view.ts).
 */
export const OWN_VIEWS = ['appointments', 'journal-notes', 'medications', 'diagnoses', 'lab-plots'] as const;
export type OwnView = (typeof OWN_VIEWS)[number];

/**
 * A read's searches when one cannot fetch it: one a resource type it answers in (attention signals are
 * AllergyIntolerance and Flag, and a FHIR search has one type). At least one, so no read declares a
 * section it never fetches.
 */
export type AppSearches = readonly [string, ...string[]];

/** The read's own section of the record. */
export interface AppSection {
  /**
   * The FHIR search the app sends, relative to the FHIR base, `{id}` standing for the patient's id:
   * `MedicationRequest?patient={id}&_include=MedicationRequest:medication`; or its searches, sent
   * together. Their matches of the form's `types` are the section's items; what they include, what
   * the items refer to.
   */
  readonly search: string | AppSearches;
  /** `list`, the view every read shares, or the read's own, named in OWN_VIEWS. */
  readonly view: 'list' | OwnView;
  /** Where the section stands among the record's, lowest first (ties by the read's name); all stand before the summary and the access log. */
  readonly position: number;
  /** Its values are shown: each decimal keeps its digits as written (`4.0`, app/src/decimals.ts), so the app reads it itself, not through fhirclient. */
  readonly keepsDigits?: true;
}

/** The read has no section of its own in the app, and why (the page's heading shows it, or another read's section does). */
export interface NoSection {
  readonly noSection: string;
}

export type AppView = AppSection | NoSection;

export const hasSection = (view: AppView): view is AppSection => 'search' in view;
