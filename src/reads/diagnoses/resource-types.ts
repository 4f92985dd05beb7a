/**
 * The FHIR resource types diagnoses bring: Condition and Procedure, their schemas and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  codes, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalReference as Ref, OptionalTime as Time, PeriodSchema, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';
import { PROBLEMS } from './resource-types-summary.js';

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

export const DIAGNOSIS_TYPES = {
  Condition: {
    schema: ConditionSchema,
    summary: PROBLEMS,
    search: {
      shared: { patient: 'clinical-patient', code: 'clinical-code' },
      date: { param: 'recorded-date', elements: ['recordedDate'] },
      tokens: { 'verification-status': ['verificationStatus'], code: ['code'] },
      references: { ...SUBJECT, asserter: ref(['asserter'], ...STAFF) },
    },
  },
  Procedure: {
    schema: ProcedureSchema,
    summary: null,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date', code: 'clinical-code' },
      date: { param: 'date', elements: ['performedDateTime', 'performedPeriod'] },
      tokens: { status: ['status'], code: ['code'] },
      references: { ...SUBJECT, 'reason-reference': ref(['reasonReference'], 'Condition') },
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Condition = Static<typeof ConditionSchema>;
export type Procedure = Static<typeof ProcedureSchema>;
