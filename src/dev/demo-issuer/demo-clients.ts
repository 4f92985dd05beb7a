import { API_SCOPES, type AuthClient } from '../../adapters/auth-server/clients.js';
import { appRedirectUri, isLoopbackRedirect } from '../../adapters/auth-server/smart-launch.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';

// The demo authorization server's fixed clients. Secrets are not here: they are generated on first
// start and kept in the credentials store, so no secret is ever committed to the repository.

export { API_SCOPES };

export const PATIENT_APP_REDIRECT_URI = 'http://127.0.0.1:8765/callback';
/** The public client of the patient app (SMART App Launch) and of any native or test client on loopback. */
export const PATIENT_APP_ID = 'patient-app';
/**
 * What a person reads of the patient app, in Swedish and English (RFC 7591 §2.2's language tags, as a
 * region's clients file says it): on its own page, the sign-in, picker, consent and connected-apps
 * pages and in the access log (issue 55 item 6: one name per language everywhere).
 */
export const PATIENT_APP_NAMES = { 'client_name#sv': 'Patientappen', 'client_name#en': 'Patient app' } as const;

export type DemoGrant = 'client_credentials' | 'authorization_code';

export interface DemoClientDefinition {
  clientId: string;
  grant: DemoGrant;
  confidential: boolean;
  /** API scopes this client may be granted (openid is added for authorization-code clients). */
  apiScopes: readonly string[];
}

export const DEMO_CLIENTS: readonly DemoClientDefinition[] = Object.freeze([
  {
    clientId: 'demo-integration',
    grant: 'client_credentials',
    confidential: true,
    apiScopes: API_SCOPES,
  },
  {
    clientId: 'checkin-kiosk',
    grant: 'client_credentials',
    confidential: true,
    apiScopes: [
      'user/Appointment-read',
      'user/Appointment-write',
      'user/Payment-write',
      'user/Patient-read',
    ],
  },
  {
    clientId: PATIENT_APP_ID,
    grant: 'authorization_code',
    confidential: false,
    apiScopes: API_SCOPES,
  },
]);

export function demoClient(clientId: string): DemoClientDefinition | undefined {
  return DEMO_CLIENTS.find((client) => client.clientId === clientId);
}

/** Client metadata in the form oidc-provider's `clients` configuration takes. */
export function toClientMetadata(
  client: DemoClientDefinition,
  secret: string | undefined,
): Record<string, unknown> {
  if (client.grant === 'client_credentials') {
    if (!secret) throw new Error(`demo client ${client.clientId} needs a secret`);
    return {
      client_id: client.clientId,
      client_secret: secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  return {
    client_id: client.clientId,
    ...PATIENT_APP_NAMES,
    // A public client: the secret is worthless in an app a person installs; PKCE protects the code.
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    // A refresh token only with offline_access, rotated on every use (provider-config.ts).
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // Any loopback port and path is allowed besides (RFC 8252 §7.3, demoAuthClients below), and the app's own page.
    redirect_uris: [PATIENT_APP_REDIRECT_URI],
    // Pairwise: the `sub` the API sees is an opaque id, never the person's identity number.
    subject_type: 'pairwise',
    // Client `scope` may name only OpenID scopes; API scopes are limited per client by the resource
    // server (provider-config.ts, getResourceServerInfo).
    scope: 'openid fhirUser launch/patient offline_access',
  };
}

/**
 * Where the demo patient app's notifications may go: a newcomer's receiver on loopback, at any port
 * (a loopback prefix without a port admits any, as RFC 8252 §7.3 does for redirect URIs), while
 * SUBSCRIPTION_ALLOW_LOOPBACK is true, as it is in demo mode unless set (docs/notifications.md).
 */
export const DEMO_NOTIFICATION_ENDPOINTS: readonly string[] = Object.freeze(['http://127.0.0.1/', 'http://[::1]/']);

/** The clients that get client tokens (kiosks, integrations): AUTH_CLIENT_IDS while the demo issuer runs. */
export const CLIENT_CREDENTIALS_CLIENT_IDS: readonly string[] = DEMO_CLIENTS.filter((client) => client.grant === 'client_credentials').map((client) => client.clientId);

/** The client of the API's /docs page ("Authorize"): public, PKCE, its redirect page only, opaque `sub` like the patient app's. */
export const DOCS_CLIENT_ID = 'api-docs';

// A browser page, so a web client: a native one may not use https on a loopback host, and the page is
// https once the API has TLS_CERT_FILE.
function docsClient(redirectUri: string): AuthClient {
  return {
    metadata: {
      client_id: DOCS_CLIENT_ID, 'client_name#sv': 'API-dokumentationen (/docs)', 'client_name#en': 'API documentation (/docs)', token_endpoint_auth_method: 'none', application_type: 'web', grant_types: ['authorization_code'],
      response_types: ['code'], redirect_uris: [redirectUri], subject_type: 'pairwise', scope: 'openid',
    },
    apiScopes: API_SCOPES, smart: false, corsOrigin: () => new URL(redirectUri).origin,
  };
}

/**
 * The demo clients as the authorization server takes them: the patient app is the SMART app, coming
 * back to its own page or to any loopback port and path (RFC 8252 §7.3, a native or test client),
 * and calling the token endpoint from its page's origin; the docs page's client when it is served.
 */
export function demoAuthClients(input: { clientSecrets: Record<string, string>; smart: SmartLaunchContext; docsRedirectUri?: string }): AuthClient[] {
  const { clientSecrets, smart, docsRedirectUri } = input;
  const appPage = () => appRedirectUri(smart.publicBaseUrl());
  return [
    ...DEMO_CLIENTS.map((client): AuthClient => ({
      metadata: { ...toClientMetadata(client, clientSecrets[client.clientId]), client_id: client.clientId },
      apiScopes: client.apiScopes,
      smart: client.clientId === PATIENT_APP_ID,
      ...(client.clientId === PATIENT_APP_ID ? {
        redirectAllowed: (uri: string) => isLoopbackRedirect(uri) || uri === appPage(),
        corsOrigin: () => new URL(appPage()).origin,
        managesGrants: true,
        notificationEndpoints: DEMO_NOTIFICATION_ENDPOINTS,
      } : {}),
    })),
    ...(docsRedirectUri === undefined ? [] : [docsClient(docsRedirectUri)]),
  ];
}
