import { jwtVerify, type JWTPayload } from 'jose';
import { InvalidTokenError, type AccessTokenVerifier, type VerifiedToken } from '../../ports/access-token-verifier.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { fetchJson } from './fetch-json.js';
import { JwksCache } from './jwks-cache.js';
import { classifyToken, type TokenKindRules } from './token-kind.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

export interface JwtVerifierOptions {
  issuer: string;
  audience: string;
  /** Unset: taken from the issuer's OpenID discovery document. */
  jwksUrl?: string;
  patientClaim: string;
  /** AUTH_CLIENT_IDS: client ids whose tokens without a patient claim are client tokens; none when unset. */
  clientIds?: readonly string[];
  clock: Clock;
  fetchTimeoutMs?: number;
  cacheSize?: number;
  onWarning: (msg: string) => void;
}

// Only asymmetric algorithms: `none` and HS* (a shared secret, or a public key misused as one) never verify.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const ACCEPTED_TYP = new Set(['jwt', 'at+jwt', 'application/at+jwt']);
const CLOCK_SKEW_S = 60;
const MAX_TOKEN_LENGTH = 8192;

/** Verifies OAuth 2.0 JWT access tokens (RFC 9068) of one issuer against its JWKS. */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  private readonly jwks: JwksCache;
  private readonly cache: VerifiedTokenCache;
  private readonly kinds: TokenKindRules;
  private jwksUrl: string | undefined;

  constructor(private readonly options: JwtVerifierOptions) {
    this.jwksUrl = options.jwksUrl;
    this.kinds = { patientClaim: options.patientClaim, clientIds: new Set(options.clientIds ?? []) };
    this.jwks = new JwksCache(() => this.loadJwks(), options.clock, { cooldownMs: 30_000, maxAgeMs: 600_000 }, (err) =>
      options.onWarning(`JWKS refresh failed: ${err instanceof Error ? err.message : 'unknown error'}`));
    this.cache = new VerifiedTokenCache(options.cacheSize ?? 10_000);
  }

  async verify(token: string): Promise<VerifiedToken> {
    const now = this.options.clock.now();
    const cached = this.cache.get(token, now - CLOCK_SKEW_S * 1000);
    if (cached) return cached;
    if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('token too long');
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      ({ payload, protectedHeader: { typ } } = await jwtVerify(token, this.jwks.getKey, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_S,
        currentDate: new Date(now),
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw new InvalidTokenError(err instanceof Error ? err.name : 'verification failed');
    }
    if (typ !== undefined && !ACCEPTED_TYP.has(typ.toLowerCase())) throw new InvalidTokenError('unexpected typ');
    const verified = classifyToken(payload, this.kinds);
    this.cache.set(token, verified, (payload.exp ?? 0) * 1000);
    return verified;
  }

  private async loadJwks(): Promise<unknown> {
    const timeout = this.options.fetchTimeoutMs ?? 5000;
    if (this.jwksUrl === undefined) {
      // OpenID Discovery §4: a terminating '/' of the issuer is removed before the well-known path is appended.
      const discovery = (await fetchJson(`${this.options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, timeout)) as
        { issuer?: unknown; jwks_uri?: unknown };
      if (discovery.issuer !== this.options.issuer || typeof discovery.jwks_uri !== 'string') {
        throw new Error('discovery document does not match the configured issuer');
      }
      this.jwksUrl = discovery.jwks_uri;
    }
    return fetchJson(this.jwksUrl, timeout);
  }
}
