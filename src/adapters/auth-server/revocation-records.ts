// The audit record of a grant that ends (docs/sign-in.md#what-the-person-sees, issue 52 item 16): each
// way a grant of the authorization server ends is a `revokeAppAccess` record, in the picked patient's
// access log, or for a plain OAuth grant (the API's own scopes, no pick) in the person's own. This file
// holds the ends the person who made the grant brings about: their app revoking it (RFC 7009), their
// signing out, their consenting anew (a replacement); connected-apps.ts records a revocation on the
// connected-apps page, whose actor is whoever revokes there.
import type { Grant } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { GrantEvent, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { logOf } from './grant-logs.js';
import type { KeptGrant, LaunchPicks } from './smart-launch.js';

/** Where a grant ended: the server that vouches for the person, and the address of the request that ended it. */
export interface Ending { issuer: string; sourceAddress: string }

type Kept = KeptGrant & { grantId: string };

/** The scopes a grant holds, OpenID's and the API's, each once. */
export const grantScopes = (grant: Grant): string[] => [...new Set([
  ...(grant.openid?.scope ?? '').split(' '), ...Object.values(grant.resources ?? {}).flatMap((s) => s.split(' ')),
].filter((s) => s !== ''))];

/** The withdrawal of `kept`, the person who made it named as the actor, in the log its grant is in (grant-logs.ts). */
async function withdrawalOf(smart: SmartLaunchContext, kept: Kept, grant: { clientId: string; scopes: string[] }, ending: Ending): Promise<GrantEvent> {
  return {
    kind: 'revoked', issuer: ending.issuer, accountId: kept.accountId, ...await logOf(smart, kept), clientId: grant.clientId, scopes: grant.scopes,
    sourceAddress: ending.sourceAddress,
  };
}

/**
 * Records the end of `kept` (signing out, a replacement) before it is ended: rejects when the record
 * cannot be stored. A grant no longer found (expired, or ended already, and recorded then) records nothing.
 */
export async function recordEnding(provider: Provider, smart: SmartLaunchContext, kept: Kept, ending: Ending): Promise<void> {
  const grant = await provider.Grant.find(kept.grantId);
  if (grant === undefined) return;
  await smart.recordGrant(await withdrawalOf(smart, kept, { clientId: grant.clientId, scopes: grantScopes(grant) }, ending));
}

/** What an RFC 7009 revocation of a refresh token tells of the grant it ends. */
export interface RevokedGrant extends Ending { grantId?: string | undefined; clientId: string; scope?: string | undefined; accountId?: string | undefined }

/**
 * The withdrawal of a grant by its app (RFC 7009 of its refresh token), audited before the grant ends;
 * rejects when the record cannot be stored (then it is not revoked). The app revokes for the person who
 * made the grant, who is named as the actor: a launch's in the picked patient's log, a plain grant's in
 * their own (as is a grant kept nowhere beside oidc-provider's, by the token's account).
 */
export async function recordWithdrawal(smart: SmartLaunchContext, picks: LaunchPicks, revoked: RevokedGrant): Promise<void> {
  if (revoked.grantId === undefined) return;
  const kept = await picks.kept(revoked.grantId) ?? (revoked.accountId === undefined ? undefined : { grantId: revoked.grantId, accountId: revoked.accountId });
  if (kept === undefined) return;
  await smart.recordGrant(await withdrawalOf(smart, kept, { clientId: revoked.clientId, scopes: (revoked.scope ?? '').split(' ').filter((s) => s !== '') }, revoked));
}

