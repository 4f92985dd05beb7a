/**
 * Where proxy grants are kept (docs/proxies.md#where-grants-are-kept): PostgreSQL shared by every
 * instance, or a file in DATA_DIR. A grant's state is what it last changed to; whether time has since
 * made a pending one lapse or an active one expire is the domain's to decide (src/domain/proxies/grant.ts).
 */

/** A grant's state as stored. `expired` and `lapsed` are stored once the service has recorded them. */
export type StoredState = 'pending' | 'active' | 'declined' | 'revoked' | 'expired' | 'lapsed';

/** Who ended a grant: either side, or a region's support staff (`npm run proxies -- revoke`). */
export type EndedBy = 'grantor' | 'grantee' | 'support';

export interface StoredGrant {
  /** Opaque and unguessable (128 random bits, hex): a FHIR id as it is. */
  id: string;
  state: StoredState;
  grantor: string;
  /** The grantor's name as the EHR had it when they gave the grant. */
  grantorName?: string;
  grantee: string;
  /** The grantee's name, known only once they accepted; never looked up for a number someone typed. */
  granteeName?: string;
  /** Category names (src/domain/proxies/categories.ts), or `['*']`. */
  categories: readonly string[];
  validFromMs: number;
  /** Absent: until revoked. Inclusive, to the millisecond. */
  validToMs?: number;
  purpose?: string;
  createdMs: number;
  changedMs: number;
  endedBy?: EndedBy;
}

export type GrantEventKind = 'granted' | 'accepted' | 'declined' | 'revoked' | 'expired' | 'lapsed';

/** One change of a grant, kept in order (notifications follow them, docs/contract.md §12). */
export interface GrantEvent {
  /** The store's order; assigned when the event is kept. */
  seq?: number;
  grantId: string;
  kind: GrantEventKind;
  atMs: number;
  /** Who made the change; `service` for a lapse or an expiry, which time makes. */
  by: EndedBy | 'service';
  grantor: string;
  grantee: string;
}

/** What a change sets; the state moves only from one of the states it expects. */
export interface GrantChange {
  state: StoredState;
  changedMs: number;
  endedBy?: EndedBy;
  granteeName?: string;
}

export interface ProxyGrantStore {
  /** Names the store (`postgresql`, `file`, `memory`) for the start-up log. */
  readonly kind: string;
  /**
   * Keeps a new grant and its `granted` event, unless `admit`, given every grant its grantor has given
   * (oldest first), throws: decided and kept as one step for the grantor, across instances, so two
   * grants at once cannot both pass a limit.
   */
  create(grant: StoredGrant, admit: (given: readonly StoredGrant[]) => void): Promise<void>;
  byId(id: string): Promise<StoredGrant | undefined>;
  /** Every grant the person gave or received, oldest first. */
  involving(personId: string): Promise<StoredGrant[]>;
  /** The grants in state `active` the person received (time not yet applied). */
  activeReceivedBy(granteeId: string): Promise<StoredGrant[]>;
  /**
   * Changes a grant whose state is one of `from` and keeps `event` with it, as one step; undefined,
   * with nothing kept, when its state is no longer one of them (another request changed it first).
   */
  change(id: string, from: readonly StoredState[], change: GrantChange, event: GrantEvent): Promise<StoredGrant | undefined>;
  /** Grants still stored `pending` or `active` whose time may have run out by `nowMs`: created at or before `createdBy`, or with `validToMs` before `nowMs`. */
  due(nowMs: number, createdBy: number): Promise<StoredGrant[]>;
  /**
   * Runs `work` while no other instance runs its own (the recording of lapses and expiries, so each is
   * recorded once); undefined, without running it, when another instance holds the turn.
   */
  inTurn<T>(work: () => Promise<T>): Promise<T | undefined>;
  /** Events after `afterSeq`, in order, at most `limit`. */
  events(afterSeq: number, limit: number): Promise<GrantEvent[]>;
  close(): Promise<void>;
}

/** The store cannot be read or written right now: the caller gets 503, and nothing is granted or opened. */
export class ProxyGrantsUnavailableError extends Error {
  override name = 'ProxyGrantsUnavailableError';
}
