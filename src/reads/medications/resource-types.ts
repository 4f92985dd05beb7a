/**
 * The FHIR resource types medications bring: MedicationRequest (with its Dosage) and Medication, their schemas and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  codes, FhirTime, FhirTimeOfDay, IdentifierSchema, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalInteger as Int, OptionalReference as Ref, OptionalString as Str, PeriodSchema, QuantitySchema, RangeSchema, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';
import { MEDICATION_SUMMARY } from './resource-types-summary.js';

export const MedicationSchema = Type.Object({
  resourceType: Type.Literal('Medication'),
  ...RESOURCE_BASE,
  code: Concept,
  form: Concept,
  ingredient: Type.Optional(Type.Array(Type.Object({
    isActive: Type.Optional(Type.Boolean()),
    strength: Type.Optional(Type.Object({ numerator: Type.Optional(QuantitySchema), denominator: Type.Optional(QuantitySchema) })),
  }))),
});

export const DosageSchema = Type.Object({
  sequence: Int,
  text: Str,
  timing: Type.Optional(Type.Object({
    repeat: Type.Optional(Type.Object({
      boundsPeriod: Type.Optional(PeriodSchema),
      boundsDuration: Type.Optional(QuantitySchema),
      frequency: Int,
      period: Type.Optional(Type.Number()),
      timeOfDay: Type.Optional(Type.Array(FhirTimeOfDay)),
    })),
  })),
  asNeededBoolean: Type.Optional(Type.Boolean()),
  route: Concept,
  doseAndRate: Type.Optional(Type.Array(Type.Object({
    doseQuantity: Type.Optional(QuantitySchema),
    doseRange: Type.Optional(RangeSchema),
  }))),
});

export const MedicationRequestSchema = Type.Object({
  resourceType: Type.Literal('MedicationRequest'),
  ...RESOURCE_BASE,
  status: codes('active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown'),
  identifier: Type.Optional(Type.Array(IdentifierSchema)),
  category: Concepts,
  medicationReference: Ref,
  medicationCodeableConcept: Concept,
  /** Resources held inside this one; a `#id` reference names one (a contained Medication). */
  contained: Type.Optional(Type.Array(Type.Object({ resourceType: Type.String() }))),
  subject: ReferenceSchema,
  encounter: Ref,
  authoredOn: Type.Optional(FhirTime),
  requester: Ref,
  reasonCode: Concepts,
  courseOfTherapyType: Concept,
  dosageInstruction: Type.Optional(Type.Array(DosageSchema)),
  dispenseRequest: Type.Optional(Type.Object({ validityPeriod: Type.Optional(PeriodSchema) })),
  substitution: Type.Optional(Type.Object({ allowedCodeableConcept: Concept })),
});

export const MEDICATION_TYPES = {
  MedicationRequest: {
    schema: MedicationRequestSchema,
    summary: MEDICATION_SUMMARY,
    search: {
      shared: { patient: 'clinical-patient', status: 'medications-status', medication: 'medications-medication', encounter: 'medications-encounter' },
      date: { param: 'authoredon', elements: ['authoredOn'] },
      tokens: { status: ['status'] },
      references: {
        ...SUBJECT, medication: ref(['medicationReference'], 'Medication'), requester: ref(['requester'], ...STAFF), encounter: ref(['encounter'], 'Encounter'),
      },
    },
  },
  Medication: {
    schema: MedicationSchema,
    summary: null,
    search: { shared: { code: 'clinical-code' }, tokens: { code: ['code'] } },
  },
} as const satisfies ResourceTypeDeclarations;

export type Medication = Static<typeof MedicationSchema>;
export type Dosage = Static<typeof DosageSchema>;
export type MedicationRequest = Static<typeof MedicationRequestSchema>;
