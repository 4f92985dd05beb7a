// oidc-provider configuration of the demo authorization server: which clients and people exist,
// how access tokens for the API are shaped (JWT, the API's audience, 15 minutes), and SMART App
// Launch 2.2 for the patient app (docs/smart-launch.md).
import { createHmac, randomBytes } from 'node:crypto';
import { errors, interactionPolicy, type Configuration } from 'oidc-provider';
import type { StoredCredentials } from './credentials-store.js';
import { API_SCOPES, DEMO_CLIENTS, demoClient, PATIENT_APP_ID, toClientMetadata } from './demo-clients.js';
import { findDemoPerson } from './demo-persons.js';
import { INTERACTION_PATH } from './interactions.js';
import {
  appRedirectUri, audAllowed, isPersonSmartScope, isSmartAuthorization, SMART_OIDC_SCOPES, type LaunchPicks,
} from './smart-launch.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** How long a patient app may refresh without signing in again (each refresh rotates the token). */
export const REFRESH_TOKEN_TTL_SECONDS = 8 * 60 * 60;

// Only the fields of oidc-provider's objects that the functions below read.
interface ClientView { clientId: string; sectorIdentifier?: string }
interface TokenView { kind: string; accountId?: string; grantId?: string }
interface RequestView { oidc: { params?: { scope?: unknown; aud?: unknown }; entities?: { Grant?: { resources?: Record<string, string | undefined> } } } }

interface GrantLookupView {
  oidc: {
    result?: { consent?: { grantId?: string } }; params: { aud?: unknown; scope?: unknown };
    session: { grantIdFor(clientId: string): string | undefined }; client: ClientView; provider: { Grant: { find(id: string): Promise<unknown> } };
  };
}

const API_SCOPE_SET: ReadonlySet<string> = new Set(API_SCOPES);

/** The API scopes a client may be granted: every one for the docs page, its own list for a demo client (and SMART's for the patient app). */
const grantableScopes = (client: ClientView, asked: readonly string[]): readonly string[] => {
  const own = client.clientId === DOCS_CLIENT_ID ? API_SCOPES : demoClient(client.clientId)?.apiScopes ?? [];
  return client.clientId === PATIENT_APP_ID ? [...own, ...asked.filter((s) => !API_SCOPE_SET.has(s) && isPersonSmartScope(s))] : own;
};
const askedScopes = (ctx: RequestView): string[] =>
  typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter((s) => s !== '') : [];
/** What a code or refresh token exchange may carry on: the scopes granted at consent (SMART's asked ones included). */
const grantedScopes = (ctx: RequestView, indicator: string): string[] => ctx.oidc.entities?.Grant?.resources?.[indicator]?.split(' ') ?? [];

/**
 * A scope the client may not have is refused with `invalid_scope` (RFC 6749 §4.1.2.1, §5.2) rather
 * than dropped: a token without the scope asked for only earns 403s later, far from the mistake.
 */
