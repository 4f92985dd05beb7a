// How a grant of the authorization server ends (docs/smart-launch.md#connected-apps): at once, every
// token of it with it, each end an audit record (revocation-records.ts). A grant ends when the person
// revokes it, when a new consent for the same app, person and pick replaces it (one grant each, never
// a pile of identical ones), and when the person signs out of the sign-in session it was made in. Its
// access tokens stop too: the service's token verifier asks whose their grant is, while it is alive,
// on every request (grantHolder), and takes a token only for its grant's own person and app.
import { rawScopesFromClaims } from '../../domain/access/scopes.js';
import type Provider from 'oidc-provider';
import { holdsGrant, type GrantHolder } from '../../ports/access-token-verifier.port.js';
import type { HeldGrant } from '../../ports/app-grants.port.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { forgetRecorded, recordEnding } from './revocation-records.js';
import type { KeptGrant, LaunchPicks } from './smart-launch.js';

/** Ends `grantId`: its refresh tokens, codes and access tokens, and the grant itself, as oidc-provider ends a replayed one. */
export async function endTokens(provider: Provider, grantId: string): Promise<void> {
  await Promise.all([
    provider.RefreshToken.revokeByGrantId(grantId), provider.AuthorizationCode.revokeByGrantId(grantId), provider.AccessToken.revokeByGrantId(grantId),
  ]);
  await provider.Grant.adapter.destroy(grantId);
}

/**
 * Ends `grantId` (endTokens) and what is kept beside it. An end that fails is no end: the withdrawal
 * recorded for it no longer stands for the grant's end, so the next end records its own (helper-156, F3).
 */
export async function endGrant(provider: Provider, picks: LaunchPicks, grantId: string): Promise<void> {
  try {
    await endTokens(provider, grantId);
    await picks.forget(grantId);
  } catch (error) {
    forgetRecorded(grantId);
    throw error;
  }
}

const sameHolder = (a: KeptGrant, b: KeptGrant): boolean =>
  a.accountId === b.accountId && a.clientId === b.clientId && a.patientId === b.patientId;

/**
 * The person's earlier grants to the same app for the same pick (or the earlier plain grant) that a
 * new consent `kept` replaces: one grant per app, person and pick, so signing in again replaces rather
 * than adds. `current`, the grant the consent extends (a plain one of the same sign-in), is not among them,
 * nor is a grant that ended: a replay or an RFC 7009 revocation ends one and leaves its pick till its
 * lifetime, and what was made under it must not live on through the next consent (hostile review helper-96).
 */
export async function replacedGrants(
  provider: Provider, picks: LaunchPicks, kept: KeptGrant, current: string | undefined,
): Promise<Array<KeptGrant & { grantId: string }>> {
  const same = (await picks.opening(kept.accountId, [])).filter((k) => k.grantId !== current && sameHolder(k, kept));
  const alive = await Promise.all(same.map(async (k) => (await grantHolder(provider, k.grantId)) !== undefined));
  return same.filter((_, i) => alive[i] === true);
}

/**
 * How many replaced grants a grant remembers (KeptGrant.replaces). A subscription made under a grant
 * replaced more often than this since is no longer held: a person signing in to one app 32 times.
 */
export const REPLACED_KEPT = 32;

/**
 * Keeps a consented grant, and ends the grants it replaces (their withdrawals recorded already): their
 * refresh tokens stop. The kept grant names them, so what was made under them lives on through it.
 */
export async function keepGrant(
  provider: Provider, picks: LaunchPicks, grantId: string, kept: KeptGrant, replaced: ReadonlyArray<KeptGrant & { grantId: string }>,
): Promise<void> {
  const others = replaced.filter((grant) => grant.grantId !== grantId);
  // A consent that extends a grant (the same id) keeps what that grant had replaced before.
  const before = (await picks.kept(grantId))?.replaces ?? [];
  const replaces = [...new Set([...others.flatMap((grant) => [grant.grantId, ...grant.replaces ?? []]), ...before])].slice(0, REPLACED_KEPT);
  await picks.remember(grantId, { ...kept, ...(replaces.length === 0 ? {} : { replaces }) });
  for (const grant of others) await endGrant(provider, picks, grant.grantId);
}

/**
 * The grant that keeps the app signed in for `held`: its own, alive and its person's for its app, or a
 * live grant that replaced it (the same person, app and pick, and naming it among those it replaced:
 * keepGrant's one grant each); undefined when none does. What a subscription made under a grant lives
 * by, so that consenting again does not end it, while revoking or signing out does, even if the person
 * signs in again later.
 */
export async function holdingGrant(picks: LaunchPicks, holderOf: (grantId: string) => Promise<GrantHolder | undefined>, held: HeldGrant): Promise<string | undefined> {
  const whose = { accountId: held.personId, clientId: held.clientId };
  if (holdsGrant(await holderOf(held.grantId), whose)) return held.grantId;
  for (const k of await picks.opening(held.personId, [])) {
    if (k.accountId !== held.personId || k.clientId !== held.clientId || k.patientId !== held.smartPatient) continue;
    if (!(k.replaces ?? []).includes(held.grantId)) continue;
    if (holdsGrant(await holderOf(k.grantId), whose)) return k.grantId;
  }
  return undefined;
}

