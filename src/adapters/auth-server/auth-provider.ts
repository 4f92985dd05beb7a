// The authorization server itself: oidc-provider configured for the API and SMART App Launch, with
// what it has no setting for (redirects beyond the registered ones, the SMART token endpoint). The
// demo runs it with its sign-in page; a region with its own login (docs/smart-launch.md).
import Provider from 'oidc-provider';
import type { AuthClients } from './clients.js';
import { endGrantsOnSignOut } from './grant-endings.js';
import { buildProviderConfiguration, type ProviderInput } from './provider-config.js';
import { smartTokenEndpoint } from './smart-token-endpoint.js';

interface WarnLogger { warn(obj: object, msg: string): void }

/** A client may come back to the redirect URIs it registered, or to those it allows besides (RFC 8252 §7.3 loopback, the app's page). */
function allowExtraRedirects(provider: Provider, clients: AuthClients): void {
  const registered = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string): boolean {
    if (registered.call(this, value)) return true;
    return clients.get(this.clientId)?.redirectAllowed?.(value) === true;
  };
  // Where an app may come back to after signing out (RP-initiated logout): where it may come back to after signing in.
  const afterLogout = provider.Client.prototype.postLogoutRedirectUriAllowed;
  provider.Client.prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(value: string): boolean {
    if (afterLogout.call(this, value)) return true;
    return clients.get(this.clientId)?.redirectAllowed?.(value) === true;
  };
}

export function createAuthProvider(issuer: string, input: ProviderInput & { logger: WarnLogger; onTokenRefused?: (error: string) => void }): Provider {
  const { logger, onTokenRefused: _counted, ...configuration } = input;
  const provider = new Provider(issuer, buildProviderConfiguration(configuration));
  allowExtraRedirects(provider, input.clients);
  smartTokenEndpoint(provider, input.clients);
  endGrantsOnSignOut(provider, input.picks);
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
