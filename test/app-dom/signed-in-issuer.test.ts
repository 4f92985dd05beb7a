/**
 * The app sends the person's tokens to the authorization server the FHIR server's SMART configuration
 * names only when it is the issuer they signed in at, their ID token's `iss` (app/src/signed-in-issuer.ts):
 * the access token to its connected-apps API, the refresh token to its revocation endpoint. A
 * configuration naming another issuer gets neither, and the app says what it says of any failure.
 * Failed before: both went to whatever issuer the configuration named (hostile review, finding 3).
 */
import type Client from 'fhirclient/lib/Client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listConnectedApps } from '../../app/src/connected-apps.js';
import { signOutEverywhere } from '../../app/src/sign-out.js';

const FHIR = 'http://127.0.0.1:9/fhir';
const SIGNED_IN_AT = 'http://127.0.0.1:9/auth';
const idToken = (iss: string): string => `e30.${Buffer.from(JSON.stringify({ iss, sub: 'x' })).toString('base64url')}.sig`;

interface Sent { url: string; authorization: string | null; body: string }

/** Every request answered as the FHIR server (naming `issuer`) and that issuer would, noted. */
function serving(issuer: string): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = String(input);
    sent.push({ url, authorization: new Headers(init?.headers).get('authorization'), body: String(init?.body ?? '') });
    if (url.endsWith('/smart-configuration')) return new Response(JSON.stringify({ issuer }));
    if (url.endsWith('/openid-configuration')) return new Response(JSON.stringify({ revocation_endpoint: `${issuer}/token/revocation`, end_session_endpoint: `${issuer}/session/end` }));
    return new Response(JSON.stringify({ apps: [] }));
  });
  return sent;
}

const clientOf = (iss: string): Client => ({
  state: { serverUrl: FHIR, tokenResponse: { access_token: 'the-access-token', id_token: idToken(iss) } },
  getAuthorizationHeader: () => 'Bearer the-access-token',
}) as unknown as Client;

/** fhirclient's state of a sign-in at `iss` in this tab's sessionStorage, as sign-out.ts reads it. */
function signedInTab(iss: string): void {
  const items = new Map<string, string>([['SMART_KEY', JSON.stringify('state-1')],
    ['state-1', JSON.stringify({ serverUrl: FHIR, tokenResponse: { id_token: idToken(iss), refresh_token: 'the-refresh-token' } })]]);
  vi.stubGlobal('sessionStorage', { getItem: (k: string) => items.get(k) ?? null, removeItem: (k: string) => { items.delete(k); } });
  vi.stubGlobal('location', { assign: vi.fn() });
}

const SIGN_OUT = { clientId: 'patient-app', returnTo: 'http://127.0.0.1:9/app/', lang: 'en' };

describe('the tokens go to the issuer the person signed in at, never to another the configuration names', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it('lists the connected apps at the issuer signed in at, with the access token', async () => {
    const sent = serving(SIGNED_IN_AT);
    expect(await listConnectedApps(clientOf(SIGNED_IN_AT))).toEqual([]);
    expect(sent.find((s) => s.url === `${SIGNED_IN_AT}/connected-apps`)?.authorization).toBe('Bearer the-access-token');
  });

  it('refuses to list them at another issuer: the access token never goes there', async () => {
    const sent = serving('http://127.0.0.2:9/auth');
    await expect(listConnectedApps(clientOf(SIGNED_IN_AT))).rejects.toThrow(/another issuer/);
    expect(sent.filter((s) => s.url.startsWith('http://127.0.0.2'))).toEqual([]);
  });

  it('refuses when the sign-in left no ID token to compare with', async () => {
    serving(SIGNED_IN_AT);
    const client = { state: { serverUrl: FHIR, tokenResponse: { access_token: 'a' } }, getAuthorizationHeader: () => 'Bearer a' } as unknown as Client;
    await expect(listConnectedApps(client)).rejects.toThrow(/another issuer/);
  });

  it('signs out at the issuer signed in at: the refresh token revoked there, then its end-session page', async () => {
    const sent = serving(SIGNED_IN_AT);
    signedInTab(SIGNED_IN_AT);
    expect(await signOutEverywhere(SIGN_OUT)).toBe(true);
    expect(sent.find((s) => s.url === `${SIGNED_IN_AT}/token/revocation`)?.body).toContain('token=the-refresh-token');
    expect(vi.mocked(location.assign).mock.calls[0]?.[0]).toMatch(new RegExp(`^${SIGNED_IN_AT}/session/end\\?`));
  });

  it('signs out here only when the configuration names another issuer: the refresh token never goes there', async () => {
    const sent = serving('http://127.0.0.2:9/auth');
    signedInTab(SIGNED_IN_AT);
    expect(await signOutEverywhere(SIGN_OUT)).toBe(false);
    expect(sent.filter((s) => s.url.startsWith('http://127.0.0.2'))).toEqual([]);
    expect(location.assign).not.toHaveBeenCalled();
  });
});
