/**
 * Where each EHR adapter gets one read from (docs/architecture.md#a-read-is-one-folder): the legacy
 * EHR's document (`xml`, for the embedded EHR, `xml-http` and the simulator) and the FHIR searches
 * (`fhir`, for `fhir-r4`). An EHR without such data says so with NOT_SERVED: the read then answers `[]`
 * after the same patient check as any read (an unknown patient is still refused), and the conformance
 * kit and the tests that compare adapters take it as declared, not as a failure.
 */
import type { ReadName } from '../domain/operations/table.js';
import type { ReadPlan } from '../adapters/ehr-fhir/client/read-plan.js';
import type { XmlDocument } from '../adapters/ehr-xml/xml-source.js';
import type { FhirForm } from './as-fhir.js';

/** This EHR has no data for the read. */
export const NOT_SERVED = 'not served by this EHR';
export type NotServed = typeof NOT_SERVED;

export interface ReadSources<R extends ReadName> {
  readonly xml: XmlDocument<R> | NotServed;
  readonly fhir: ReadPlan<R> | NotServed;
  /** How the service's own FHIR API serves the read (src/reads/as-fhir.ts); NOT_SERVED leaves it out of /fhir. */
  readonly asFhir: FhirForm<R> | NotServed;
  /**
   * The read's demo data (`() => import('./demo.js')`, src/dev/demo-data/read-demo.ts says what it
   * holds): imported only when the demo data set is written, so the service never loads it otherwise.
   */
  readonly demo?: () => Promise<{ readonly demo: unknown }>;
}

/**
 * The reader of a read declared NOT_SERVED, the same in every adapter: no records. The use case has
 * made the patient check before it asks.
 */
export const noRecords = (): Promise<never[]> => Promise.resolve([]);

export const isServed = <T>(source: T | NotServed): source is T => source !== NOT_SERVED;

/** A read's FHIR form, where the service's own FHIR API serves it (its `asFhir` is not NOT_SERVED); given its sources (READ_SOURCES[read]). */
export function servedForm(sources: { readonly asFhir?: unknown }): FhirForm<ReadName> | undefined {
  const form = sources.asFhir as FhirForm<ReadName> | NotServed | undefined;
  return form !== undefined && isServed(form) ? form : undefined;
}
