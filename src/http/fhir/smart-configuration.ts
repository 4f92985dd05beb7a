/**
 * `GET /fhir/.well-known/smart-configuration` (SMART App Launch 2.x discovery): where an app signs
 * its user in and gets tokens, and what this API grants. The endpoints are SMART_AUTHORIZATION_ENDPOINT
 * and SMART_TOKEN_ENDPOINT, by default those of AUTH_ISSUER's OpenID discovery.
 */
import type { SmartEndpoints } from './fhir-api.js';

export function smartConfiguration(smart: SmartEndpoints, scopes: readonly string[]): Record<string, unknown> {
  const openid = smart.issuer !== undefined && smart.jwksUri !== undefined;
  return {
    ...(openid ? { issuer: smart.issuer, jwks_uri: smart.jwksUri } : {}),
    ...(smart.authorizationEndpoint === undefined ? {} : { authorization_endpoint: smart.authorizationEndpoint }),
    ...(smart.tokenEndpoint === undefined ? {} : { token_endpoint: smart.tokenEndpoint }),
    ...(smart.revocationEndpoint === undefined ? {} : { revocation_endpoint: smart.revocationEndpoint }),
    grant_types_supported: ['authorization_code', 'client_credentials', ...(smart.offlineAccess === true ? ['refresh_token'] : [])],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    scopes_supported: ['openid', 'fhirUser', 'launch/patient', ...scopes, ...(smart.offlineAccess === true ? ['offline_access'] : [])],
    response_types_supported: ['code'],
    capabilities: [
      'launch-standalone', 'client-public', 'client-confidential-symmetric', 'context-standalone-patient',
      'permission-patient', 'permission-user', 'permission-v1', 'permission-v2', ...(smart.offlineAccess === true ? ['permission-offline'] : []),
      ...(openid ? ['sso-openid-connect'] : []),
    ],
  };
}
