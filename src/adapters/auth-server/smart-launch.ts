// SMART App Launch 2.2 (standalone patient launch) in the authorization server
// (docs/smart-launch.md): which authorizations are SMART ones, the `aud` they must name, the
// loopback redirects a native app may use (RFC 8252 §7.3), and the patient each grant was launched for.
import { canonicalScope } from '../../domain/access/scopes.js';
import { isConsentScope } from '../../domain/fhir/consent-scopes.js';
import { isSubscriptionScope } from '../../domain/fhir/subscription-scopes.js';
import { smartGrants } from '../../domain/fhir/smart-scopes.js';
import type { LaunchPerson } from '../../ports/smart-launch.port.js';

/** The scopes of the OpenID side of a SMART launch (the rest are the FHIR API's resource scopes). */
export const SMART_OIDC_SCOPES = ['openid', 'fhirUser', 'launch/patient', 'offline_access'] as const;
const SMART_ONLY_SCOPES: ReadonlySet<string> = new Set(['fhirUser', 'launch/patient']);

/** A SMART resource scope (`patient/Observation.rs`, `user/*.read`, `patient/Observation.rs?category=…`) a person may be granted. */
export function isPersonSmartScope(scope: string): boolean {
  const [grant] = smartGrants([scope]);
  return grant !== undefined && grant.context !== 'system';
}

/**
 * A scope a person may be granted beside the API's own: a SMART resource scope, or SMART's `user/` or
 * `patient/` form of one of the API's scopes (`patient/Appointment.write` for `user/Appointment-write`,
 * domain/access/scopes.ts), the writes among them, which no SMART resource scope of this server grants.
 */
export function isPersonScope(scope: string, apiScopes: ReadonlySet<string>): boolean {
  // The grants a person gives, as FHIR Consents (docs/contract.md §11), and the Subscriptions an app keeps
  // (§12): their writes are no SMART resource scope of a read.
  if (isPersonSmartScope(scope) || isConsentScope(scope) || isSubscriptionScope(scope)) return true;
  return (scope.startsWith('patient/') || scope.startsWith('user/')) && !apiScopes.has(scope) && apiScopes.has(canonicalScope(scope));
}

/**
 * A SMART authorization names `aud` or asks for what only SMART gives (launch context, `fhirUser`, a
 * SMART resource scope that is not also one of the API's own). The API's own scopes without `aud`
 * stay a plain OAuth authorization, as the docs page and `npm run demo:token` make.
 */
export function isSmartAuthorization(params: { aud?: unknown; scope?: unknown }, apiScopes: ReadonlySet<string>): boolean {
  if (params.aud !== undefined) return true;
  const scopes = typeof params.scope === 'string' ? params.scope.split(' ') : [];
  return scopes.some((s) => SMART_ONLY_SCOPES.has(s) || (isPersonScope(s, apiScopes) && !apiScopes.has(s)));
}

/** The FHIR bases an `aud` may name: `/fhir` and the vendor's `/api/open/fhir`, one trailing slash ignored. */
export function audAllowed(aud: string, publicBaseUrl: string): boolean {
  const base = publicBaseUrl.replace(/\/$/, '');
  const named = aud.endsWith('/') ? aud.slice(0, -1) : aud;
  return named === `${base}/fhir` || named === `${base}/api/open/fhir`;
}

/**
 * RFC 8252 §7.3: `http` on 127.0.0.1 or [::1], any port and path, no userinfo, query or fragment. RFC
 * 8252 would allow a query; a redirect URI that is a path alone leaves nothing for a request to smuggle
 * into it beside the answer's own `code` and `state`, and no native app needs more.
 */
export function isLoopbackRedirect(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]')
    && url.username === '' && url.password === '' && !/[?#@]/.test(uri);
}

/** The app's own redirect page: `{PUBLIC_BASE_URL}/app/`. */
export const appRedirectUri = (publicBaseUrl: string): string => `${publicBaseUrl.replace(/\/$/, '')}/app/`;

/** The patient a grant was launched for, and whether the signed-in person picked someone else. */
export interface Launch {
  patientId: string;
  /** The signed-in person's identity number: a refresh asks the registry again whether the pick still holds. */
  accountId: string;
  fhirUser: string;
}

/** Where picks are kept: oidc-provider's adapter interface (the shared PostgreSQL store, postgres-models.ts). */
export interface PickStore {
  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  destroy(id: string): Promise<void>;
  /** The live picks made by `accountId` or opening one of `patientIds` (the connected-apps page). */
  listFor(accountId: string, patientIds: readonly string[]): Promise<Array<Record<string, unknown>>>;
}

/** One process's picks, for the demo (its grants live in oidc-provider's in-memory store too). */
class MemoryPicks implements PickStore {
  private readonly picks = new Map<string, { payload: Record<string, unknown>; until: number }>();

