/**
 * The FHIR API's ids and page cursors, all keyed by FHIR_ID_SECRET (docs/fhir-api.md#ids): a
 * Patient id stands for an identity number without revealing it, a record id that is not a valid
 * FHIR id becomes a digest, and a page cursor is bound to its caller, patient and query. Instances
 * given the same secret make and accept the same ones.
 */
export interface FhirIds {
  /** The Patient id of an identity number: stable, and it reveals nothing without the key. */
  patientId(identityNumber: string): string;
  /** The identity number a Patient id was made from; undefined for any id this key did not make. */
  identityNumberOf(patientId: string): string | undefined;
  /**
   * Whether `id` has the form of a Patient id, whichever key made it or none: what a request's other
   * parameters are checked by (threat 57), because asking the key there would tell a genuine id from
   * a forged one.
   */
  hasPatientIdForm(id: string): boolean;
  /** A valid FHIR id standing for a record id that is not one. */
  recordDigest(root: string, extension: string): string;
  /** An opaque cursor for the match at `offset`, bound to `binding` (caller, patient, query). */
  sealOffset(offset: number, binding: string): string;
  /** The offset, or undefined when the cursor was altered, forged or made for another binding. */
  openOffset(cursor: string, binding: string): number | undefined;
}
