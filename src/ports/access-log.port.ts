/**
 * Paged reads of the audit trail about one patient: the patient's access log (docs/contract.md#the-patients-access-log). Only
 * what the log may show is read: never the source address, the token's subject or the key.
 */

/** One request about the patient as the trail recorded its outcome (a write's attempt record is not one). */
export interface LoggedAccess {
  /** When, in epoch milliseconds (what the trail holds, to the millisecond). */
  timeMs: number;
  /**
   * The service's own id of the request: the record's `serviceRequestId`, else (a record older than
   * it) its `requestId`, which may then be a caller's X-Request-Id; never the caller's id of a record
   * that has both (docs/contract.md#the-patients-access-log).
   */
  requestId: string;
  operation: string;
  /** The other reads of the patient's data the request made, when it named any (OutcomeRecord.alsoRead). */
  alsoRead?: string[];
  /** What the EHR answered a write, `ERROR OUTSIDE_ARRIVAL_WINDOW` (OutcomeRecord.writeResult). */
  writeResult?: string;
  outcome: 'allowed' | 'denied' | 'failed';
  status: number;
  /** The identity number of the person whose token made the request, if a person's. */
  actorPersonId?: string;
  /** `client_id` (or `azp`) of the token. */
  clientId?: string;
  /** Name of the subscription the request came with, never the key. */
  subscription?: string;
  /** `self`, `client`, a relationship type, or `delegation` when a relationship was asked for and not found. */
  delegation?: string;
  /** The proxy grant the request or the service's settling changed (docs/proxies.md#audited-and-shown): how the log names its grantee. */
  proxyGrantId?: string;
  /** Why support staff ended the grant, in their words; only on support's revocation. */
  reason?: string;
}

/** The two sides of a proxy grant as the grant store holds them now; the grantee's name only once they accepted. */
export interface GrantParties {
  grantor: string;
  grantee: string;
  granteeName?: string;
}

/**
 * The grant of a `proxyGrantId`, looked up for the grantor's log (src/ports/proxy-grants.port.ts's store);
 * undefined for one the store does not hold. Throws ProxyGrantsUnavailableError when it cannot be read.
 */
export type GrantOf = (proxyGrantId: string) => Promise<GrantParties | undefined>;

/**
 * Where a page ended, in the store's own order (its entries come oldest first, ties in the order
 * stored): the last entry's time and the store's own position of it, opaque to everyone else.
 */
export interface LogPosition {
  timeMs: number;
  id: string;
}

export interface AccessLogQuery {
  patientId: string;
  /** Inclusive bounds in epoch milliseconds; absent: unbounded. */
  fromMs?: number;
  toMs?: number;
  /** Only entries after this one (a previous page's last). */
  after?: LogPosition;
  /** At most this many entries. */
  limit: number;
}

export interface StoredAccess {
  position: LogPosition;
  access: LoggedAccess;
}

export interface AccessLogReader {
  /** Names the store (`file`, `postgresql`): a position of one means nothing to another. */
  readonly store: string;
  /** Outcome records about `patientId`, oldest first. Throws AccessLogUnavailableError when the store cannot be read. */
  page(query: AccessLogQuery): Promise<StoredAccess[]>;
  close(): Promise<void>;
}

/** The trail cannot be read right now (database down, file unreadable): the caller gets 503, never an empty log. */
export class AccessLogUnavailableError extends Error {
  override name = 'AccessLogUnavailableError';
}
