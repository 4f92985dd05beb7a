import type { JWTPayload } from 'jose';
import { rawScopesFromClaims, scopesFromClaims } from '../../domain/access/scopes.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { GRANT_ID_CLAIM, InvalidTokenError, type VerifiedToken } from '../../ports/access-token-verifier.port.js';

export interface TokenKindRules {
  patientClaim: string;
  /** AUTH_CLIENT_IDS: the `client_id`s (or `azp`s) whose tokens without a patient claim are client tokens. */
  clientIds: ReadonlySet<string>;
}

/**
 * docs/contract.md#token-kinds: each kind of token is identified positively. A person token carries a valid identity
 * number, as a string, in the patient claim; a client token carries no patient claim at all and a
 * listed client id. Anything else is refused, so a person token whose claim went missing or wrong (a
 * misconfigured identity provider or AUTH_PATIENT_CLAIM) can never act as a client for any patient.
 */
export function classifyToken(payload: JWTPayload, rules: TokenKindRules): VerifiedToken {
  // The caller's identity is iss + sub: a sub that is not a non-empty string identifies no one.
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new InvalidTokenError('sub is not a string', 'claims');
  const clientClaim = payload.client_id ?? payload.azp;
  const clientId = typeof clientClaim === 'string' ? clientClaim : undefined;
  const verified: VerifiedToken = { issuer: payload.iss ?? '', subject: payload.sub, scopes: scopesFromClaims(payload.scope, payload.scp) };
  if (clientId !== undefined) verified.clientId = clientId;
  verified.grantedScopes = rawScopesFromClaims(payload.scope, payload.scp);
  // A FHIR id only: anything else names no launch patient, and the FHIR API then refuses patient/ scopes.
  if (typeof payload.smart_patient === 'string' && /^[A-Za-z0-9\-.]{1,64}$/.test(payload.smart_patient)) verified.smartPatient = payload.smart_patient;
  const grantId = Object.hasOwn(payload, GRANT_ID_CLAIM) ? payload[GRANT_ID_CLAIM] : undefined;
  if (typeof grantId === 'string' && grantId !== '') verified.grantId = grantId;
  // Own members only: an inherited name (AUTH_PATIENT_CLAIM=constructor) is not a claim the token carries.
  const person = Object.hasOwn(payload, rules.patientClaim) ? payload[rules.patientClaim] : undefined;
  if (person !== undefined) {
    const personId = typeof person === 'string' ? parsePersonalIdentityNumber(person) : undefined;
    if (personId === undefined) throw new InvalidTokenError('patient claim is not a valid identity number', 'claims');
    verified.personId = personId;
    return verified;
  }
  if (clientId === undefined || !rules.clientIds.has(clientId)) throw new InvalidTokenError('no patient claim and not a listed client', 'claims');
  return verified;
}
