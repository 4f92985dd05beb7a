// The access tokens this server issued, as its own endpoints read them (introspection, revocation, the
// connected-apps page): verified with its own keys, issuer and the API's audience, the person they name
// opened from the sealed patient claim (patient-claim-seal.ts), and whether they speak for the live
// grant they name: the grant of that very person for that very app, as the API's verifier takes them.
import { createLocalJWKSet, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { GRANT_ID_CLAIM, holdsGrant, type GrantHolder } from '../../ports/access-token-verifier.port.js';
import { publicKeys } from './key-files.js';
import { patientClaimSeal } from './patient-claim-seal.js';

/** An access token of this server: its claims, whether it has a patient claim, and the person it names (undefined unless sealed for this token). */
export interface OwnToken { claims: JWTPayload; namesPerson: boolean; person: string | undefined }

/** The claims of an access token this server issued (its own keys, issuer and the API's audience), else undefined. */
export function ownAccessTokens(input: { issuer: string; audience: string; signingKeys: readonly JWK[] }): (token: string) => Promise<JWTPayload | undefined> {
  const jwks = createLocalJWKSet(publicKeys(input.signingKeys));
  return async (token) => {
    try {
      return (await jwtVerify(token, jwks, { issuer: input.issuer, audience: input.audience, typ: 'at+jwt' })).payload;
    } catch {
      return undefined;
    }
  };
}

/** An access token this server issued, read with its patient claim opened; undefined for any other token. */
export function ownTokens(input: { issuer: string; audience: string; patientClaim: string; signingKeys: readonly JWK[] }): (token: string) => Promise<OwnToken | undefined> {
  const verify = ownAccessTokens(input);
  const seal = patientClaimSeal(input.signingKeys);
  return async (token) => {
    const claims = await verify(token);
    if (claims === undefined) return undefined;
    const namesPerson = Object.hasOwn(claims, input.patientClaim);
    return { claims, namesPerson, person: namesPerson ? await seal.open(claims[input.patientClaim], claims) : undefined };
  };
}

/**
 * The grant `own` names and whose it claims to be, when it names one: its person's, for its app. A
 * person token naming none, or without its app or its person, claims a grant it cannot hold (`invalid`).
 */
export function claimedGrant(own: OwnToken): { grantId: string; holder: GrantHolder } | 'none' | 'invalid' {
  const { claims, namesPerson, person } = own;
  const grantId = claims[GRANT_ID_CLAIM];
  if (!namesPerson && !Object.hasOwn(claims, GRANT_ID_CLAIM)) return 'none';
  if (typeof grantId !== 'string' || person === undefined || typeof claims.client_id !== 'string') return 'invalid';
  return { grantId, holder: { accountId: person, clientId: claims.client_id } };
}

/**
 * Whether `own` speaks for a live grant, as the API takes it: the grant it names alive and its person's
 * for its app; a client token (no grant, no person) has none to end. A store that cannot say rejects.
 */
export async function ofLiveGrant(own: OwnToken, holderOf: (grantId: string) => Promise<GrantHolder | undefined>): Promise<boolean> {
  const claimed = claimedGrant(own);
  if (claimed === 'none') return true;
  if (claimed === 'invalid') return false;
  return holdsGrant(await holderOf(claimed.grantId), claimed.holder);
}