/** The scopes a grant's payload holds (oidc-provider's `openid.scope` and each resource's), or undefined for none kept. */
export function scopesOfGrant(payload: unknown): ReadonlySet<string> | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { openid, resources } = payload as { openid?: { scope?: unknown }; resources?: Record<string, unknown> };
  const texts = [openid?.scope, ...Object.values(resources ?? {})].filter((t): t is string => typeof t === 'string');
  // As written, as a token's granted scopes are read (token-kind.ts), which the same test was asked of at subscribing.
  return rawScopesFromClaims(texts.join(' '), undefined);
}

/**
 * The scopes of the grant that keeps the app signed in for `held` (holdingGrant): what the person
 * consented to last, which a new consent may have narrowed; undefined when none holds.
 */
export async function scopesStillHeld(
  picks: LaunchPicks, holderOf: (grantId: string) => Promise<GrantHolder | undefined>, payloadOf: (grantId: string) => Promise<unknown>, held: HeldGrant,
): Promise<ReadonlySet<string> | undefined> {
  const grantId = await holdingGrant(picks, holderOf, held);
  return grantId === undefined ? undefined : scopesOfGrant(await payloadOf(grantId));
}

/** Whose a grant is while it is alive, else undefined: its access tokens are taken only while it is, for its holder (the token verifier's question). */
export async function grantHolder(provider: Provider, grantId: string): Promise<GrantHolder | undefined> {
  const { accountId, clientId }: { accountId?: unknown; clientId?: unknown } = await provider.Grant.adapter.find(grantId) ?? {};
  return typeof accountId === 'string' && typeof clientId === 'string' ? { accountId, clientId } : undefined;
}

interface SignOutView {
  status: number;
  ip: string;
  oidc?: {
    route?: string; params?: { logout?: unknown };
    session?: { accountId?: string; uid?: string };
    entities?: { Client?: { clientId: string } };
  };
}

/** What signing out records its ends with. */
export interface SignOutAudit {
  smart: SmartLaunchContext;
  issuer: string;
  /** A grant's end that could not be recorded (the grant ended all the same): for the operators' log. */
  onUnrecorded(error: Error): void;
}

/** The grants a sign-out ends: those made in its session, by the app that signs out, or by every app (logout=yes). */
async function endedBySignOut(picks: LaunchPicks, view: SignOutView): Promise<Array<KeptGrant & { grantId: string }>> {
  const { accountId, uid } = view.oidc?.session ?? {};
  const everyApp = Boolean(view.oidc?.params?.logout);
  const clientId = view.oidc?.entities?.Client?.clientId;
  if (accountId === undefined || uid === undefined || (!everyApp && clientId === undefined)) return [];
  return (await picks.opening(accountId, [])).filter((k) => k.session === uid && (everyApp || k.clientId === clientId));
}

/** Each sign-out's grants recorded while oidc-provider was ending them (recordSignOutEnds), by the request. */
const recordedWhileEnding = new WeakMap<object, Promise<ReadonlySet<string>>>();

/** Records the end of each grant `view` ends, a refused record logged (the grant ends all the same): the ids recorded. */
async function recordSignOut(provider: Provider, picks: LaunchPicks, view: SignOutView, audit: SignOutAudit, skip: ReadonlySet<string>): Promise<ReadonlySet<string>> {
  const recorded = new Set<string>();
  for (const grant of await endedBySignOut(picks, view)) {
    if (skip.has(grant.grantId)) continue;
    await recordEnding(provider, audit.smart, grant, { issuer: audit.issuer, sourceAddress: view.ip })
      .catch((error: unknown) => audit.onUnrecorded(error as Error));
    recorded.add(grant.grantId);
  }
  return recorded;
}

/**
 * oidc-provider ends a grant without refresh tokens itself on signing out (one with them outlives a
 * logout, and is ended by endGrantsOnSignOut), asking revokeGrantPolicy just before each: at the first
 * such question of a sign-out its grants' ends are recorded, while they can still be read, and each
 * later question waits for those records. endGrantsOnSignOut does not record them again.
 */
export async function recordSignOutEnds(ctx: object, provider: Provider, picks: LaunchPicks, audit: SignOutAudit): Promise<void> {
  let recording = recordedWhileEnding.get(ctx);
  if (recording === undefined) {
    recording = recordSignOut(provider, picks, ctx as SignOutView, audit, new Set());
    recordedWhileEnding.set(ctx, recording);
  }
  await recording;
}

/**
 * RP-initiated logout ends the grants made in the sign-in session it ends: the app's that signed out,
 * or every app's when the person signs out of the server too ("Sign out", logout=yes). oidc-provider
 * keeps a grant with refresh tokens past a logout (and forgets an app's earlier grant once it signs in
 * again), so they are found by the session they were made in. Done before the answer leaves, so the
 * next request of any of them is refused. Each end is recorded first (revocation-records.ts); one the
 * audit store refuses is logged (and counted, as every refused record is) and the grant ends all the
 * same: a person must always be able to sign out, and end what they allowed, on a shared computer.
 */
export function endGrantsOnSignOut(provider: Provider, picks: LaunchPicks, audit: SignOutAudit): void {
  provider.use(async (ctx, next) => {
    await next();
    const view = ctx as unknown as SignOutView;
    if (view.oidc?.route !== 'end_session_confirm' || view.status !== 303) return;
    const skip = await recordedWhileEnding.get(ctx) ?? new Set<string>();
    await recordSignOut(provider, picks, view, audit, skip);
    for (const grant of await endedBySignOut(picks, view)) await endGrant(provider, picks, grant.grantId);
  });
}
