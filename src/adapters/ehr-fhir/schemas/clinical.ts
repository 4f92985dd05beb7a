/** The clinical resources of FHIR the reads map, as far as the mapping reads them. */
import { Type, type Static } from 'typebox';
import {
  AnnotationSchema, CodeableConceptSchema, CodingSchema, Extensions, FhirTime, IdentifierSchema, PeriodSchema, QuantitySchema,
  ReferenceSchema, RESOURCE_BASE,
} from './datatypes.js';

const Str = Type.Optional(Type.String());
const Ref = Type.Optional(ReferenceSchema);
const Concept = Type.Optional(CodeableConceptSchema);
const Concepts = Type.Optional(Type.Array(CodeableConceptSchema));
const Time = Type.Optional(FhirTime);

/** A code of a required binding: anything else is not this resource as FHIR defines it. */
export const codes = <const C extends string[]>(...values: C) => Type.Union(values.map((v) => Type.Literal(v)));

export const APPOINTMENT_STATUSES = [
  'proposed', 'pending', 'booked', 'arrived', 'fulfilled', 'cancelled', 'noshow', 'entered-in-error', 'checked-in', 'waitlist',
] as const;

export const AppointmentSchema = Type.Object({
  resourceType: Type.Literal('Appointment'),
  ...RESOURCE_BASE,
  status: codes(...APPOINTMENT_STATUSES),
  extension: Extensions,
  identifier: Type.Optional(Type.Array(IdentifierSchema)),
  serviceType: Concepts,
  appointmentType: Concept,
  description: Str,
  start: Time,
  end: Time,
  patientInstruction: Str,
  participant: Type.Array(Type.Object({ type: Concepts, actor: Ref })),
});

export const EncounterSchema = Type.Object({
  resourceType: Type.Literal('Encounter'),
  ...RESOURCE_BASE,
  status: codes('planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown'),
  class: CodingSchema,
  type: Concepts,
  serviceType: Concept,
  subject: Ref,
  participant: Type.Optional(Type.Array(Type.Object({ type: Concepts, individual: Ref }))),
  period: Type.Optional(PeriodSchema),
  location: Type.Optional(Type.Array(Type.Object({ location: ReferenceSchema, physicalType: Concept }))),
  hospitalization: Type.Optional(Type.Object({ dischargeDisposition: Concept })),
  serviceProvider: Ref,
});

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
  note: Type.Optional(Type.Array(AnnotationSchema)),
  reaction: Type.Optional(Type.Array(Type.Object({ description: Str, manifestation: Type.Array(CodeableConceptSchema) }))),
});

export const ObservationSchema = Type.Object({
  resourceType: Type.Literal('Observation'),
  ...RESOURCE_BASE,
  status: codes('registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'),
  identifier: Type.Optional(Type.Array(IdentifierSchema)),
  code: CodeableConceptSchema,
  subject: Ref,
  issued: Time,
  performer: Type.Optional(Type.Array(ReferenceSchema)),
  valueQuantity: Type.Optional(QuantitySchema),
  valueString: Str,
  valueInteger: Type.Optional(Type.Integer()),
  valueCodeableConcept: Concept,
  interpretation: Concepts,
  note: Type.Optional(Type.Array(AnnotationSchema)),
  referenceRange: Type.Optional(Type.Array(Type.Object({ text: Str, low: Type.Optional(QuantitySchema), high: Type.Optional(QuantitySchema) }))),
});

export const DiagnosticReportSchema = Type.Object({
  resourceType: Type.Literal('DiagnosticReport'),
  ...RESOURCE_BASE,
  status: codes('registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'),
  identifier: Type.Optional(Type.Array(IdentifierSchema)),
  subject: Ref,
  encounter: Ref,
  effectiveDateTime: Time,
  effectivePeriod: Type.Optional(PeriodSchema),
  issued: Time,
  performer: Type.Optional(Type.Array(ReferenceSchema)),
  resultsInterpreter: Type.Optional(Type.Array(ReferenceSchema)),
  result: Type.Optional(Type.Array(ReferenceSchema)),
  conclusion: Str,
});

export const ConditionSchema = Type.Object({
  resourceType: Type.Literal('Condition'),
  ...RESOURCE_BASE,
  clinicalStatus: Concept,
  verificationStatus: Concept,
  category: Concepts,
  code: Concept,
  subject: ReferenceSchema,
  encounter: Ref,
  recordedDate: Time,
  recorder: Ref,
  asserter: Ref,
});

export const ProcedureSchema = Type.Object({
  resourceType: Type.Literal('Procedure'),
  ...RESOURCE_BASE,
  status: codes('preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown'),
  code: Concept,
  subject: ReferenceSchema,
  performedDateTime: Time,
  performedPeriod: Type.Optional(PeriodSchema),
  reasonReference: Type.Optional(Type.Array(ReferenceSchema)),
});

export const SECTION_ID = 'pdas.Fhir.CompositionSection';

/** A Composition's section; sections nest to any depth, as notes' Records do. */
export const SectionSchema = Type.Cyclic({
  [SECTION_ID]: Type.Object({
    title: Str,
    text: Type.Optional(Type.Object({ div: Type.String() })),
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
});

export type Appointment = Static<typeof AppointmentSchema>;
export type Encounter = Static<typeof EncounterSchema>;
export type Flag = Static<typeof FlagSchema>;
export type AllergyIntolerance = Static<typeof AllergyIntoleranceSchema>;
export type Observation = Static<typeof ObservationSchema>;
export type DiagnosticReport = Static<typeof DiagnosticReportSchema>;
export type Condition = Static<typeof ConditionSchema>;
export type Procedure = Static<typeof ProcedureSchema>;
export type Section = Static<typeof SectionSchema>;
export type Composition = Static<typeof CompositionSchema>;
