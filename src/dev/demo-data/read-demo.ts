/**
 * What a read's folder gives the demo data set (docs/architecture.md#adding-a-read, step 4): its
 * `demo.ts`, which its `sources.ts` names as `demo`, holds the legacy EHR's document of one demo person
 * and the read's FHIR resources, both written from one description of the demo people's records.
 */
import type { ReadName } from '../../domain/operations/table.js';
import type { DemoClock } from './clock.js';
import type { FhirResource } from './fhir/fhir-base.js';
import type { DemoPerson } from './people.js';

/** The read's FHIR resources: those the demo people share (units, products), then each person's. */
export interface DemoResources {
  readonly shared?: (clock: DemoClock) => FhirResource[];
  readonly person: (person: DemoPerson, clock: DemoClock) => FhirResource[];
}

export interface ReadDemo {
  /** The read's document of one demo person, as the legacy EHR holds it, in the namespace its `sources.ts` declares. */
  readonly xml?: (person: DemoPerson, clock: DemoClock, namespace: string) => string;
  /** The read's FHIR resources, or the read whose resources answer it too (a video meeting is an Appointment). */
  readonly fhir?: DemoResources | { readonly writtenBy: ReadName };
}
