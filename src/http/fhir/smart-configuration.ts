/**
 * `GET /fhir/.well-known/smart-configuration` (SMART App Launch 2.x discovery): where an app signs
 * its user in and gets tokens, and what this API grants. The endpoints are SMART_AUTHORIZATION_ENDPOINT
 * and SMART_TOKEN_ENDPOINT, by default those of AUTH_ISSUER's OpenID discovery.
 */
import type { SmartEndpoints } from './fhir-api.js';

/** What an issuer whose discovery was not read is taken to accept (the endpoints set by hand): SMART's usual methods. */
const UNKNOWN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'];

/**
 * The `client-*` capabilities of the methods the issuer accepts: no shared-secret capability where it
 * takes none, no asymmetric one where it takes no keys. Unknown methods keep SMART's usual pair.
 */
function clientCapabilities(methods: readonly string[] | undefined): string[] {
  if (methods === undefined) return ['client-public', 'client-confidential-symmetric'];
  return [
    ...(methods.includes('none') ? ['client-public'] : []),
    ...(methods.some((m) => m.startsWith('client_secret_')) ? ['client-confidential-symmetric'] : []),
    ...(methods.includes('private_key_jwt') ? ['client-confidential-asymmetric'] : []),
  ];
}

/** SMART's grant types, in the order discovery names them. */
const SMART_GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'];

/**
 * The grant types the issuer takes of SMART's: as its discovery names them, else (endpoints set by
 * hand) SMART's usual pair, with refresh tokens when the issuer hands them out.
 */
function grantTypes(smart: SmartEndpoints): string[] {
  const taken = smart.grantTypes ?? ['authorization_code', 'client_credentials', ...(smart.offlineAccess === true ? ['refresh_token'] : [])];
  return SMART_GRANT_TYPES.filter((g) => taken.includes(g));
}

export function smartConfiguration(smart: SmartEndpoints, scopes: readonly string[]): Record<string, unknown> {
  const openid = smart.issuer !== undefined && smart.jwksUri !== undefined;
  const grants = grantTypes(smart);
  // `system/` scopes are a client's own, by client credentials: named only where an issuer takes those.
  const offered = grants.includes('client_credentials') ? scopes : scopes.filter((s) => !s.startsWith('system/'));
  return {
    ...(openid ? { issuer: smart.issuer, jwks_uri: smart.jwksUri } : {}),
    ...(smart.authorizationEndpoint === undefined ? {} : { authorization_endpoint: smart.authorizationEndpoint }),
    ...(smart.tokenEndpoint === undefined ? {} : { token_endpoint: smart.tokenEndpoint }),
    ...(smart.revocationEndpoint === undefined ? {} : { revocation_endpoint: smart.revocationEndpoint }),
    ...(smart.introspectionEndpoint === undefined ? {} : { introspection_endpoint: smart.introspectionEndpoint }),
    grant_types_supported: grants,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: smart.authMethods ?? UNKNOWN_AUTH_METHODS,
    scopes_supported: ['openid', 'fhirUser', 'launch/patient', ...offered, ...(smart.offlineAccess === true ? ['offline_access'] : [])],
    response_types_supported: ['code'],
    capabilities: [
      'launch-standalone', ...clientCapabilities(smart.authMethods), 'context-standalone-patient',
      'permission-patient', 'permission-user', 'permission-v1', 'permission-v2', ...(smart.offlineAccess === true ? ['permission-offline'] : []),
      ...(openid ? ['sso-openid-connect'] : []),
    ],
  };
}
