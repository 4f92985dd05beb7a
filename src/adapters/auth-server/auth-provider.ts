// The authorization server itself: oidc-provider configured for the API and SMART App Launch, with
// what it has no setting for (redirects beyond the registered ones, the SMART token endpoint). The
// demo runs it with its sign-in page; a region with its own login (docs/smart-launch.md).
import Provider from 'oidc-provider';
import { accessTokenRevocation } from './access-token-revocation.js';
import type { AuthClients } from './clients.js';
import { introspection } from './introspection.js';
import { ownTokens } from './own-access-tokens.js';
import { endGrantsOnSignOut } from './grant-endings.js';
import { buildProviderConfiguration, resourceIndicatorFor, type ProviderInput } from './provider-config.js';
import { ownPages } from './provider-pages.js';
import { endpointOf } from './served-methods.js';
import { smartTokenEndpoint } from './smart-token-endpoint.js';
import { tokenAudit } from './token-audit.js';
import { refuseForeignResource } from './token-resource.js';

interface WarnLogger { warn(obj: object, msg: string): void }

/** The operators' log line of a grant's end whose record the audit store refused (the grant ended all the same). */
const UNRECORDED_END = {
  signOut: 'a grant ended by signing out could not be audited: signed out all the same',
  replay: 'a grant ended by a replayed code or refresh token could not be audited: ended all the same',
  wrongVerifier: 'a grant ended by a wrong code_verifier could not be audited: ended all the same',
} as const;

/**
 * A client comes back to exactly the redirect URIs it registered, or to those it allows besides (RFC
 * 8252 §7.3 loopback for an app that says `loopback_redirects`, the app's page). oidc-provider would
 * take a registered loopback URI of a native client on any port: only the app's own rule may say so.
 */
function allowExtraRedirects(provider: Provider, clients: AuthClients): void {
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string): boolean {
    return this.redirectUris.includes(value) || clients.get(this.clientId)?.redirectAllowed?.(value) === true;
  };
  // Where an app may come back to after signing out (RP-initiated logout): its registered post-logout
  // addresses, or wherever it may come back to after signing in (a clients file names no other addresses).
  provider.Client.prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(value: string): boolean {
    return (this.postLogoutRedirectUris ?? []).includes(value) || provider.Client.prototype.redirectUriAllowed.call(this, value);
  };
}

export function createAuthProvider(issuer: string, input: ProviderInput & { logger: WarnLogger; onTokenRefused?: (error: string) => void }): Provider {
  const { logger, onTokenRefused: _counted, ...configuration } = input;
  const provider = new Provider(issuer, buildProviderConfiguration({ ...configuration, onEndUnrecorded: (error, ending) => logger.warn(
    { err: { name: error.name, message: error.message } }, UNRECORDED_END[ending],
  ) }));
  allowExtraRedirects(provider, input.clients);
  // Every ID token names its sign-in session (`sid`, per app): an app's sign-out is known for this
  // browser's own only by it (logout-pages.ts; hostile review helper-163, F2: the same person's token
  // from another browser signed this one out without a question).
  provider.Client.prototype.includeSid = () => true;
  // Before every hook: an endpoint's path as oidc-provider's router reads it, so that `/TOKEN` and
  // `/token/` are `/token` to each hook that records, completes or refuses what is asked there
  // (hostile review of the sign-in doors: a token asked at `/TOKEN` was issued unrecorded).
  provider.use(async (ctx: { path: string }, next: () => Promise<void>) => {
    const endpoint = endpointOf(ctx.path);
    if (endpoint !== undefined) ctx.path = endpoint;
    await next();
  });
  // First of the hooks, so that it answers for whatever the middleware after it throws.
  ownPages(provider, { banner: input.banner ?? '', mountPath: input.mountPath ?? '' });
  smartTokenEndpoint(provider, input.clients);
  // Inside the SMART token endpoint's handling: a token refused for want of its audit record gets no `patient` added.
  tokenAudit(provider, {
    smart: input.smart, picks: input.picks, issuer,
    onAuditFailed: (error) => logger.warn({ err: { name: error.name, message: error.message } }, 'a token request could not be audited'),
    onEndUnrecorded: (error) => logger.warn({ err: { name: error.name, message: error.message } }, UNRECORDED_END.wrongVerifier),
  });
  // Inside the token audit, which records its refusals; before oidc-provider spends the code or refresh token.
  refuseForeignResource(provider, resourceIndicatorFor(input.audience));
  const own = ownTokens({ issuer, audience: input.audience, patientClaim: input.patientClaim, signingKeys: input.signingKeys });
  introspection(provider, own);
  accessTokenRevocation(provider, {
    smart: input.smart, picks: input.picks, issuer, verify: own,
    onFailed: (error, step) => logger.warn({ err: { name: error.name, message: error.message }, step }, step === 'audit'
      ? 'an access token revocation could not be audited: nothing was revoked'
      : 'an access token revocation was audited but its grant could not be ended'),
  });
  endGrantsOnSignOut(provider, input.picks, {
    smart: input.smart, issuer,
    onUnrecorded: (error) => logger.warn({ err: { name: error.name, message: error.message } }, UNRECORDED_END.signOut),
  });
  provider.on('server_error', (_ctx, error) => {
    logger.warn({ err: { name: error.name, message: error.message } }, 'authorization server error');
  });
  // A refused token request: what oidc-provider says (error_detail never holds a token), for the log and the counter.
  provider.on('grant.error', (_ctx: unknown, error: unknown) => {
    const { error: code, error_detail: detail } = error as { error?: string; error_detail?: string };
    input.onTokenRefused?.(code ?? 'server_error');
    logger.warn({ error: code, detail }, 'token request refused');
  });
  return provider;
}
