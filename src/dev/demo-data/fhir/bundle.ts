/**
 * The demo people as FHIR R4 resources, made from the same description as the XML documents
 * (docs/upstream-fhir.md): the shared parties (units, locations, clinicians, products), then per
 * person the Patient and their records, then the delegation registry. As one transaction Bundle of
 * PUTs with the ids given here, so any FHIR server can load it; the development server loads the
 * resources themselves.
 */
import type { DemoClock } from '../clock.js';
import { DEMO_PEOPLE } from '../people.js';
import { appointments } from '../../../reads/appointments/demo-fhir.js';
import { diagnoses } from '../../../reads/diagnoses/demo-fhir.js';
import { admissionRooms, encounters } from '../../../reads/care-contacts/demo-fhir.js';
import type { FhirResource } from './fhir-base.js';
import { labResults } from '../../../reads/lab-results/demo-fhir.js';
import { demoMedications, medicationRequests } from '../../../reads/medications/demo-fhir.js';
import { compositions } from '../../../reads/journal-notes/demo-fhir.js';
import { patient, sharedParties } from './parties.js';
import { registry } from './registry.js';
import { relatives } from '../../../reads/patient-v2/demo-fhir.js';
import { signalRoles, signals } from '../../../reads/attention-signals/demo-fhir.js';

export { DEMO_FHIR_SETTINGS, patientId, type FhirResource } from './fhir-base.js';

export function demoFhirResources(clock: DemoClock): FhirResource[] {
  return [
    ...sharedParties(clock),
    ...signalRoles(clock),
    ...admissionRooms(clock),
    ...demoMedications(clock),
    ...DEMO_PEOPLE.flatMap((person) => [
      patient(person, clock),
      ...encounters(person, clock),
      ...appointments(person, clock),
      ...signals(person, clock),
      ...medicationRequests(person, clock),
      ...compositions(person, clock),
      ...labResults(person, clock),
      ...diagnoses(person, clock),
      ...relatives(person, clock),
    ]),
    ...registry(clock),
  ];
}

export function demoFhirBundle(clock: DemoClock): { resourceType: 'Bundle'; type: 'transaction'; entry: unknown[] } {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: demoFhirResources(clock).map((resource) => ({
      resource, request: { method: 'PUT', url: `${resource.resourceType}/${resource.id}` },
    })),
  };
}
