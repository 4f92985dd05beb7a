/**
 * The demo people as FHIR R4 resources, made from the same description as the XML documents
 * (docs/upstream-fhir.md): the shared parties (units, locations, clinicians, products), then per
 * person the Patient and their records, then the delegation registry. As one transaction Bundle of
 * PUTs with the ids given here, so any FHIR server can load it; the development server loads the
 * resources themselves.
 */
import type { DemoClock } from '../clock.js';
import { DEMO_PEOPLE } from '../people.js';
import type { DemoResources } from '../read-demo.js';
import { readDemos } from '../read-demos.js';
import type { FhirResource } from './fhir-base.js';
import { sharedParties } from './parties.js';
import { registry } from './registry.js';

export { DEMO_FHIR_SETTINGS, patientId, type FhirResource } from './fhir-base.js';

/** The reads' own demo resources (a read whose resources another read writes has none of its own), the patient's first. */
const RESOURCES: readonly DemoResources[] = readDemos()
  .sort(([a], [b]) => Number(b === 'getPatient') - Number(a === 'getPatient'))
  .flatMap(([, demo]) => (demo?.fhir !== undefined && 'person' in demo.fhir ? [demo.fhir] : []));

export function demoFhirResources(clock: DemoClock): FhirResource[] {
  return [
    ...sharedParties(clock),
    ...RESOURCES.flatMap((read) => read.shared?.(clock) ?? []),
    ...DEMO_PEOPLE.flatMap((person) => RESOURCES.flatMap((read) => read.person(person, clock))),
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