  constructor(private readonly now: () => number) {}

  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
    const now = this.now();
    for (const [key, pick] of this.picks) if (pick.until <= now) this.picks.delete(key);
    this.picks.set(id, { payload, until: now + expiresIn * 1000 });
    return Promise.resolve();
  }

  find(id: string): Promise<Record<string, unknown> | undefined> {
    const pick = this.picks.get(id);
    return Promise.resolve(pick !== undefined && pick.until > this.now() ? pick.payload : undefined);
  }

  destroy(id: string): Promise<void> {
    this.picks.delete(id);
    return Promise.resolve();
  }

  listFor(accountId: string, patientIds: readonly string[]): Promise<Array<Record<string, unknown>>> {
    const now = this.now();
    return Promise.resolve([...this.picks.values()]
      .filter((pick) => pick.until > now && (pick.payload.accountId === accountId || patientIds.includes(String(pick.payload.patientId))))
      .map((pick) => pick.payload));
  }
}

const isLaunch = (value: Record<string, unknown> | undefined): value is Record<string, unknown> & Launch =>
  typeof value?.patientId === 'string' && typeof value.accountId === 'string' && typeof value.fhirUser === 'string';

/**
 * A consented grant as it is kept beside oidc-provider's: who allowed it, for which app, in which
 * sign-in session, and for a SMART launch the patient picked. A plain OAuth grant (the API's own
 * scopes, no `aud`) has no pick: it reaches the person's own record and those they act for.
 */
export interface KeptGrant {
  accountId: string;
  clientId?: string;
  /** The sign-in session's uid: signing out there ends the grants made in it. */
  session?: string;
  patientId?: string;
  fhirUser?: string;
  /**
   * The grants this one replaced when the person consented again (keepGrant), newest first, theirs
   * after them: what a subscription made under one of them lives on through. A grant the person
   * revoked or signed out of, or that a replay ended, is in no list (replacedGrants takes live grants
   * alone), so signing in again never revives what it held.
   */
  replaces?: readonly string[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function keptOf(value: Record<string, unknown>): (KeptGrant & { grantId: string }) | undefined {
  const grantId = text(value.grantId);
  const accountId = text(value.accountId);
  if (grantId === undefined || accountId === undefined) return undefined;
  const [clientId, session] = [text(value.clientId), text(value.session)];
  const replaces = Array.isArray(value.replaces) ? value.replaces.filter((id): id is string => typeof id === 'string') : [];
  return {
    grantId, accountId, ...(clientId === undefined ? {} : { clientId }), ...(session === undefined ? {} : { session }),
    ...(isLaunch(value) ? { patientId: value.patientId, fhirUser: value.fhirUser } : {}),
    ...(replaces.length === 0 ? {} : { replaces }),
  };
}

/**
 * The consented grants (a SMART launch's pick among them), by grant id. oidc-provider keeps no custom
 * fields on a grant, so each is kept beside it, in the same store (every instance sees it), until no
 * refresh token of its grant can still be alive.
 */
export class LaunchPicks {
  private readonly store: PickStore;

  constructor(private readonly lifetimeSeconds: number, store?: PickStore, now: () => number = Date.now) {
    this.store = store ?? new MemoryPicks(now);
  }

  async remember(grantId: string, kept: KeptGrant): Promise<void> {
    await this.store.upsert(grantId, { ...kept, grantId }, this.lifetimeSeconds);
  }

  /** A SMART launch's pick; undefined for a plain grant or none. */
  async of(grantId: string | undefined): Promise<Launch | undefined> {
    if (grantId === undefined) return undefined;
    const pick = await this.store.find(grantId);
    return isLaunch(pick) ? { patientId: pick.patientId, accountId: pick.accountId, fhirUser: pick.fhirUser } : undefined;
  }

  /** A consented grant as kept (a launch's or a plain one); undefined for none. */
  async kept(grantId: string): Promise<(KeptGrant & { grantId: string }) | undefined> {
    const value = await this.store.find(grantId);
    return value === undefined ? undefined : keptOf(value);
  }

  /** The grants `accountId` allowed, and the launches anyone made for one of `patientIds` (whom they act for). */
  async opening(accountId: string, patientIds: readonly string[]): Promise<Array<KeptGrant & { grantId: string }>> {
    const kept = (await this.store.listFor(accountId, patientIds)).map(keptOf);
    return kept.filter((k): k is KeptGrant & { grantId: string } => k !== undefined && (k.accountId === accountId || k.patientId !== undefined));
  }

  /** A revoked grant's pick: its refreshes find no launch any more. */
  async forget(grantId: string): Promise<void> {
    await this.store.destroy(grantId);
  }
}

/** `fhirUser` (relative, SMART App Launch §2.0.11): the Patient for oneself, the pair's RelatedPerson for a delegate. */
export function fhirUserOf(picked: LaunchPerson): string {
  return picked.basis === 'self' || picked.relatedPersonId === undefined ? `Patient/${picked.patientId}` : `RelatedPerson/${picked.relatedPersonId}`;
}
