/**
 * The FHIR resource type journal notes bring: the Composition, its schema and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  CodeableConceptSchema, codes, FhirTime, IdentifierSchema, OptionalReference as Ref, OptionalString as Str, OptionalTime as Time, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';

/**
 * A Composition's entries, in its sections and in the sections within them: a journal note's nested
 * Records are nested sections (as-fhir-sections.ts), whose entries the `fhir-r4` adapter follows as
 * it follows the top level's (NOTE_FOLLOWS), so `Composition:entry` includes them all, as deep as a
 * note's Records nest.
 */
const SECTION_ENTRIES = ['section.entry', 'section.section.entry', 'section.section.section.entry', 'section.section.section.section.entry'] as const;

export const SECTION_ID = 'pdas.Fhir.CompositionSection';

/** A Composition's section; sections nest to any depth, as notes' Records do. */
export const SectionSchema = Type.Cyclic({
  [SECTION_ID]: Type.Object({
    title: Str,
    /** `status` `generated`: the text restates the section's entries (R4 Narrative.status), as fhir-note-records.ts reads it. */
    text: Type.Optional(Type.Object({ status: Str, div: Type.String() })),
    entry: Type.Optional(Type.Array(ReferenceSchema)),
    section: Type.Optional(Type.Array(Type.Ref(SECTION_ID))),
  }),
}, SECTION_ID);

export const CompositionSchema = Type.Object({
  resourceType: Type.Literal('Composition'),
  ...RESOURCE_BASE,
  status: codes('preliminary', 'final', 'amended', 'entered-in-error'),
  identifier: Type.Optional(IdentifierSchema),
  type: CodeableConceptSchema,
  subject: Ref,
  encounter: Ref,
  date: FhirTime,
  author: Type.Array(ReferenceSchema),
  title: Type.String(),
  confidentiality: Str,
  attester: Type.Optional(Type.Array(Type.Object({ mode: Type.String(), time: Time, party: Ref }))),
  custodian: Ref,
  section: Type.Optional(Type.Array(SectionSchema)),
  /** Resources held inside this one; a section's `#id` entry names one (a note's value). */
  contained: Type.Optional(Type.Array(Type.Object({ resourceType: Type.String() }))),
});

export const NOTE_TYPES = {
  Composition: {
    schema: CompositionSchema,
    summary: null,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date', encounter: 'clinical-encounter' },
      date: { param: 'date', elements: ['date'] },
      tokens: { status: ['status'] },
      references: { ...SUBJECT, author: ref(['author'], ...STAFF), encounter: ref(['encounter'], 'Encounter'), entry: ref(SECTION_ENTRIES, 'Observation') },
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Section = Static<typeof SectionSchema>;
export type Composition = Static<typeof CompositionSchema>;
