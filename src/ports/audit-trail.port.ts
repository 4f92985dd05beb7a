/** What every audit record says about its request. Never holds a token or a key. */
interface AuditFields {
  /** ISO-8601 UTC time of the decision. */
  time: string;
  /**
   * The service's own id of the request (a UUID, answered in X-Request-Id). Records written before
   * issue 34 hold the caller's X-Request-Id here when it was plain: read `serviceRequestId` first.
   */
  requestId: string;
  /**
   * The service's own id of the request, made by the service for every request and never taken
   * from a caller: the attempt and the outcome of one write share it. Equals `requestId` in every
   * record written since issue 34. Absent only in records written before it existed.
   */
  serviceRequestId?: string;
  /**
   * The caller's X-Request-Id, for operators only (never shown to a patient): scrubbed of identity
   * numbers and tokens, printable ASCII, at most 128 characters. Absent when the caller sent none.
   */
  callerRequestId?: string;
  operation: string;
  /** `iss` + `sub` of the token, when one was verified. */
  actor?: { issuer: string; subject: string; personId?: string };
  clientId?: string;
  /** Name (never the value) of the subscription key. */
  subscription?: string;
  /** The patient the request was for, when known. */
  patientId?: string;
  /** `self`, `client`, or the relationship type that allowed the access. */
  delegation?: string;
  sourceAddress: string;
}

/** What a request came to, allowed, refused or failed: exactly one per request. */
export interface OutcomeRecord extends AuditFields {
  phase?: undefined;
  outcome: 'allowed' | 'denied' | 'failed';
  status: number;
  /** How many items the release policy withheld from the answer (docs/contract.md#only-what-may-be-released), when any; never which. */
  withheld?: number;
  /**
   * Only on a record of operation `refusalsNotAudited`, which answers no request: how many refusals
   * before authentication with this status were counted in the window ending at `time` and not
   * audited one by one (docs/operations.md#the-audit-store).
   */
  unaudited?: number;
}

/**
 * Stored before a write reaches the EHR, once the caller is authorised (docs/contract.md#what-never-happens): if it cannot
 * be stored, the EHR is not asked. Its request's outcome record follows with the same
 * `serviceRequestId`; an attempt without one means the service stopped in between, and the write
 * may or may not have happened.
 */
export interface AttemptRecord extends AuditFields {
  phase: 'attempt';
  outcome: 'allowed';
  status?: undefined;
}

/** One access to patient data: its outcome, or the attempt that a write stores first. */
export type AuditRecord = OutcomeRecord | AttemptRecord;

export function isAttempt(record: AuditRecord): record is AttemptRecord {
  return record.phase === 'attempt';
}

export interface AuditTrail {
  /** Resolves once the record is durably stored; rejects if it cannot be. */
  append(record: AuditRecord): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
