// The audit record of a grant that ends (docs/sign-in.md#what-the-person-sees, issue 52 item 16): each
// way a grant of the authorization server ends is a `revokeAppAccess` record, in the picked patient's
// access log, or for a plain OAuth grant (the API's own scopes, no pick) in the person's own. This file
// holds the ends the person who made the grant brings about: their app revoking it (RFC 7009), their
// signing out, their consenting anew (a replacement), their app presenting a used code or refresh
// token again (a replay, which oidc-provider answers by ending the grant); connected-apps.ts records a
// revocation on the connected-apps page, whose actor is whoever revokes there.
import type { Grant } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { GrantEvent, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { logOf } from './grant-logs.js';
import type { KeptGrant, LaunchPicks } from './smart-launch.js';

/**
 * Where a grant ended: the server that vouches for the person, the address of the request that ended
 * it, and that request's answer when it was refused (a replay's 400): a withdrawal is 200 otherwise.
 */
export interface Ending { issuer: string; sourceAddress: string; status?: number }

type Kept = KeptGrant & { grantId: string };

/** The scopes a grant holds, OpenID's and the API's, each once. */
export const grantScopes = (grant: Grant): string[] => [...new Set([
  ...(grant.openid?.scope ?? '').split(' '), ...Object.values(grant.resources ?? {}).flatMap((s) => s.split(' ')),
].filter((s) => s !== ''))];

/** The withdrawal of `kept`, the person who made it named as the actor, in the log its grant is in (grant-logs.ts). */
async function withdrawalOf(smart: SmartLaunchContext, kept: Kept, grant: { clientId: string; scopes: string[] }, ending: Ending): Promise<GrantEvent> {
  return {
    kind: 'revoked', issuer: ending.issuer, accountId: kept.accountId, ...await logOf(smart, kept), clientId: grant.clientId, scopes: grant.scopes,
    sourceAddress: ending.sourceAddress, ...(ending.status === undefined ? {} : { status: ending.status }),
  };
}

/**
 * Records the end of `kept` (signing out, a replacement) before it is ended: rejects when the record
 * cannot be stored. A grant no longer found (expired, or ended already, and recorded then) records nothing.
 */
export function recordEnding(provider: Provider, smart: SmartLaunchContext, kept: Kept, ending: Ending): Promise<void> {
  return recordedOnce(ending.issuer, kept.grantId, async () => {
    const grant = await provider.Grant.find(kept.grantId);
    if (grant === undefined) return;
    await smart.recordGrant(await withdrawalOf(smart, kept, { clientId: grant.clientId, scopes: grantScopes(grant) }, ending));
  });
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
  await recordedOnce(revoked.issuer, revoked.grantId, async () => smart.recordGrant(
    await withdrawalOf(smart, kept, { clientId: revoked.clientId, scopes: (revoked.scope ?? '').split(' ').filter((s) => s !== '') }, revoked)));
}

/** What oidc-provider's revokeGrantPolicy is asked with on the token endpoint: the request presenting a used code or refresh token. */
export interface ReplayView {
  ip: string;
  oidc: {
    route?: string; issuer: string; provider: Provider; params?: { grant_type?: unknown; code?: unknown };
    entities: { RefreshToken?: { grantId?: string; accountId?: string } };
    entity(name: string, value: unknown): void;
  };
}

/** The status oidc-provider answers a replay with (`invalid_grant`): a withdrawal's status tells a replay's end from the others. */
const REPLAY_STATUS = 400;

/**
 * oidc-provider ends the whole grant when a code or a rotated refresh token comes back (its stolen-copy
 * rule), asking revokeGrantPolicy just before: this records that end as a withdrawal by the person who
 * made the grant, with the replay's status 400. A replayed code oidc-provider names nowhere (it does so
 * only once a code is spent) is named for the token's own record (token-audit.ts). Rejects when the
 * record cannot be stored: the caller ends the grant all the same, as a copy may be in a thief's hands.
 */
export async function recordReplayEnding(ctx: ReplayView, smart: SmartLaunchContext, picks: LaunchPicks): Promise<void> {
  const { oidc } = ctx;
  let presented: { grantId?: string; accountId?: string } | undefined = oidc.entities.RefreshToken;
  if (presented === undefined && oidc.params?.grant_type === 'authorization_code' && typeof oidc.params.code === 'string') {
    presented = await oidc.provider.AuthorizationCode.find(oidc.params.code, { ignoreExpiration: true });
    if (presented !== undefined) oidc.entity('AuthorizationCode', presented);
  }
  const grantId = presented?.grantId;
  if (grantId === undefined) return;
  const accountId = presented?.accountId;
  const kept = await picks.kept(grantId) ?? (accountId === undefined ? undefined : { grantId, accountId });
  if (kept !== undefined) await recordEnding(oidc.provider, smart, kept, { issuer: oidc.issuer, sourceAddress: ctx.ip, status: REPLAY_STATUS });
}

/**
 * The grant ends this process is recording, or recorded within RECORDED_KEPT_MS, by issuer and grant id.
 * A grant ends once, so its end is one withdrawal, whichever ends race: replays of one grant in flight
 * together (a stolen refresh token sent several times at once, or racing the rightful one; hostile review
 * helper-92, F3), and the person's revoke on the connected-apps page beside the app's RFC 7009 revocation,
 * a sign-out or a new consent (helper-150, LOW-A). Whoever comes while a record is in flight or stored
 * waits for it and records nothing of its own; a record the store refused is refused to each of them and
 * forgotten at once, so a later end tries again, and so is one whose end then failed (forgetRecorded).
 * Kept a few seconds past the record, the time from a record to its end: an end after that finds the
 * grant gone (helper-156, F3: a minute let a record whose end failed hide the next end's). Another
 * instance of the service may record the same end once more.
 */
const recording = new Map<string, Promise<void>>();
const RECORDED_KEPT_MS = 5_000;

/** The end the withdrawal of `grantId` was recorded for failed: the next end records its own. */
export function forgetRecorded(grantId: string): void {
  for (const key of recording.keys()) if (key.endsWith(`\n${grantId}`)) recording.delete(key);
}

/** Runs `record`, the withdrawal of `grantId` of `issuer`, unless this process is recording it or recorded it just now. */
export function recordedOnce(issuer: string, grantId: string, record: () => Promise<void>): Promise<void> {
  const key = `${issuer}\n${grantId}`;
  const earlier = recording.get(key);
  if (earlier !== undefined) return earlier;
  const made = record();
  recording.set(key, made);
  // Only this record's own entry: one forgotten and made again since is another end's.
  const forget = (): void => { if (recording.get(key) === made) recording.delete(key); };
  made.then(() => setTimeout(forget, RECORDED_KEPT_MS).unref(), forget);
  return made;
}
