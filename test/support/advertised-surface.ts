// What an authorization server's discovery says it does, held against what it does: every endpoint it
// names answers, the endpoints oidc-provider can serve that it does not name are 404, a grant type it
// does not name is `unsupported_grant_type`, and a DPoP proof is read only where DPoP is named.
import { request } from 'undici';
import { expect } from 'vitest';

export type Discovery = Record<string, unknown>;

export async function discoveryOf(issuer: string): Promise<Discovery> {
  return await (await request(`${issuer}/.well-known/openid-configuration`)).body.json() as Discovery;
}

/** oidc-provider's endpoints, by their discovery name, with the method each is called with and its path under the issuer. */
const LIBRARY_ENDPOINTS: ReadonlyArray<{ name: string; method: 'GET' | 'POST'; path: string }> = [
  { name: 'authorization_endpoint', method: 'GET', path: '/auth' },
  { name: 'token_endpoint', method: 'POST', path: '/token' },
  { name: 'revocation_endpoint', method: 'POST', path: '/token/revocation' },
  { name: 'introspection_endpoint', method: 'POST', path: '/token/introspection' },
  { name: 'end_session_endpoint', method: 'GET', path: '/session/end' },
  { name: 'pushed_authorization_request_endpoint', method: 'POST', path: '/request' },
  { name: 'registration_endpoint', method: 'POST', path: '/reg' },
  { name: 'userinfo_endpoint', method: 'GET', path: '/me' },
  { name: 'device_authorization_endpoint', method: 'POST', path: '/device/auth' },
  { name: 'backchannel_authentication_endpoint', method: 'POST', path: '/backchannel' },
];

async function statusOf(url: string, method: 'GET' | 'POST'): Promise<number> {
  const response = await request(url, {
    method, headers: { accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(method === 'POST' ? { body: '' } : {}),
  });
  await response.body.dump();
  return response.statusCode;
}

/**
 * Discovery names exactly `named` of oidc-provider's endpoints, each at its path; each named one answers
 * a bare call (never 404) and every other is 404. No DPoP, no `claims` or `request` parameters. The
 * discovery document, for what else a test holds it to.
 */
export async function expectOnlyNamedEndpoints(issuer: string, named: readonly string[]): Promise<Discovery> {
  const discovery = await discoveryOf(issuer);
  expect(LIBRARY_ENDPOINTS.filter((e) => typeof discovery[e.name] === 'string').map((e) => e.name).sort()).toEqual([...named].sort());
  for (const { name, method, path } of LIBRARY_ENDPOINTS) {
    const status = await statusOf(`${issuer}${path}`, method);
    if (named.includes(name)) {
      expect(discovery[name]).toBe(`${issuer}${path}`);
      expect([name, status]).not.toEqual([name, 404]);
    } else expect([name, status]).toEqual([name, 404]);
  }
  expect(discovery).not.toHaveProperty('dpop_signing_alg_values_supported');
  expect(discovery.claims_parameter_supported).toBe(false);
  expect(discovery.request_uri_parameter_supported).toBe(false);
  expect(discovery).not.toHaveProperty('request_parameter_supported');
  return discovery;
}

/** The OAuth error of a token request of `grantType` by `clientForm` (a public client's id, or a confidential one's credentials). */
export async function grantTypeError(tokenEndpoint: string, grantType: string, clientForm: Record<string, string>, headers: Record<string, string> = {}): Promise<string | undefined> {
  const response = await request(tokenEndpoint, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ grant_type: grantType, ...clientForm }).toString(),
  });
  const body = await response.body.json() as { error?: string };
  return body.error;
}

/** Grant types oidc-provider knows beside the ones a SMART server may name. */
export const OTHER_GRANT_TYPES = [
  'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:openid:params:grant-type:ciba',
  'urn:ietf:params:oauth:grant-type:token-exchange', 'implicit', 'password',
];