function refuseUngrantableScopes(ctx: RequestView, client: ClientView): void {
  const asked = askedScopes(ctx);
  const oidc = client.clientId === PATIENT_APP_ID ? SMART_OIDC_SCOPES : ['openid'];
  const grantable = new Set([...oidc, ...grantableScopes(client, asked)]);
  const refused = asked.filter((scope) => !grantable.has(scope));
  if (refused.length > 0) {
    const smart = client.clientId === PATIENT_APP_ID ? ', SMART scopes such as patient/*.rs,' : '';
    throw new errors.InvalidScope(`scope not available to client ${client.clientId}: ${refused.join(' ')}; it may ask for ${oidc.join(' ')}${smart} and ${API_SCOPES.join(' ')}`,
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

interface InteractionContextView {
  oidc: { session: { accountId?: string }; account?: unknown; params: { aud?: unknown; scope?: unknown }; result?: { patient?: unknown; consent?: unknown } };
}

/** The prompt between sign-in and consent where a SMART launch picks whose record it opens (interactions.ts). */
export const PATIENT_PROMPT = 'patient';

/**
 * The sign-in page (interactions.ts) finishes a login only for a demo person; should a login that
 * names nobody reach the provider anyway, findAccount finds nobody, which would end in a server
 * error: asking for the login again is the safe answer. A SMART launch then picks its patient and
 * is consented to on every authorization: a grant is for one picked patient, never reused for another.
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
  const smart = (ctx: InteractionContextView) => isSmartAuthorization(ctx.oidc.params, API_SCOPE_SET);
  policy.add(new interactionPolicy.Prompt({ name: PATIENT_PROMPT, requestable: false }, new interactionPolicy.Check(
    'launch_patient', 'a SMART launch picks the patient whose record it opens', 'interaction_required',
    (ctx: InteractionContextView) => smart(ctx) && ctx.oidc.result?.patient === undefined,
  )), 1);
  policy.get('consent')?.checks.add(new interactionPolicy.Check(
    'smart_launch_consent', 'a SMART launch is consented to for the patient picked', 'consent_required',
    (ctx: InteractionContextView) => smart(ctx) && ctx.oidc.result?.consent === undefined,
  ));
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
  /** The service's side of a SMART launch: its FHIR base and whom a person may pick. */
  smart: SmartLaunchContext;
  picks: LaunchPicks;
}): Configuration {
  const { audience, patientClaim, credentials, docsRedirectUri, smart, picks } = input;
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
    // offline_access for the patient app only (its client alone may have refresh tokens).
    scopes: [...SMART_OIDC_SCOPES],
    // Authorization code only: no implicit or hybrid flows hand tokens to the front channel.
    responseTypes: ['code'],
    claims: { openid: ['sub'], fhirUser: ['fhirUser'] },
    // SMART's audience: the FHIR base the app means to call, checked on every SMART authorization.
    extraParams: {
      aud: (ctx: RequestView, value: unknown, client: ClientView) => {
        if (!isSmartAuthorization(ctx.oidc.params ?? {}, API_SCOPE_SET)) return;
        const base = `${smart.publicBaseUrl()}/fhir`;
        if (typeof value !== 'string' || value === '') throw new errors.InvalidRequest(`a SMART authorization names the FHIR server it is for: add aud=${base}`);
        if (!audAllowed(value, smart.publicBaseUrl())) throw new errors.InvalidRequest(`aud must be this service's FHIR base, ${base}; ${client.clientId} asked for another server`);
      },
    },
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: async (_ctx: unknown, accountId: string, client: ClientView) =>
      createHmac('sha256', credentials.pairwiseSalt)
        .update(`${client.sectorIdentifier ?? client.clientId}\n${accountId}`)
        .digest('base64url'),
    // The sign-in form's "login" is the account id: only the demo persons exist.
    findAccount: async (ctx: { oidc?: { entities?: { Grant?: { jti?: string } } } }, accountId: string) => {
      if (!findDemoPerson(accountId)) return undefined;
      const launch = picks.of(ctx.oidc?.entities?.Grant?.jti);
      return { accountId, claims: async () => ({ sub: accountId, ...(launch === undefined ? {} : { fhirUser: launch.fhirUser }) }) };
    },
    extraTokenClaims: async (_ctx: unknown, token: TokenView) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const launch = picks.of(token.grantId);
      if (launch === undefined) return { [patientClaim]: token.accountId };
      // Every token of a launch, a refresh's too, asks the registry again whether the pick still holds.
      const now = await smart.peopleFor(launch.accountId);
      if (!now.some((p) => p.patientId === launch.patientId)) {
        throw new errors.InvalidGrant('the person signed in may no longer open this patient\'s record: launch the app again and pick again');
      }
      return { [patientClaim]: token.accountId, smart_patient: launch.patientId };
    },
    // The sign-in and consent pages are the demo's own (interactions.ts), served under this path.
    interactions: { policy: demoInteractionPolicy(), url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}${interaction.uid}` },
    pkce: { required: () => true },
    // Only the docs page and the patient app, for their own public clients: their token requests are a browser's cross-origin calls.
    clientBasedCORS: (_ctx: unknown, origin: string, client: ClientView) => (client.clientId === DOCS_CLIENT_ID && origin === docsOrigin)
      || (client.clientId === PATIENT_APP_ID && origin === new URL(appRedirectUri(smart.publicBaseUrl())).origin),
    // A SMART launch's grant is for the one patient picked (interactions.ts): never the session's grant of an earlier launch.
    loadExistingGrant: async (ctx: GrantLookupView) => {
      const { result, params, session, client, provider } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? (isSmartAuthorization(params, API_SCOPE_SET) ? undefined : session.grantIdFor(client.clientId));
      return grantId === undefined ? undefined : provider.Grant.find(grantId);
    },
    // A public client's refresh token is one-use: a second use (a stolen copy) revokes the whole grant.
    rotateRefreshToken: true,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // Every access token is for the API, so userinfo (which needs an audience-less one) is off.
      userinfo: { enabled: false },
      // RFC 7009: revoking a refresh token revokes its grant, every token of the launch.
      revocation: { enabled: true, allowedPolicy: async (_ctx: unknown, client: ClientView, token: { clientId?: string }) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx: RequestView, indicator: string, client: ClientView) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          refuseUngrantableScopes(ctx, client);
          return {
            scope: [...new Set([...grantableScopes(client, askedScopes(ctx)), ...grantedScopes(ctx, indicator)])].join(' '),
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
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
    },
  };
}
