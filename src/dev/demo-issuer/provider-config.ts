// oidc-provider configuration of the demo authorization server: which clients and people exist,
// and how access tokens for the API are shaped (JWT, the API's audience, 15 minutes).
import { createHmac, randomBytes } from 'node:crypto';
import { errors, interactionPolicy, type Configuration } from 'oidc-provider';
import type { StoredCredentials } from './credentials-store.js';
import { API_SCOPES, DEMO_CLIENTS, demoClient, toClientMetadata } from './demo-clients.js';
import { findDemoPerson } from './demo-persons.js';
import { INTERACTION_PATH } from './interactions.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

// Only the fields of oidc-provider's objects that the functions below read.
interface ClientView { clientId: string; sectorIdentifier?: string }
interface TokenView { kind: string; accountId?: string }
interface RequestView { oidc: { params?: { scope?: unknown } } }

/** The API scopes a client may be granted: every one for the docs page, its own list for a demo client. */
const grantableScopes = (client: ClientView): readonly string[] =>
  client.clientId === DOCS_CLIENT_ID ? API_SCOPES : demoClient(client.clientId)?.apiScopes ?? [];

/**
 * A scope the client may not have is refused with `invalid_scope` (RFC 6749 §4.1.2.1, §5.2) rather
 * than dropped: a token without the scope asked for only earns 403s later, far from the mistake.
 */
function refuseUngrantableScopes(ctx: RequestView, client: ClientView): void {
  const asked = typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter((s) => s !== '') : [];
  const grantable = new Set(['openid', ...grantableScopes(client)]);
  const refused = asked.filter((scope) => !grantable.has(scope));
  if (refused.length > 0) {
    throw new errors.InvalidScope(`scope not available to client ${client.clientId}: ${refused.join(' ')}; it may ask for openid and ${[...grantable].slice(1).join(' ')}`,
      refused.join(' '));
  }
}

/**
 * RFC 8707 wants the resource indicator to be an absolute URI, while the API's audience is a plain
 * name by default (`patient-data-access`); a URN carries the name, and `aud` stays the bare audience.
 */
export function resourceIndicatorFor(audience: string): string {
  return URL.canParse(audience) ? audience : `urn:${encodeURIComponent(audience)}`;
}

interface InteractionContextView { oidc: { session: { accountId?: string }; account?: unknown } }

/**
 * The sign-in page (interactions.ts) finishes a login only for a demo person; should a login that
 * names nobody reach the provider anyway, findAccount finds nobody, which would end in a server
 * error: asking for the login again is the safe answer.
 */
function demoInteractionPolicy(): unknown {
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'unknown_demo_person',
      'the login is not one of the demo persons',
      'login_required',
      (ctx: InteractionContextView) => Boolean(ctx.oidc.session.accountId && !ctx.oidc.account),
    ),
  );
  return policy;
}

/** The client of the API's /docs page ("Authorize"): public, PKCE, its redirect page only, opaque `sub` like the patient app's. */
export const DOCS_CLIENT_ID = 'api-docs';

// A browser page, so a web client: a native one may not use https on a loopback host, and the page is
// https once the API has TLS_CERT_FILE.
function docsClientMetadata(redirectUri: string): Record<string, unknown> {
  return {
    client_id: DOCS_CLIENT_ID, token_endpoint_auth_method: 'none', application_type: 'web', grant_types: ['authorization_code'],
    response_types: ['code'], redirect_uris: [redirectUri], subject_type: 'pairwise', scope: 'openid',
  };
}

export function buildProviderConfiguration(input: {
  audience: string;
  patientClaim: string;
  credentials: StoredCredentials;
  /** The API's /docs OAuth redirect page: "Authorize" there signs a demo person in as the `api-docs` client. */
  docsRedirectUri?: string;
}): Configuration {
  const { audience, patientClaim, credentials, docsRedirectUri } = input;
  const docsOrigin = docsRedirectUri === undefined ? undefined : new URL(docsRedirectUri).origin;
  const resource = resourceIndicatorFor(audience);

  return {
    clients: [
      ...DEMO_CLIENTS.map((client) => toClientMetadata(client, credentials.clientSecrets[client.clientId])),
      ...(docsRedirectUri === undefined ? [] : [docsClientMetadata(docsRedirectUri)]),
    ],
    jwks: { keys: credentials.signingKeys },
    // Sessions live in the in-memory adapter and end with the process, so their cookie keys may too.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // No offline_access: the demo issues no refresh tokens.
    scopes: ['openid'],
    // Authorization code only: no implicit or hybrid flows hand tokens to the front channel.
    responseTypes: ['code'],
    claims: { openid: ['sub'] },
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: async (_ctx: unknown, accountId: string, client: ClientView) =>
      createHmac('sha256', credentials.pairwiseSalt)
        .update(`${client.sectorIdentifier ?? client.clientId}\n${accountId}`)
        .digest('base64url'),
    // The sign-in form's "login" is the account id: only the demo persons exist.
    findAccount: async (_ctx: unknown, accountId: string) =>
      findDemoPerson(accountId)
        ? { accountId, claims: async () => ({ sub: accountId }) }
        : undefined,
    extraTokenClaims: async (_ctx: unknown, token: TokenView) =>
      token.kind === 'AccessToken' && token.accountId
        ? { [patientClaim]: token.accountId }
        : undefined,
    // The sign-in and consent pages are the demo's own (interactions.ts), served under this path.
    interactions: { policy: demoInteractionPolicy(), url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}${interaction.uid}` },
    pkce: { required: () => true },
    // Only the docs page, for its own public client: its token request is a browser's cross-origin call.
    clientBasedCORS: (_ctx: unknown, origin: string, client: ClientView) => client.clientId === DOCS_CLIENT_ID && origin === docsOrigin,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // Every access token is for the API, so userinfo (which needs an audience-less one) is off.
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx: RequestView, indicator: string, client: ClientView) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          refuseUngrantableScopes(ctx, client);
          return {
            scope: grantableScopes(client).join(' '),
            audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      ClientCredentials: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
      Interaction: 10 * 60,
      Session: 60 * 60,
      Grant: 60 * 60,
    },
  };
}
