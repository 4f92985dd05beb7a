/**
 * The FHIR resource types lab results bring: DiagnosticReport and Observation, their schemas and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  AnnotationSchema, CodeableConceptSchema, codes, IdentifierSchema, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalReference as Ref, OptionalString as Str, OptionalTime as Time, PeriodSchema, QuantitySchema, RangeSchema, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';
import { RESULTS } from './resource-types-summary.js';

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
  referenceRange: Type.Optional(Type.Array(Type.Object({
    text: Str, low: Type.Optional(QuantitySchema), high: Type.Optional(QuantitySchema), appliesTo: Concepts, age: Type.Optional(RangeSchema),
  }))),
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

export const LAB_TYPES = {
  DiagnosticReport: {
    schema: DiagnosticReportSchema,
    summary: null,
    search: {
      shared: { patient: 'clinical-patient' },
      date: { param: 'issued', elements: ['issued'] },
      tokens: { status: ['status'], category: ['category'] },
      references: { ...SUBJECT, result: ref(['result'], 'Observation'), performer: ref(['performer'], 'Organization', ...STAFF) },
    },
  },
  Observation: {
    schema: ObservationSchema,
    summary: RESULTS,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date', code: 'clinical-code' },
      date: { param: 'date', elements: ['effectiveDateTime', 'effectivePeriod', 'issued'] },
      tokens: { status: ['status'], category: ['category'], code: ['code'] },
      references: { ...SUBJECT, performer: ref(['performer'], 'Organization', ...STAFF) },
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Observation = Static<typeof ObservationSchema>;
export type DiagnosticReport = Static<typeof DiagnosticReportSchema>;
