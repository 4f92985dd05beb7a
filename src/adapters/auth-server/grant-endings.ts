// How a grant of the authorization server ends (docs/smart-launch.md#connected-apps): at once, every
// token of it with it. A grant ends when the person revokes it, when a new consent for the same app,
// person and pick replaces it (one grant each, never a pile of identical ones), and when the person
// signs out of the sign-in session it was made in. Its access tokens stop too: the service's token
// verifier asks whether their grant is still alive on every request (grantAlive).
import type Provider from 'oidc-provider';
import type { KeptGrant, LaunchPicks } from './smart-launch.js';

/** Ends `grantId`: its refresh tokens, codes and access tokens, the grant itself, and what is kept beside it. */
export async function endGrant(provider: Provider, picks: LaunchPicks, grantId: string): Promise<void> {
  await Promise.all([
    provider.RefreshToken.revokeByGrantId(grantId), provider.AuthorizationCode.revokeByGrantId(grantId), provider.AccessToken.revokeByGrantId(grantId),
  ]);
  await provider.Grant.adapter.destroy(grantId);
  await picks.forget(grantId);
}

const sameHolder = (a: KeptGrant, b: KeptGrant): boolean =>
  a.accountId === b.accountId && a.clientId === b.clientId && a.patientId === b.patientId;

/**
 * Keeps a consented grant, and ends the person's earlier grants to the same app for the same pick (or
 * the earlier plain grant): one grant per app, person and pick, so signing in again replaces rather
 * than adds, and the earlier one's refresh tokens stop.
 */
export async function keepGrant(provider: Provider, picks: LaunchPicks, grantId: string, kept: KeptGrant): Promise<void> {
  const earlier = (await picks.opening(kept.accountId, [])).filter((k) => k.grantId !== grantId && sameHolder(k, kept));
  await picks.remember(grantId, kept);
  for (const grant of earlier) await endGrant(provider, picks, grant.grantId);
}

/** Whether a grant is alive: its access tokens are taken only while it is (the token verifier's question). */
export async function grantAlive(provider: Provider, grantId: string): Promise<boolean> {
  return (await provider.Grant.adapter.find(grantId)) !== undefined;
}

interface SignOutView {
  status: number;
  oidc?: {
    route?: string; params?: { logout?: unknown };
    session?: { accountId?: string; uid?: string };
    entities?: { Client?: { clientId: string } };
  };
}

/**
 * RP-initiated logout ends the grants made in the sign-in session it ends: the app's that signed out,
 * or every app's when the person signs out of the server too ("Sign out", logout=yes). oidc-provider
 * keeps a grant with refresh tokens past a logout (and forgets an app's earlier grant once it signs in
 * again), so they are found by the session they were made in. Done before the answer leaves, so the
 * next request of any of them is refused.
 */
export function endGrantsOnSignOut(provider: Provider, picks: LaunchPicks): void {
  provider.use(async (ctx, next) => {
    await next();
    const { status, oidc } = ctx as unknown as SignOutView;
    if (oidc?.route !== 'end_session_confirm' || status !== 303) return;
    const { accountId, uid } = oidc.session ?? {};
    const everyApp = Boolean(oidc.params?.logout);
    const clientId = oidc.entities?.Client?.clientId;
    if (accountId === undefined || uid === undefined || (!everyApp && clientId === undefined)) return;
    const made = (await picks.opening(accountId, [])).filter((k) => k.session === uid && (everyApp || k.clientId === clientId));
    for (const grant of made) await endGrant(provider, picks, grant.grantId);
  });
}
