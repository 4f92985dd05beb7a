/**
 * The FHIR resource types attention signals bring: AllergyIntolerance and Flag, their schemas and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  CodeableConceptSchema, ExtensionSchema, codes, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalReference as Ref, OptionalString as Str, OptionalTime as Time, PeriodSchema, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';
import { ALLERGIES } from './resource-types-summary.js';

export const FlagSchema = Type.Object({
  resourceType: Type.Literal('Flag'),
  ...RESOURCE_BASE,
  status: codes('active', 'inactive', 'entered-in-error'),
  category: Concepts,
  code: CodeableConceptSchema,
  subject: ReferenceSchema,
  period: Type.Optional(PeriodSchema),
  author: Ref,
});

export const AllergyIntoleranceSchema = Type.Object({
  resourceType: Type.Literal('AllergyIntolerance'),
  ...RESOURCE_BASE,
  clinicalStatus: Concept,
  verificationStatus: Concept,
  category: Type.Optional(Type.Array(codes('food', 'medication', 'environment', 'biologic'))),
  criticality: Type.Optional(codes('low', 'high', 'unable-to-assess')),
  code: Concept,
  patient: ReferenceSchema,
  recordedDate: Time,
  recorder: Ref,
  asserter: Ref,
  // The deletion's note is marked by an extension and dated (fhir.ts); other notes are read by their text.
  note: Type.Optional(Type.Array(Type.Object({ text: Type.String(), time: Time, extension: Type.Optional(Type.Array(ExtensionSchema)) }))),
  reaction: Type.Optional(Type.Array(Type.Object({
    description: Str, manifestation: Type.Array(CodeableConceptSchema), note: Type.Optional(Type.Array(Type.Object({ text: Type.String() }))),
  }))),
});

export const SIGNAL_TYPES = {
  AllergyIntolerance: {
    schema: AllergyIntoleranceSchema,
    summary: ALLERGIES,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date' },
      date: { param: 'date', elements: ['recordedDate'] },
      tokens: { category: ['category'], 'clinical-status': ['clinicalStatus'] },
      references: { patient: ref(['patient'], 'Patient'), recorder: ref(['recorder'], ...STAFF) },
    },
  },
  Flag: {
    schema: FlagSchema,
    summary: null,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date' },
      date: { param: 'date', elements: ['period'] },
      tokens: { category: ['category'], status: ['status'] },
      references: { ...SUBJECT, author: ref(['author'], 'Organization', ...STAFF) },
      // R4 defines no status or category on Flag: the API's own, as the records carry them.
      own: ['category', 'status'],
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Flag = Static<typeof FlagSchema>;
export type AllergyIntolerance = Static<typeof AllergyIntoleranceSchema>;
