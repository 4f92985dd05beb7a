/**
 * The `meta.tag` of a FHIR Bundle some of whose matches the server withheld (its release rules): this
 * service's FHIR API writes it (docs/fhir-api.md#the-same-rules-as-the-cos-api), and the `fhir-r4`
 * adapter reads it from another server (docs/upstream-fhir.md#search-and-paging).
 */
export const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' } as const;
