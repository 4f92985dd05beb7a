/**
 * The FHIR resource type care contacts bring: the Encounter, its schema and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  codes, CodingSchema, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalReference as Ref, PeriodSchema, ReferenceSchema, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, SUBJECT, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';

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

export const ENCOUNTER_TYPES = {
  Encounter: {
    schema: EncounterSchema,
    summary: null,
    search: {
      shared: { patient: 'clinical-patient', date: 'clinical-date' },
      date: { param: 'date', elements: ['period'] },
      tokens: { status: ['status'] },
      references: {
        ...SUBJECT,
        'service-provider': ref(['serviceProvider'], 'Organization'),
        participant: ref(['participant.individual'], ...STAFF),
        location: ref(['location.location'], 'Location'),
      },
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Encounter = Static<typeof EncounterSchema>;
