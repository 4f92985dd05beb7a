/**
 * The FHIR resource type booked appointments bring: the Appointment (video meetings are Appointments too), its schema and search parameters.
 * Declared here, in the read's folder, and gathered from its operation entry's `fhirTypes`
 * (docs/architecture.md#a-read-is-one-folder).
 */
import { Type, type Static } from 'typebox';
import {
  codes, Extensions, IdentifierSchema, OptionalConcept as Concept, OptionalConcepts as Concepts, OptionalReference as Ref, OptionalString as Str, OptionalTime as Time, RESOURCE_BASE,
} from '../../domain/fhir/resources/datatypes.js';
import { ref, STAFF, type ResourceTypeDeclarations } from '../../domain/fhir/resources/resource-type.js';

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

export const APPOINTMENT_TYPES = {
  Appointment: {
    schema: AppointmentSchema,
    summary: null,
    search: {
      shared: {},
      date: { param: 'date', elements: ['start'] },
      tokens: { status: ['status'] },
      references: {
        actor: ref(['participant.actor'], 'Patient', ...STAFF, 'Location'),
        patient: ref(['participant.actor'], 'Patient'),
        practitioner: ref(['participant.actor'], 'Practitioner'),
        location: ref(['participant.actor'], 'Location'),
      },
    },
  },
} as const satisfies ResourceTypeDeclarations;

export type Appointment = Static<typeof AppointmentSchema>;
