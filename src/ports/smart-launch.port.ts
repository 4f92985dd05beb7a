import type { AccessBasis } from '../domain/access/relationship.js';

/** One person the signed-in person may open the record of now: themself, or someone they act for. */
export interface LaunchPerson {
  /** The FHIR API's Patient id: the picker's value, never an identity number. */
  patientId: string;
  name: string;
  /** Why they may: `self`, or the delegation registry's relationship. */
  basis: AccessBasis;
  /**
   * What of the record the person's access opens, where it is not everything: a proxy's grant its categories
   * (docs/proxies.md#what-a-grant-opens), an age limit of the release policy none of a read it takes whole
   * (docs/release-policy.md). By the API's operations and by the FHIR types they serve, parties named
   * included: the consent page's words. Absent: everything the scopes reach.
   */
  opens?: OpenedParts;
  /** The FHIR id of the RelatedPerson for the pair (the delegate's `fhirUser`); absent for `self`. */
  relatedPersonId?: string;
  /**
   * The guardian age limit of the access log withholds this patient's log from the person now, or the
   * person reads the patient as a proxy: of the grants for this patient they see (and may revoke) only
   * those they made themself (docs/smart-launch.md#connected-apps, docs/proxies.md#what-a-grant-opens).
   */
  othersGrantsWithheld?: boolean;
}

/** The operations (the COS API's names, the access log's among them) and the FHIR types an access opens. */
export interface OpenedParts {
  operations: ReadonlySet<string>;
  types: ReadonlySet<string>;
}

/**
 * A person granting an app access to a record, or withdrawing it, and each step of a launch between:
 * the pick, the token issued for a code, a refresh (docs/sign-in.md#what-the-person-sees).
 */
export interface GrantEvent {
  kind: 'granted' | 'revoked' | 'picked' | 'issued' | 'refreshed';
  /** Refused (`denied`, with the HTTP status answered) or done; done when absent. */
  outcome?: 'allowed' | 'denied';
  status?: number;
  /** The authorization server's issuer: who vouches for the person. */
  issuer: string;
  /** The signed-in person's identity number: who granted or withdrew it. */
  accountId: string;
  /**
   * Whose record: the picked person, by FHIR Patient id, and how the signed-in person stands to them.
   * Absent for a plain OAuth grant of the API's own scopes (no pick, basis `self`): the person's own
   * record, and through it those they act for, recorded in their own access log.
   */
  patientId?: string;
  /** `refused` where the person may no longer open the record (a refresh the registry now refuses). */
  basis: AccessBasis | 'refused';
  /** The signed-in person's `fhirUser` (a Patient or RelatedPerson reference): the record's actor subject; absent where the FHIR API is off. */
  fhirUser?: string;
  clientId: string;
  scopes: readonly string[];
  /** The browser's (or the revoking app's) address. */
  sourceAddress: string;
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
  /**
   * Audits a grant or its withdrawal, before it takes effect: resolves once the record is stored,
   * rejects when it cannot be (then no code is issued, nothing is revoked).
   */
  recordGrant(event: GrantEvent): Promise<void>;
  /** Whether the region offers sharing one's record (PROXY_GRANTS): where it does not, the consent page says so of sharing's scopes. */
  readonly sharingOffered: boolean;
}
