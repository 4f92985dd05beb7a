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
  /** The grant of the service's own authorization server the token was issued under (GRANT_ID_CLAIM), asked after on every request. */
  grantId?: string;
}

/**
 * The claim in which the service's own authorization server names a person token's grant, so that the
 * token stops the moment its grant ends (revoked, replaced, signed out), not at its expiry.
 */
export const GRANT_ID_CLAIM = 'grant_id';

/** Whose a grant of the service's own authorization server is: the person who made it (identity number) and the app it is for. */
export interface GrantHolder { accountId: string; clientId: string }

/**
 * Whether a token naming a grant speaks for the grant's own holder: the grant alive (`held`, undefined
 * when it ended) and made by the token's person for the token's app. A token naming another person's or
 * another app's live grant is no token of that grant.
 */
export const holdsGrant = (held: GrantHolder | undefined, token: GrantHolder): boolean =>
  held !== undefined && held.accountId === token.accountId && held.clientId === token.clientId;

/**
 * Why a token was refused, as the challenge's `error_description` says it (RFC 6750 §3):
 * `expired` (exp), `not-yet-valid` (nbf), `signature` (it does not verify, or its key or algorithm
 * is not the issuer's), `issuer`, `audience`, `form` (not a JWT this service takes: malformed,
 * too long, a wrong typ), `claims` (sub, exp or the patient claim missing or wrong; neither a
 * person's nor a listed client's token), `revoked` (a token of the service's own authorization server
 * whose grant has ended: revoked, replaced or signed out).
 */
export type TokenFault = 'expired' | 'not-yet-valid' | 'signature' | 'issuer' | 'audience' | 'form' | 'claims' | 'revoked';

export class InvalidTokenError extends Error {
  constructor(message: string, readonly fault: TokenFault) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

/** Whether a token's grant is alive could not be asked (the sign-in store is down): nothing is answered meanwhile. */
export class TokenStatusUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the grant of the token could not be checked', { cause });
    this.name = 'TokenStatusUnavailableError';
  }
}

export interface AccessTokenVerifier {
  /** Resolves the verified claims, or rejects with InvalidTokenError. */
  verify(token: string): Promise<VerifiedToken>;
}
