// RFC 7009 for the server's access tokens (docs/sign-in.md#for-app-developers). oidc-provider revokes the
// tokens it stores (refresh tokens, under `revocation.allowedPolicy` in provider-config.ts) and refuses a
// structured one with `unsupported_token_type`; an access token here is a JWT that lives as long as its
// grant (the API asks on every request), so revoking one ends its grant, as revoking its refresh token
// does: the withdrawal recorded first (a store that refuses it: 500 `server_error`, the grant kept), then
// the grant and every token of it ended, on every instance at their next request.
import type Provider from 'oidc-provider';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { endGrant } from './grant-endings.js';
import { claimedGrant, type OwnToken } from './own-access-tokens.js';
import { grantScopes, recordWithdrawal } from './revocation-records.js';
import type { LaunchPicks } from './smart-launch.js';

const REVOCATION_PATH = '/token/revocation';

interface KoaContext {
  path: string;
  status: number;
  ip: string;
  body?: unknown;
  oidc?: { client?: { clientId: string }; params?: { token?: unknown } };
}

export interface AccessTokenRevocation {
  smart: SmartLaunchContext;
  picks: LaunchPicks;
  issuer: string;
  /** An access token this server issued, read (own-access-tokens.ts); undefined for any other. */
  verify(token: string): Promise<OwnToken | undefined>;
  /** A revocation that failed, for the operators' log: its withdrawal not recorded (nothing revoked), or the grant not ended after it was. */
  onFailed(error: Error, step: 'audit' | 'end'): void;
}

/** Ends the grant `own` names when it is alive and its person's for `clientId`, the client revoking; else does nothing. */
async function revokeGrantOf(provider: Provider, revocation: AccessTokenRevocation, own: OwnToken, clientId: string, sourceAddress: string): Promise<void> {
  const claimed = claimedGrant(own);
  if (typeof claimed === 'string' || claimed.holder.clientId !== clientId) return;
  const grant = await provider.Grant.find(claimed.grantId);
  // Ended already (and recorded then), or not this person's grant for this app: nothing to end.
  if (grant?.accountId !== claimed.holder.accountId || grant.clientId !== clientId) return;
  try {
    await recordWithdrawal(revocation.smart, revocation.picks, {
      issuer: revocation.issuer, grantId: claimed.grantId, clientId, scope: grantScopes(grant).join(' '), accountId: claimed.holder.accountId, sourceAddress,
    });
  } catch (error) {
    revocation.onFailed(error as Error, 'audit');
    throw error;
  }
  await endGrant(provider, revocation.picks, claimed.grantId).catch((error: unknown) => {
    revocation.onFailed(error as Error, 'end');
    throw error;
  });
}

/**
 * Answers the revocation of an access token once oidc-provider authenticated the client and refused the
 * token as structured (so a client that did not authenticate keeps its `invalid_client`). A token of
 * another client, or none of this server's (RFC 7009 §2.2: an invalid token is no error), is answered
 * 200 and changes nothing; a client token, which names no grant, keeps `unsupported_token_type`.
 */
export function accessTokenRevocation(provider: Provider, revocation: AccessTokenRevocation): void {
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    await next();
    const client = ctx.oidc?.client;
    const token = ctx.oidc?.params?.token;
    if (ctx.path !== REVOCATION_PATH || client === undefined || typeof token !== 'string') return;
    if ((ctx.body as { error?: string } | undefined)?.error !== 'unsupported_token_type') return;
    const own = await revocation.verify(token);
    if (own !== undefined && claimedGrant(own) === 'none') return;
    try {
      if (own !== undefined) await revokeGrantOf(provider, revocation, own, client.clientId, ctx.ip);
      ctx.status = 200;
      ctx.body = '';
    } catch {
      ctx.status = 500;
      ctx.body = { error: 'server_error', error_description: 'the access could not be revoked just now: revoke it again later' };
    }
  });
}
