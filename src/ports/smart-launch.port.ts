import type { AccessBasis } from '../domain/access/relationship.js';

/** One person the signed-in person may open the record of now: themself, or someone they act for. */
export interface LaunchPerson {
  /** The FHIR API's Patient id: the picker's value, never an identity number. */
  patientId: string;
  name: string;
  /** Why they may: `self`, or the delegation registry's relationship. */
  basis: AccessBasis;
  /** The FHIR id of the RelatedPerson for the pair (the delegate's `fhirUser`); absent for `self`. */
  relatedPersonId?: string;
}

/**
 * What a SMART launch at the demo authorization server asks of the service (docs/smart-launch.md):
 * the FHIR base an `aud` must name, and whom a person may pick.
 */
export interface SmartLaunchContext {
  /** `{PUBLIC_BASE_URL}` with its base path, no trailing slash; read when asked (the port is known once listening). */
  publicBaseUrl(): string;
  /** Everyone `identityNumber` may open now, themself first; asked anew on every pick and refresh. */
  peopleFor(identityNumber: string): Promise<LaunchPerson[]>;
}
