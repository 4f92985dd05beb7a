/**
 * The search parameters the FHIR API serves per resource type (docs/fhir-api.md#search): those the
 * `fhir-r4` adapter sends for the reads (docs/upstream-fhir.md §0 and §3), so the API answers its own
 * dialect, with the elements each one reads. FHIR defines search parameters per resource type, not
 * per read, so the table is by type: Appointment serves two reads, Organization every read.
 */

/** An element path below the resource, `.` between steps; an array on the way is searched in every member. */
export type ElementPath = string;

export interface TypeSearch {
  /** The date parameter (`eq|ge|gt|le|lt` prefixes) and the elements it reads: a dateTime, an instant, a date or a Period. */
  readonly date?: { readonly param: string; readonly elements: readonly ElementPath[] };
  /** Token parameters: a code, a Coding or a CodeableConcept at the elements named. */
  readonly tokens?: Readonly<Record<string, readonly ElementPath[]>>;
  /** Reference parameters, for `_include` (`Type:param`) and `_revinclude`: the Reference elements. */
  readonly references?: Readonly<Record<string, readonly ElementPath[]>>;
}

const SUBJECT = { patient: ['subject'] } as const;

/**
 * A Composition's entries, in its sections and in the sections within them: a journal note's nested
 * Records are nested sections (src/reads/journal-notes/as-fhir-sections.ts), whose entries the
 * `fhir-r4` adapter follows as it follows the top level's (NOTE_FOLLOWS), so `Composition:entry`
 * includes them all, as deep as a note's Records nest.
 */
const SECTION_ENTRIES = ['section.entry', 'section.section.entry', 'section.section.section.entry', 'section.section.section.section.entry'] as const;

/** Every type the API serves and what may be searched on it; a type absent here is not served. */
export const SEARCH_PARAMETERS = {
  Patient: { tokens: { identifier: ['identifier'] }, references: { organization: ['managingOrganization'], 'general-practitioner': ['generalPractitioner'] } },
  RelatedPerson: { tokens: { active: ['active'] }, references: { patient: ['patient'] } },
  Appointment: {
    date: { param: 'date', elements: ['start'] },
    tokens: { status: ['status'], 'service-type': ['serviceType'] },
    references: { actor: ['participant.actor'], patient: ['participant.actor'], practitioner: ['participant.actor'], location: ['participant.actor'] },
  },
  Encounter: {
    date: { param: 'date', elements: ['period'] },
    tokens: { status: ['status'], class: ['class'] },
    references: { ...SUBJECT, 'service-provider': ['serviceProvider'], participant: ['participant.individual'], location: ['location.location'] },
  },
  AllergyIntolerance: {
    date: { param: 'date', elements: ['recordedDate'] },
    tokens: { category: ['category'], 'clinical-status': ['clinicalStatus'] },
    references: { patient: ['patient'], recorder: ['recorder'], asserter: ['asserter'] },
  },
  Flag: { date: { param: 'date', elements: ['period'] }, tokens: { category: ['category'], status: ['status'] }, references: { ...SUBJECT, author: ['author'] } },
  MedicationRequest: {
    date: { param: 'authoredon', elements: ['authoredOn'] },
    tokens: { status: ['status'], category: ['category'] },
    references: { ...SUBJECT, medication: ['medicationReference'], requester: ['requester'], encounter: ['encounter'] },
  },
  Medication: { tokens: { code: ['code'] } },
  Composition: {
    date: { param: 'date', elements: ['date'] },
    tokens: { status: ['status'], category: ['category'], type: ['type'] },
    references: { ...SUBJECT, author: ['author'], attester: ['attester.party'], encounter: ['encounter'], entry: SECTION_ENTRIES },
  },
  DiagnosticReport: {
    date: { param: 'issued', elements: ['issued'] },
    tokens: { status: ['status'], category: ['category'], code: ['code'] },
    references: { ...SUBJECT, result: ['result'], performer: ['performer'], encounter: ['encounter'] },
  },
  Observation: {
    date: { param: 'date', elements: ['effectiveDateTime', 'effectivePeriod', 'issued'] },
    tokens: { status: ['status'], category: ['category'], code: ['code'] },
    references: { ...SUBJECT, performer: ['performer'], encounter: ['encounter'] },
  },
  Condition: {
    date: { param: 'recorded-date', elements: ['recordedDate'] },
    tokens: { category: ['category'], 'clinical-status': ['clinicalStatus'], 'verification-status': ['verificationStatus'], code: ['code'] },
    references: { ...SUBJECT, asserter: ['asserter'], recorder: ['recorder'], encounter: ['encounter'] },
  },
  Procedure: {
    date: { param: 'date', elements: ['performedDateTime', 'performedPeriod'] },
    tokens: { status: ['status'], code: ['code'] },
    references: { ...SUBJECT, 'reason-reference': ['reasonReference'], encounter: ['encounter'] },
  },
  AuditEvent: { date: { param: 'date', elements: ['recorded'] } },
  Organization: { references: { partof: ['partOf'] } },
  Practitioner: {},
  PractitionerRole: { references: { practitioner: ['practitioner'], organization: ['organization'], location: ['location'] } },
  Location: { references: { organization: ['managingOrganization'], partof: ['partOf'] } },
  HealthcareService: { references: { organization: ['providedBy'], location: ['location'] } },
} as const satisfies Readonly<Record<string, TypeSearch>>;

export type FhirType = keyof typeof SEARCH_PARAMETERS;
export const FHIR_TYPES = Object.keys(SEARCH_PARAMETERS) as FhirType[];
export const isFhirType = (name: string): name is FhirType => Object.hasOwn(SEARCH_PARAMETERS, name);

/** Types readable with any scope that reaches a record referencing them (docs/fhir-api.md#scopes). */
export const REFERENCED_TYPES: ReadonlySet<FhirType> = new Set(['Organization', 'Practitioner', 'PractitionerRole', 'Location', 'Medication', 'HealthcareService']);

export const searchOf = (type: FhirType): TypeSearch => SEARCH_PARAMETERS[type];
