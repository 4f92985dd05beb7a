/** The verified claims of an access token that the service uses. */
export interface VerifiedToken {
  issuer: string;
  subject: string;
  clientId?: string;
  scopes: ReadonlySet<string>;
  /** The logged-in person's identity number (12 digits); absent only on a listed client's token (CONTRACT §2). */
  personId?: string;
}

export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

export interface AccessTokenVerifier {
  /** Resolves the verified claims, or rejects with InvalidTokenError. */
  verify(token: string): Promise<VerifiedToken>;
}
