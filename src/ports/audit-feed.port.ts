/**
 * The audit trail read forward, record after record, from a position (docs/notifications.md#finding-changes):
 * how the `access` topic learns of new entries of a patient's access log made by any instance or
 * command, and how a write's change brings its patient's next poll forward. Only what the feed needs.
 */

/** One outcome record as the feed reads it. */
export interface FedRecord {
  timeMs: number;
  /** The service's own id of the request (`serviceRequestId`, else `requestId`). */
  requestId: string;
  operation: string;
  outcome: 'allowed' | 'denied' | 'failed';
  status: number;
  patientId: string;
  /** The identity number of the person whose token acted, when a person's. */
  actorPersonId?: string;
  /** The app whose token acted, when the record names one. */
  clientId?: string;
}

export interface FeedPage {
  /** Outcome records naming a patient, in the order stored (attempt records and records naming nobody are passed over). */
  records: FedRecord[];
  /** Where the next page starts; opaque, kept by the caller. */
  position: string;
}

export interface AuditFeed {
  /** Records stored after `position` (from the trail's end as it is now when undefined: nothing before is read), at most about `limit`. */
  after(position: string | undefined, limit: number): Promise<FeedPage>;
}

/** The trail cannot be read right now: the feed's turn fails, and the next turn reads from the same position. */
export class AuditFeedUnavailableError extends Error {
  override name = 'AuditFeedUnavailableError';
}
