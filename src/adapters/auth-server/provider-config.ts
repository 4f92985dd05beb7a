// oidc-provider configuration of the authorization server (the demo's and a region's): which clients
// and people exist, how access tokens for the API are shaped (JWT, the API's audience, 15 minutes),
// and SMART App Launch 2.2 for SMART apps (docs/smart-launch.md).
import { createHmac } from 'node:crypto';
import type { JWK } from 'jose';
import { errors, interactionPolicy, type Configuration } from 'oidc-provider';
import { LOCALIZED_NAMES } from './app-names.js';
import { recordSignOutEnds } from './grant-endings.js';
import { API_SCOPES, type AuthClients } from './clients.js';
import { INTERACTION_PATH } from './interactions.js';
import { patientClaimSeal } from './patient-claim-seal.js';
import { rpInitiatedLogout } from './logout-pages.js';
import type { Localized } from './page-language.js';
import { renderError } from './provider-pages.js';
import { endingLostRaces } from './raced-grants.js';
import { recordReplayEnding, recordWithdrawal, type ReplayView } from './revocation-records.js';
import { audAllowed, isPersonScope, isSmartAuthorization, SMART_OIDC_SCOPES, type LaunchPicks } from './smart-launch.js';
import { GRANT_ID_CLAIM } from '../../ports/access-token-verifier.port.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** How long a patient app may refresh without signing in again (each refresh rotates the token). */
export const REFRESH_TOKEN_TTL_SECONDS = 8 * 60 * 60;

// Only the fields of oidc-provider's objects that the functions below read.
interface ClientView { clientId: string; sectorIdentifier?: string; subjectType?: string; clientAuthMethod?: string }
interface TokenView { kind: string; accountId?: string; grantId?: string; clientId?: string }
interface JwtView { payload: Record<string, unknown> }
interface RevokedTokenView { kind: string; clientId?: string; grantId?: string; scope?: string; accountId?: string }
interface RevocationView { ip: string; oidc: { issuer: string } }
interface RequestView { oidc: { params?: { scope?: unknown; aud?: unknown; grant_type?: unknown }; entities?: { Grant?: { resources?: Record<string, string | undefined> } } } }

interface GrantLookupView {
  oidc: {
    result?: { consent?: { grantId?: string } }; params: { aud?: unknown; scope?: unknown };
    session: { grantIdFor(clientId: string): string | undefined }; client: ClientView; provider: { Grant: { find(id: string): Promise<unknown> } };
  };
}

const API_SCOPE_SET: ReadonlySet<string> = new Set(API_SCOPES);

/** The API scopes a client may be granted: its own list (and the SMART ones it asks for, for a SMART app). */
const grantableScopes = (clients: AuthClients, client: ClientView, asked: readonly string[]): readonly string[] => {
  const own = clients.get(client.clientId)?.apiScopes ?? [];
  return clients.isSmart(client.clientId)
    ? [...own, ...asked.filter((s) => !API_SCOPE_SET.has(s) && isPersonScope(s, API_SCOPE_SET) && clients.allows(client.clientId, s))]
    : own;
};
const askedScopes = (ctx: RequestView): string[] =>
  typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter((s) => s !== '') : [];
/** What a code or refresh token exchange may carry on: the scopes granted at consent (SMART's asked ones included). */
const grantedScopes = (ctx: RequestView, indicator: string): string[] => ctx.oidc.entities?.Grant?.resources?.[indicator]?.split(' ') ?? [];

/**
 * A scope the client may not have is refused with `invalid_scope` (RFC 6749 §4.1.2.1, §5.2) rather
 * than dropped: a token without the scope asked for only earns 403s later, far from the mistake.
 */
