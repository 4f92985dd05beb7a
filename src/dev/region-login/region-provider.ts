// A region's login as the Swedish OpenID Connect Profile has it (docs/sign-in.md), for development and
// tests only: oidc-provider with the profile's scope and claims (the person's identity number, or
// coordination number, in the ID token itself), its acr values (LoA 2 and 3), a confidential client
// per service (client_secret_basic, PKCE), keys and cookies of its own. Who signs in is decided by the
// one who runs it: the stand-in's page (region-login.ts), or a test's script (test/support/region-provider.ts).
import Provider, { type Configuration } from 'oidc-provider';
import type { JWK } from 'jose';
import { COORDINATION_NUMBER_CLAIM, PERSONAL_IDENTITY_NUMBER_CLAIM } from '../../adapters/auth-server/region-login.js';
import { isCoordinationNumber } from '../../domain/identity/person-number-systems.js';

export const LOA2 = 'http://id.elegnamnden.se/loa/1.0/loa2';
export const LOA3 = 'http://id.elegnamnden.se/loa/1.0/loa3';
export const PNR_SCOPE = 'https://id.oidc.se/scope/naturalPersonNumber';
export { COORDINATION_NUMBER_CLAIM, PERSONAL_IDENTITY_NUMBER_CLAIM };

/** The service as the region registers it: its client id and secret, and `{PUBLIC_BASE_URL}/auth/callback`. */
export interface RegionClient { clientId: string; clientSecret: string; redirectUris: string[] }

/** The ID token's claims of a login: an opaque `sub`, and the identity number in the profile's claim for its kind. */
export function swedishClaims(accountId: string): Record<string, string> {
  const sub = `sub-${accountId}`;
  if (!/^\d{12}$/.test(accountId)) return { sub };
  // A coordination number has a claim of its own.
  return { sub, [isCoordinationNumber(accountId) ? COORDINATION_NUMBER_CLAIM : PERSONAL_IDENTITY_NUMBER_CLAIM]: accountId };
}

export interface RegionProviderInput {
  clients: readonly RegionClient[];
  signingKey: JWK;
  cookieKeys: string[];
  /** The claims of the person signed in by `accountId` (`swedishClaims` unless a test says otherwise). */
  claimsOf?: (accountId: string) => Record<string, string>;
  /** Its error page (the stand-in's is the service's, provider-pages.ts); oidc-provider's own when absent. */
  renderError?: Configuration['renderError'];
}

/** oidc-provider as a region's login, its interactions (login, consent) at `/interaction/<uid>` for the caller to answer. */
export function regionProvider(issuer: string, input: RegionProviderInput): Provider {
  const claimsOf = input.claimsOf ?? swedishClaims;
  const configuration: Configuration = {
    clients: input.clients.map((client) => ({
      client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: client.redirectUris,
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [input.signingKey] },
    scopes: ['openid', PNR_SCOPE],
    claims: { openid: ['sub'], [PNR_SCOPE]: [PERSONAL_IDENTITY_NUMBER_CLAIM, COORDINATION_NUMBER_CLAIM], acr: null },
    acrValues: [LOA2, LOA3],
    // The profile's claims in the ID token itself, as the Swedish profile's providers send them.
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => claimsOf(id) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    pkce: { required: () => true },
    // Browsers share cookies across ports of one host: names of its own keep it apart from the service's.
    cookies: { keys: input.cookieKeys, names: { session: '_region_session', interaction: '_region_interaction', resume: '_region_resume' } },
    ...(input.renderError === undefined ? {} : { renderError: input.renderError }),
  };
  return new Provider(issuer, configuration);
}

/** The consent step, which a region's login does not ask: the service's client gets the number and acr it asked for. */
export async function grantAsked(provider: Provider, details: Awaited<ReturnType<Provider['interactionDetails']>>): Promise<string> {
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) });
  if (grant === undefined) throw new Error('the interaction names a grant that is not there');
  grant.addOIDCScope(String(details.params.scope));
  grant.addOIDCClaims([PERSONAL_IDENTITY_NUMBER_CLAIM, COORDINATION_NUMBER_CLAIM, 'acr']);
  return grant.save();
}
