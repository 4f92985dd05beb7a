/**
 * A proxy grant as the person sees it (docs/proxies.md#the-grant-object): its status at a moment,
 * their role in it, and its times in local time. The stored state is what the grant last changed to;
 * time alone makes a pending one lapse and an active one expire, so its status is decided here, at
 * every use, never trusted from what was stored.
 */
import type { EndedBy, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';
import type { ProxyReach } from '../access/relationship.js';
import { epochMsToCompact } from '../time/local-time.js';
import type { Static } from 'typebox';
import { EVERY_CATEGORY } from './categories.js';
import type { GrantViewSchema } from './grant-schema.js';

const DAY_MS = 86_400_000;

/** PROXY_INVITATION_DAYS, PROXY_MAX_GRANTS, PROXY_MAX_GRANTS_PER_DAY, PROXY_MAX_GRANTS_TO_ONE_PER_DAY and PROXY_MAX_DAYS (docs/proxies.md#for-a-region). */
export interface ProxySettings {
  invitationDays: number;
  maxGrants: number;
  /** Grants one person may give in any 24 hours, ended ones too; and of those, to any one person. */
  maxGrantsPerDay: number;
  maxGrantsToOnePerDay: number;
  /** The longest a grant may last; absent: a grant may last until revoked. */
  maxDays?: number;
}

export type GrantStatus = StoredState;

/** When a pending grant lapses: `PROXY_INVITATION_DAYS` after it was given, or at its end if that comes first. */
export function lapsesAtMs(grant: StoredGrant, settings: ProxySettings): number {
  const byInvitation = grant.createdMs + settings.invitationDays * DAY_MS;
  return grant.validToMs === undefined ? byInvitation : Math.min(byInvitation, grant.validToMs + 1);
}

/** The grant's status at `nowMs`, and since when it has been so. */
export function statusAt(grant: StoredGrant, nowMs: number, settings: ProxySettings): { status: GrantStatus; sinceMs: number } {
  if (grant.state === 'pending' && nowMs >= lapsesAtMs(grant, settings)) return { status: 'lapsed', sinceMs: lapsesAtMs(grant, settings) };
  if (grant.state === 'active' && grant.validToMs !== undefined && nowMs > grant.validToMs) return { status: 'expired', sinceMs: grant.validToMs + 1 };
  return { status: grant.state, sinceMs: grant.changedMs };
}

/** Whether the grant is still open (pending or active) at `nowMs`: what counts towards PROXY_MAX_GRANTS. */
export const isOpen = (grant: StoredGrant, nowMs: number, settings: ProxySettings): boolean => {
  const { status } = statusAt(grant, nowMs, settings);
  return status === 'pending' || status === 'active';
};

/** What a grant's categories open. */
export const reachOfGrant = (grant: StoredGrant): ProxyReach =>
  (grant.categories.includes(EVERY_CATEGORY) ? EVERY_CATEGORY : new Set(grant.categories));

export type GrantRole = 'grantor' | 'grantee';

/** The person's role in the grant; undefined when it is not theirs. */
export const roleOf = (grant: StoredGrant, personId: string): GrantRole | undefined =>
  (grant.grantor === personId ? 'grantor' : grant.grantee === personId ? 'grantee' : undefined);

/** A party of a grant: the number, and the name once it is known. */
export interface GrantParty {
  identityNumber: string;
  name?: string;
}

/** The grant object of the COS door (docs/contract.md §11): times 14-digit local. */
export interface GrantView {
  id: string;
  status: GrantStatus;
  role: GrantRole;
  grantor: GrantParty;
  grantee: GrantParty;
  categories: string[];
  validFrom: string;
  validTo?: string;
  purpose?: string;
  created: string;
  changed: string;
  endedBy?: EndedBy;
}

/** The instants a view's local times stand for: a 14-digit local time names autumn's repeated hour twice. */
export interface GrantInstants {
  validFromMs: number;
  validToMs?: number;
  createdMs: number;
}

/**
 * A view with its instants, as the use case gives it: the COS door answers the view through its schema,
 * which leaves `instants` out; the FHIR door writes its times from them.
 */
export interface DatedGrantView extends GrantView {
  instants: GrantInstants;
}

/** The view as the COS door and the operators' listing show it: its local times, without the instants. */
export function plainView(view: DatedGrantView): GrantView {
  const { instants: _instants, ...plain } = view;
  return plain;
}

const party = (identityNumber: string, name: string | undefined): GrantParty => (name === undefined || name === '' ? { identityNumber } : { identityNumber, name });

/** The grant as `role` sees it at `nowMs`. */
export function viewOf(grant: StoredGrant, role: GrantRole, nowMs: number, settings: ProxySettings, zone: string): DatedGrantView {
  const { status, sinceMs } = statusAt(grant, nowMs, settings);
  const instants: GrantInstants = {
    validFromMs: grant.validFromMs, createdMs: grant.createdMs, ...(grant.validToMs === undefined ? {} : { validToMs: grant.validToMs }),
  };
  const view: DatedGrantView = {
    id: grant.id, status, role,
    grantor: party(grant.grantor, grant.grantorName),
    // The grantee's name only once they accepted: a number someone typed is never answered with a name.
    grantee: party(grant.grantee, grant.granteeName),
    categories: [...grant.categories],
    validFrom: epochMsToCompact(grant.validFromMs, zone),
    created: epochMsToCompact(grant.createdMs, zone),
    changed: epochMsToCompact(sinceMs, zone),
    instants,
  };
  if (grant.validToMs !== undefined) view.validTo = epochMsToCompact(grant.validToMs, zone);
  if (grant.purpose !== undefined) view.purpose = grant.purpose;
  if (grant.endedBy !== undefined && (status === 'revoked' || status === 'declined')) view.endedBy = grant.endedBy;
  return view;
}

// The schema the routes answer through (grant-schema.ts) and this view are one shape: a member added to either alone fails to compile
// here. Checked on this side, as the schema is part of the operation table, which this file's categories are derived from.
type SchemaView = Static<typeof GrantViewSchema>;
export const asSchemaView = (view: GrantView): SchemaView => view;
export const asGrantView = (view: SchemaView): GrantView => view;