function refuseUngrantableScopes(clients: AuthClients, ctx: RequestView, client: ClientView): void {
  const asked = askedScopes(ctx);
  const oidc = clients.isSmart(client.clientId) ? SMART_OIDC_SCOPES : ['openid'];
  const allowedOidc = oidc.filter((s) => clients.allows(client.clientId, s));
  const grantable = new Set([...allowedOidc, ...grantableScopes(clients, client, asked)]);
  const refused = asked.filter((scope) => !grantable.has(scope));
  if (refused.length > 0) {
    const smart = clients.isSmart(client.clientId) ? ', and SMART scopes such as patient/*.rs' : '';
    // Its own, not every API scope: the list named the very scope refused (hostile review helper-211, F4).
    const own = (clients.get(client.clientId)?.apiScopes ?? []).filter((s) => clients.allows(client.clientId, s));
    // A client credentials grant carries no OpenID scope (helper-212, F1): only the API's are offered then.
    const offered = [...(ctx.oidc.params?.grant_type === 'client_credentials' ? [] : allowedOidc), ...own];
    throw new errors.InvalidScope(`scope not available to client ${client.clientId}: ${refused.join(' ')}; it may ask for ${offered.join(' ')}${smart}`,
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
  oidc: {
    session: { accountId?: string }; account?: unknown; params: { aud?: unknown; scope?: unknown };
    result?: { login?: unknown; patient?: unknown; consent?: unknown };
  };
}

/** The prompt between sign-in and consent where a SMART launch picks whose record it opens (interactions.ts). */
export const PATIENT_PROMPT = 'patient';

/**
 * The sign-in step (interactions.ts) finishes a login only for a person it knows; should a login that
 * names nobody reach the provider anyway, findAccount finds nobody, which would end in a server
 * error: asking for the login again is the safe answer. A SMART launch then picks its patient and
 * is consented to on every authorization: a grant is for one picked patient, never reused for another.
 *
 * `freshLogin` (the region's server): every authorization is a login of its own, as `prompt=login`
 * would ask: a session this browser holds from an earlier sign-in (someone else's, on a shared
 * computer) never opens the picker. The login of this very authorization is in its result (kept
 * through the picker and consent, each merging its submission), so the check is met once it is done.
 */
function launchInteractionPolicy(freshLogin: boolean): unknown {
  const policy = interactionPolicy.base();
  if (freshLogin) {
    policy.get('login')?.checks.add(new interactionPolicy.Check(
      'fresh_login', 'every sign-in here is a new login at the region', 'login_required',
      (ctx: InteractionContextView) => ctx.oidc.result?.login === undefined,
    ));
  }
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'unknown_person',
      'the login names nobody who may sign in',
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

/**
 * oidc-provider's cookies. On https (production) none may be set by another site: the session cookie is
 * `__Host-` (https only, this host only, Path=/, no Domain: a sibling subdomain or a plain-http page of
 * the domain cannot plant one, RFC 6265bis §4.1.3.2). The interaction and resume cookies cannot be:
 * oidc-provider scopes each to its own interaction's path (`/auth/interaction/<uid>`, `/auth/auth/<uid>`;
 * the resume cookie's path is set whatever the options say), which is what lets two sign-ins in two tabs
 * proceed apart, and `__Host-` wants Path=/. They are `__Secure-` (no plain-http answer can set them), and
 * a login finishes only in the browser holding the `__Host-` binding cookie of the region's login
 * (login-binding.ts), so one planted from a sibling subdomain signs nobody in. Plain http (loopback:
 * tests, the demo) keeps oidc-provider's names, which a browser takes there.
 */
function providerCookies(keys: string[], https: boolean): NonNullable<Configuration['cookies']> {
  if (!https) return { keys };
  const options = { httpOnly: true, sameSite: 'lax', secure: true } as const;
  return {
    keys,
    names: { session: '__Host-_session', interaction: '__Secure-_interaction', resume: '__Secure-_interaction_resume' },
    long: { ...options, path: '/' },
    short: options,
  };
}

export interface ProviderInput {
  audience: string;
  patientClaim: string;
  clients: AuthClients;
  /** Private JWKs; the first one signs, every one is published. */
  signingKeys: JWK[];
  /**
   * How clients may authenticate at the token, introspection and revocation endpoints: exactly the
   * methods its clients are registered with (discovery names these and no others).
   */
  clientAuthMethods: readonly string[];
  /** Keys of the session cookies' signatures; the first signs. */
  cookieKeys: string[];
  /** The salt of pairwise subject ids: the same person keeps the same `sub` while it is kept. */
  pairwiseSalt: string;
  /** Whether an account id (an identity number) names someone who may sign in. */
  knowsPerson(accountId: string): boolean;
  /** The service's side of a SMART launch: its FHIR base and whom a person may pick. */
  smart: SmartLaunchContext;
  picks: LaunchPicks;
  /** Where the server is mounted (`/auth` under the service), '' on a server of its own (the demo's). */
  mountPath?: string;
  /** oidc-provider's storage (postgres-models.ts); without it, its in-memory store of one process (the demo's). */
  adapter?: (model: string) => unknown;
  /** HTML above the server's own pages (the sign-in step's banner: the demo's notice), as on the sign-in pages. */
  banner?: Localized | string;
  /** Every authorization a login of its own, never the session's (the region's server; the demo reuses its session). */
  freshLogin?: boolean;
  /** The server is reached over https only: its cookies are `__Host-`/`__Secure-` and Secure. */
  https?: boolean;
  /**
   * The end of a grant that oidc-provider brings about, a replayed code or refresh token's or a sign-out's,
   * whose record the audit store refused (the grant ended all the same): for the operators' log.
   */
  onEndUnrecorded?: (error: Error, ending: 'replay' | 'signOut') => void;
}

export function buildProviderConfiguration(input: ProviderInput): Configuration {
  const { audience, patientClaim, clients, signingKeys, cookieKeys, pairwiseSalt, knowsPerson, smart, picks, adapter, mountPath = '' } = input;
  const resource = resourceIndicatorFor(audience);
  const pairwise = (accountId: string, client: ClientView): string => createHmac('sha256', pairwiseSalt)
    .update(`${client.sectorIdentifier ?? client.clientId}\n${accountId}`)
    .digest('base64url');
  const pages = { banner: input.banner ?? '', mountPath };
  const seal = patientClaimSeal(signingKeys);

  return {
    ...(adapter === undefined ? {} : { adapter: endingLostRaces(adapter, smart, picks, (error) => input.onEndUnrecorded?.(error, 'replay')) }),
    clients: clients.metadata(),
    clientAuthMethods: [...input.clientAuthMethods],
    // A client authenticating with its key is registered for RS256 (region-clients.ts): discovery names that alone.
    enabledJWA: { clientAuthSigningAlgValues: ['RS256'] },
    jwks: { keys: signingKeys },
    cookies: providerCookies(cookieKeys, input.https === true),
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
    pairwiseIdentifier: async (_ctx: unknown, accountId: string, client: ClientView) => pairwise(accountId, client),
    // A clients file's `client_name#sv` and `client_name#en`: kept on oidc-provider's clients, for the pages (app-names.ts).
    extraClientMetadata: { properties: [...LOCALIZED_NAMES] },
    // Its error page is the service's own (error-pages.ts), as every page a person can land on.
    renderError: renderError(pages),
    // The sign-in step's login is the account id: the person's identity number.
    findAccount: async (ctx: { oidc?: { entities?: { Grant?: { jti?: string } } } }, accountId: string) => {
      if (!knowsPerson(accountId)) return undefined;
      const launch = await picks.of(ctx.oidc?.entities?.Grant?.jti);
      return { accountId, claims: async () => ({ sub: accountId, ...(launch === undefined ? {} : { fhirUser: launch.fhirUser }) }) };
    },
    // A person's token names its grant: the API refuses it from the moment the grant ends (grant-endings.ts).
    extraTokenClaims: async (_ctx: unknown, token: TokenView) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const launch = await picks.of(token.grantId);
      const grant = token.grantId === undefined ? {} : { [GRANT_ID_CLAIM]: token.grantId };
      if (launch === undefined) return { [patientClaim]: token.accountId, ...grant };
      // Every token of a launch, a refresh's too, asks the registry again whether the pick still holds.
      const now = await smart.peopleFor(launch.accountId);
      if (!now.some((p) => p.patientId === launch.patientId)) {
        throw new errors.InvalidGrant('the person signed in may no longer open this patient\'s record: launch the app again and pick again');
      }
      return { [patientClaim]: token.accountId, smart_patient: launch.patientId, ...grant };
    },
    // Issue 52 item 11: the app reads its token, so the person's identity number in it is sealed, bound
    // to the token's jti and client (patient-claim-seal.ts); only the service's own doors open it.
    formats: {
      customizers: {
        jwt: async (_ctx: unknown, _token: unknown, jwt: JwtView) => {
          const person = Object.hasOwn(jwt.payload, patientClaim) ? jwt.payload[patientClaim] : undefined;
          if (typeof person === 'string') jwt.payload[patientClaim] = await seal.seal(person, jwt.payload);
        },
      },
    },
    // The sign-in, picker and consent pages are the server's own (interactions.ts), served under this path.
    interactions: { policy: launchInteractionPolicy(input.freshLogin === true), url: (_ctx: unknown, interaction: { uid: string }) => `${mountPath}${INTERACTION_PATH}${interaction.uid}` },
    pkce: { required: () => true },
    // Only a browser app's own origin, for its own client: its token requests are cross-origin calls.
    clientBasedCORS: (_ctx: unknown, origin: string, client: ClientView) => {
      const allowed = clients.get(client.clientId)?.corsOrigin?.();
      return allowed !== undefined && origin === allowed;
    },
    // A SMART launch's grant is for the one patient picked (interactions.ts): never the session's grant of an
    // earlier launch, nor taken up by a plain authorization (which would make it a plain grant, its pick lost).
    loadExistingGrant: async (ctx: GrantLookupView) => {
      const { result, params, session, client, provider } = ctx.oidc;
      const consented = result?.consent?.grantId;
      if (consented !== undefined) return provider.Grant.find(consented);
      const earlier = isSmartAuthorization(params, API_SCOPE_SET) ? undefined : session.grantIdFor(client.clientId);
      return earlier === undefined || await picks.of(earlier) !== undefined ? undefined : provider.Grant.find(earlier);
    },
    // A public client's refresh token is one-use: a second use (a stolen copy) revokes the whole grant.
    rotateRefreshToken: true,
    // Asked just before oidc-provider ends a grant. On the token endpoint that is a replayed code or refresh
    // token, on signing out a grant without refresh tokens: its end is recorded as a withdrawal first; a
    // record the audit store refuses is logged (and counted, as every refused record is) and the grant
    // ends all the same, for a stolen copy may be in use, and a person may always sign out. Elsewhere
    // oidc-provider's own rule: revoking an access token (RFC 7009) leaves its grant.
    revokeGrantPolicy: async (ctx: ReplayView & { oidc: { entities: { AccessToken?: unknown } } }) => {
      if (ctx.oidc.route === 'token') {
        await recordReplayEnding(ctx, smart, picks).catch((error: unknown) => input.onEndUnrecorded?.(error as Error, 'replay'));
      }
      if (ctx.oidc.route === 'end_session_confirm') {
        await recordSignOutEnds(ctx, ctx.oidc.provider, picks, {
          smart, issuer: ctx.oidc.issuer, onUnrecorded: (error) => input.onEndUnrecorded?.(error, 'signOut'),
        });
      }
      return !(ctx.oidc.route === 'revocation' && ctx.oidc.entities.AccessToken !== undefined);
    },
    features: {
      devInteractions: { enabled: false },
      // An app's "Sign out" ends the sign-in here too (logout-pages.ts).
      rpInitiatedLogout: rpInitiatedLogout({
        ...pages, subjectOf: async (accountId, client) => (client.subjectType === 'pairwise' ? pairwise(accountId, client) : accountId),
      }),
      // Only where a client is registered for it (the demo's integrations): no region app may use it, so
      // the region's server neither takes nor names it. What discovery names is what works (docs/sign-in.md).
      clientCredentials: { enabled: clients.metadata().some((c) => Array.isArray(c.grant_types) && c.grant_types.includes('client_credentials')) },
      // Off, as no app of this server can use them and discovery would name them: pushed authorization
      // requests (a pushed request's `aud` is not seen when it is resumed), DPoP (the API takes Bearer
      // tokens only), a `claims` parameter (the claims are the launch's), dynamic registration.
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      claimsParameter: { enabled: false },
      registration: { enabled: false },
      // Every access token is for the API, so userinfo (which needs an audience-less one) is off.
      userinfo: { enabled: false },
      // RFC 7009: revoking a refresh token revokes its grant, every token of it; audited first, a plain grant's too (a refusing store: 500, not revoked).
      // An access token (a JWT, which oidc-provider refuses as structured) ends its grant the same way: access-token-revocation.ts.
      revocation: {
        enabled: true,
        allowedPolicy: async (ctx: RevocationView, client: ClientView, token: RevokedTokenView) => {
          if (token.clientId !== client.clientId) return false;
          if (token.kind === 'RefreshToken') {
            await recordWithdrawal(smart, picks, {
              issuer: ctx.oidc.issuer, grantId: token.grantId, clientId: client.clientId, scope: token.scope, accountId: token.accountId, sourceAddress: ctx.ip,
            });
          }
          return true;
        },
      },
      // RFC 7662 for confidential clients, each about its own tokens alone: another's token is inactive
      // to it, and a public client is refused the endpoint (introspection.ts).
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: ClientView, token: TokenView) => client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx: RequestView, indicator: string, client: ClientView) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          refuseUngrantableScopes(clients, ctx, client);
          return {
            scope: [...new Set([...grantableScopes(clients, client, askedScopes(ctx)), ...grantedScopes(ctx, indicator)])].join(' '),
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
