import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import {
  holdsGrant, InvalidTokenError, TokenStatusUnavailableError, type AccessTokenVerifier, type GrantHolder, type TokenFault, type VerifiedToken,
} from '../../ports/access-token-verifier.port.js';
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
  /** The keys themselves, when the issuer is the service's own authorization server (no fetch of its own address). */
  localJwks?: () => Promise<unknown>;
  patientClaim: string;
  /**
   * The service's own issuer only: opens its sealed patient claim (src/adapters/auth-server/patient-claim-seal.ts),
   * the identity number, or undefined when the value is not sealed for this token. Unset: the claim is read as it is.
   */
  openPatientClaim?: (sealed: unknown, claims: JWTPayload) => Promise<string | undefined>;
  /** AUTH_CLIENT_IDS: client ids whose tokens without a patient claim are client tokens; none when unset. */
  clientIds?: readonly string[];
  clock: Clock;
  fetchTimeoutMs?: number;
  cacheSize?: number;
  /** How often the keys' age is looked at, so keys 10 minutes old are refreshed even when no token needs them. */
  jwksCheckEveryMs?: number;
  onWarning: (msg: string) => void;
  /**
   * Set when the issuer is the service's own authorization server (the demo's or a region's): whose a
   * grant is while it is alive (undefined once it ended), asked of its shared store on every request,
   * cached or not, so a token of a revoked grant is refused from the next request on every instance. Its
   * person tokens must name their grant and app, and are taken only for a grant of that person and app.
   */
  grantHolder?: (grantId: string) => Promise<GrantHolder | undefined>;
}

// Only asymmetric algorithms: `none` and HS* (a shared secret, or a public key misused as one) never verify.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const ACCEPTED_TYP = new Set(['jwt', 'at+jwt', 'application/at+jwt']);
const CLOCK_SKEW_S = 60;
const MAX_TOKEN_LENGTH = 8192;

const CLAIM_FAULTS: Readonly<Record<string, TokenFault>> = { iss: 'issuer', aud: 'audience', nbf: 'not-yet-valid', exp: 'expired' };

/** Which fault jose's refusal is; anything it cannot name (a JWKS it could not fetch) counts as the key's. */
function faultOf(err: unknown): TokenFault {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return err.reason === 'missing' ? 'claims' : CLAIM_FAULTS[err.claim] ?? 'claims';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return 'form';
  return 'signature';
}

/** Verifies OAuth 2.0 JWT access tokens (RFC 9068) of one issuer against its JWKS. */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  private readonly jwks: JwksCache;
  private readonly cache: VerifiedTokenCache;
  private readonly kinds: TokenKindRules;
  private jwksUrl: string | undefined;
  private readonly stopWatching: () => void;

  constructor(private readonly options: JwtVerifierOptions) {
    this.jwksUrl = options.jwksUrl;
    this.kinds = { patientClaim: options.patientClaim, clientIds: new Set(options.clientIds ?? []) };
    this.jwks = new JwksCache(() => this.loadJwks(), options.clock, { cooldownMs: 30_000, maxAgeMs: 600_000 }, (err) =>
      options.onWarning(`JWKS refresh failed: ${err instanceof Error ? err.message : 'unknown error'}`));
    this.cache = new VerifiedTokenCache(options.cacheSize ?? 10_000);
    this.stopWatching = this.jwks.watch(options.jwksCheckEveryMs ?? 60_000);
  }

  close(): void {
    this.stopWatching();
  }

  async verify(token: string): Promise<VerifiedToken> {
    const now = this.options.clock.now();
    // Cached tokens too: a key withdrawn from the JWKS must stop working even if only they arrive.
    this.jwks.refreshIfStale();
    const cached = this.cache.get(token, now - CLOCK_SKEW_S * 1000, (keyId) => this.jwks.publishes(keyId));
    if (cached) return this.ofLiveGrant(cached);
    if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('token too long', 'form');
    let payload: JWTPayload;
    let typ: string | undefined;
    let keyId: string | undefined;
    const getKey: JWTVerifyGetKey = async (header, jws) => {
      const resolved = await this.jwks.resolve(header, jws);
      keyId = resolved.id;
      return resolved.key;
    };
    try {
      ({ payload, protectedHeader: { typ } } = await jwtVerify(token, getKey, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_S,
        currentDate: new Date(now),
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw new InvalidTokenError(err instanceof Error ? err.name : 'verification failed', faultOf(err));
    }
    if (typ !== undefined && !ACCEPTED_TYP.has(typ.toLowerCase())) throw new InvalidTokenError('unexpected typ', 'form');
    if (keyId === undefined) throw new InvalidTokenError('no key', 'signature');
    const verified = classifyToken(await this.opened(payload), this.kinds);
    this.cache.set(token, verified, (payload.exp ?? 0) * 1000, keyId);
    return this.ofLiveGrant(verified);
  }

  /**
   * A person token of the service's own server only while its grant is alive and is the token's person's
   * for the token's app (one read of the grant); a client token has no grant to end.
   */
  private async ofLiveGrant(verified: VerifiedToken): Promise<VerifiedToken> {
    const holderOf = this.options.grantHolder;
    const { personId, clientId, grantId } = verified;
    if (holderOf === undefined || personId === undefined) return verified;
    if (grantId === undefined || clientId === undefined) throw new InvalidTokenError('no grant or app named', 'claims');
    let held: GrantHolder | undefined;
    try {
      held = await holderOf(grantId);
    } catch (err) {
      throw new TokenStatusUnavailableError(err);
    }
    // Another person's or app's live grant is refused as an ended one: the token is no token of it.
    if (!holdsGrant(held, { accountId: personId, clientId })) throw new InvalidTokenError('grant ended', 'revoked');
    return verified;
  }

  /** The claims with the patient claim opened, for the service's own issuer; a value sealed for another token is refused. */
  private async opened(payload: JWTPayload): Promise<JWTPayload> {
    const open = this.options.openPatientClaim;
    const claim = this.kinds.patientClaim;
    if (open === undefined || !Object.hasOwn(payload, claim)) return payload;
    const person = await open(payload[claim], payload);
    if (person === undefined) throw new InvalidTokenError('patient claim is not sealed for this token', 'claims');
    return { ...payload, [claim]: person };
  }

  private async loadJwks(): Promise<unknown> {
    if (this.options.localJwks !== undefined) return this.options.localJwks();
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
