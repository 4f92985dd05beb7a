/**
 * The authorization server the app sends the person's tokens to besides the FHIR server: the
 * connected-apps API with the access token (connected-apps.ts), the revocation endpoint with the
 * refresh token (sign-out.ts). Its address comes from the FHIR server's SMART configuration, and is
 * taken only when it is the issuer the person signed in at, the `iss` of their ID token: an answer
 * naming another is refused, and no token goes there (hostile review of the app's links).
 */
import { withSlash } from './server-address.js';

/** The `iss` of an ID token, read only to compare (the app verifies no signature: the token came from the token endpoint it asked). */
export function issuerOfIdToken(idToken: string | undefined): string | undefined {
  const payload = idToken?.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON document at `url` (a discovery document); throws when it is not answered. */
export async function readJson(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return await response.json() as Record<string, unknown>;
}

/** The issuer the SMART configuration of the FHIR server at `serverUrl` names, when it is `idToken`'s; else throws. */
export async function signedInIssuer(serverUrl: string, idToken: string | undefined): Promise<string> {
  const { issuer } = await readJson(`${withSlash(serverUrl)}.well-known/smart-configuration`);
  if (typeof issuer !== 'string') throw new Error('the SMART configuration names no issuer');
  if (issuer !== issuerOfIdToken(idToken)) throw new Error('the SMART configuration names another issuer than the one the person signed in at');
  return issuer;
}
