/** Medications and prescriptions of FHIR (MedicationRequest, Medication, Dosage), as far as the mapping reads them. */
import { Type, type Static } from 'typebox';
import { codes } from './clinical.js';
import {
  CodeableConceptSchema, FhirTime, FhirTimeOfDay, IdentifierSchema, PeriodSchema, QuantitySchema, RangeSchema, ReferenceSchema,
  RESOURCE_BASE,
} from './datatypes.js';

const Str = Type.Optional(Type.String());
const Ref = Type.Optional(ReferenceSchema);
const Concept = Type.Optional(CodeableConceptSchema);
const Concepts = Type.Optional(Type.Array(CodeableConceptSchema));
const Int = Type.Optional(Type.Integer());

export const MedicationSchema = Type.Object({
  resourceType: Type.Literal('Medication'),
  ...RESOURCE_BASE,
  code: Concept,
  form: Concept,
  ingredient: Type.Optional(Type.Array(Type.Object({
    strength: Type.Optional(Type.Object({ numerator: Type.Optional(QuantitySchema) })),
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

export type Medication = Static<typeof MedicationSchema>;
export type Dosage = Static<typeof DosageSchema>;
export type MedicationRequest = Static<typeof MedicationRequestSchema>;
