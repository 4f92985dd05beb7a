/** The references each read's mapping follows (docs/upstream-fhir.md#3-the-reads), for resolving what the server did not include. */
import { referenceType } from '../resource-index.js';
import type { Section } from '../../../reads/journal-notes/resource-types.js';
import type { Reference } from '../../../domain/fhir/resources/datatypes.js';
import type { FollowRules } from './reference-resolution.js';

const STAFF_AND_PLACES: ReadonlySet<string | undefined> = new Set(['Location', 'HealthcareService', 'PractitionerRole', 'Practitioner']);

const ROLE: FollowRules = { PractitionerRole: (r) => [r.practitioner, r.organization] };
const HEAD: FollowRules = { Organization: (o) => [o.partOf] };

const sectionEntries = (sections: readonly Section[] | undefined): Reference[] =>
  (sections ?? []).flatMap((s) => [...(s.entry ?? []), ...sectionEntries(s.section)]);

/** Bookings and video meetings: the unit (through a Location, a HealthcareService or a role) and the staff. */
export const APPOINTMENT_FOLLOWS: FollowRules = {
  ...ROLE,
  Appointment: (a) => a.participant.map((p) => p.actor).filter((actor) => STAFF_AND_PLACES.has(referenceType(actor))),
  Location: (l) => [l.managingOrganization],
  HealthcareService: (h) => [h.providedBy],
};

/** The patient's managing unit and its head care provider. */
export const PATIENT_FOLLOWS: FollowRules = { ...HEAD, Patient: (p) => [p.managingOrganization] };

export const CONTACT_FOLLOWS: FollowRules = {
  ...ROLE,
  ...HEAD,
  Encounter: (e) => [e.serviceProvider, ...(e.participant ?? []).map((p) => p.individual), ...(e.location ?? []).map((l) => l.location)],
};

export const SIGNAL_FOLLOWS: FollowRules = {
  ...ROLE,
  AllergyIntolerance: (a) => [a.recorder, a.asserter],
  Flag: (f) => [f.author],
};

export const MEDICATION_FOLLOWS: FollowRules = {
  ...ROLE,
  ...HEAD,
  MedicationRequest: (m) => [m.medicationReference, m.requester, m.encounter],
};

export const NOTE_FOLLOWS: FollowRules = {
  ...ROLE,
  ...HEAD,
  Composition: (c) => [...c.author, ...(c.attester ?? []).map((a) => a.party), c.encounter, c.custodian, ...sectionEntries(c.section)],
  Encounter: (e) => [e.serviceProvider],
};

export const LAB_FOLLOWS: FollowRules = {
  ...ROLE,
  ...HEAD,
  DiagnosticReport: (d) => [...(d.result ?? []), ...(d.performer ?? []), ...(d.resultsInterpreter ?? []), d.encounter],
  Observation: (o) => o.performer ?? [],
};

export const DIAGNOSIS_FOLLOWS: FollowRules = {
  ...ROLE,
  ...HEAD,
  Condition: (c) => [c.asserter, c.recorder, c.encounter],
  Encounter: (e) => [e.serviceProvider],
};

export const REGISTRY_FOLLOWS: FollowRules = { RelatedPerson: (r) => [r.patient] };
