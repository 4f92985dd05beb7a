/**
 * Signing out ends the sign-in at the authorization server too (OpenID Connect RP-Initiated Logout):
 * the refresh token is revoked, and the browser goes to the server's `end_session_endpoint` with the
 * ID token as a hint and this page as `post_logout_redirect_uri`, so the next "Sign in" asks who is
 * signing in again. fhirclient keeps its state in sessionStorage under SMART_KEY; it is forgotten first.
 */
import { readJson, signedInIssuer } from './signed-in-issuer.js';

const SMART_KEY = 'SMART_KEY';
/** The `state` the server hands back with the page after signing out, so the page can say so. */
export const SIGNED_OUT_STATE = 'signed-out';

interface StoredState { serverUrl?: string; tokenResponse?: { id_token?: string; refresh_token?: string } }

/** fhirclient's state of this tab's sign-in, and forgets it. */
function takeStoredState(): StoredState | undefined {
  const key = sessionStorage.getItem(SMART_KEY);
  sessionStorage.removeItem(SMART_KEY);
  if (key === null) return undefined;
  const name = JSON.parse(key) as string;
  const raw = sessionStorage.getItem(name);
  sessionStorage.removeItem(name);
  return raw === null ? undefined : JSON.parse(raw) as StoredState;
}

/** The OpenID discovery of the authorization server the person signed in at (signed-in-issuer.ts). */
export async function issuerDiscovery(serverUrl: string, idToken: string | undefined): Promise<Record<string, unknown>> {
  return readJson(`${await signedInIssuer(serverUrl, idToken)}/.well-known/openid-configuration`);
}

/**
 * Forgets the sign-in here and, when the server can end it there too, goes there (the page is left);
 * answers false when there was nothing to end at the server (the page stays, signed out).
 */
export async function signOutEverywhere(input: { clientId: string; returnTo: string; lang: string }): Promise<boolean> {
  const state = takeStoredState();
  const idToken = state?.tokenResponse?.id_token;
  if (state?.serverUrl === undefined || idToken === undefined) return false;
  let discovery: Record<string, unknown>;
  try {
    discovery = await issuerDiscovery(state.serverUrl, idToken);
  } catch {
    return false;
  }
  const { end_session_endpoint: endSession, revocation_endpoint: revocation } = discovery;
  const refresh = state.tokenResponse?.refresh_token;
  if (typeof revocation === 'string' && refresh !== undefined) {
    // RFC 7009: the token goes whether or not the server can end the session; a failure leaves it to expire.
    await fetch(revocation, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refresh, token_type_hint: 'refresh_token', client_id: input.clientId }).toString(),
    }).catch(() => undefined);
  }
  if (typeof endSession !== 'string') return false;
  const params = new URLSearchParams({
    id_token_hint: idToken, post_logout_redirect_uri: input.returnTo, client_id: input.clientId, state: SIGNED_OUT_STATE, ui_locales: input.lang,
  });
  location.assign(`${endSession}?${params.toString()}`);
  return true;
}
