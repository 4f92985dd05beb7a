/** The verified claims of an access token that the service uses. */
export interface VerifiedToken {
  issuer: string;
  subject: string;
  clientId?: string;
  scopes: ReadonlySet<string>;
  /** The scopes as the token wrote them, for the FHIR API's SMART reading (`patient/` and `user/` differ there). */
  grantedScopes?: ReadonlySet<string>;
  /** SMART's `smart_patient` claim: the FHIR Patient id of the launch patient the user picked. */
  smartPatient?: string;
  /** The logged-in person's identity number (12 digits); absent only on a listed client's token (docs/contract.md#token-kinds). */
  personId?: string;
}

/**
 * Why a token was refused, as the challenge's `error_description` says it (RFC 6750 §3):
 * `expired` (exp), `not-yet-valid` (nbf), `signature` (it does not verify, or its key or algorithm
 * is not the issuer's), `issuer`, `audience`, `form` (not a JWT this service takes: malformed,
 * too long, a wrong typ), `claims` (sub, exp or the patient claim missing or wrong; neither a
 * person's nor a listed client's token).
 */
export type TokenFault = 'expired' | 'not-yet-valid' | 'signature' | 'issuer' | 'audience' | 'form' | 'claims';

export class InvalidTokenError extends Error {
  constructor(message: string, readonly fault: TokenFault) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

export interface AccessTokenVerifier {
  /** Resolves the verified claims, or rejects with InvalidTokenError. */
  verify(token: string): Promise<VerifiedToken>;
}
