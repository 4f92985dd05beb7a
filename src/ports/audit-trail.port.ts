import { PAYMENT_TYPES, type PaymentType } from '../domain/writes/payment-types.js';
import { UNCONFIRMED_WRITE_RESULT } from '../domain/writes/write-outcomes.js';

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
  /**
   * The proxy grant a sharing request gave, accepted, declined or revoked, or time made lapse or expire
   * (docs/proxies.md#audited-and-shown): its id, so the grantor's access log can name the grantee.
   */
  proxyGrantId?: string;
  /**
   * Why support staff listed a person's grants or ended one (`npm run proxies -- list|revoke … --reason`), in their words, for
   * operators and the grantor (docs/proxies.md#audited-and-shown): 1 to AUDIT_REASON_MAX printable
   * characters (isAuditReason). Absent on every other record.
   */
  reason?: string;
  sourceAddress: string;
}

/** The longest `reason` a record keeps, in characters (code points). */
export const AUDIT_REASON_MAX = 500;
/** A control character (C0, DEL, C1) or a lone surrogate: in `u` mode a surrogate pair is one code point, never Cs. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/**
 * A reason both trails store as given and a terminal or a page shows as text: 1 to AUDIT_REASON_MAX
 * characters, none of them a control character (a line break would forge a line of `npm run audit`),
 * and no lone surrogate (UTF-8 would replace it, and the stored text would no longer hash as written).
 */
export function isAuditReason(text: unknown): text is string {
  if (typeof text !== 'string' || text.length === 0 || UNPRINTABLE.test(text)) return false;
  // Code points, as PostgreSQL's char_length counts them; a string of UTF-16 units is never fewer.
  return text.length <= AUDIT_REASON_MAX || Array.from(text).length <= AUDIT_REASON_MAX;
}

/**
 * A write's answer as a record keeps it: a ResultCode, then a space and a ReasonCode of capitals and
 * underscores where the EHR gave one of that form. No digits: the code comes from the EHR, and a run of
 * them could be an identity number, which no record field but the patient's and the actor's holds.
 */
export const isEhrWriteAnswer = (text: unknown): text is string => typeof text === 'string' && /^(?:OK|INFO|ERROR)(?: [A-Z][A-Z_]{0,63})?$/.test(text);

/** What a record may keep as `writeResult`: an answer of the EHR's (isEhrWriteAnswer), or UNCONFIRMED_WRITE_RESULT. */
export const isWriteResult = (text: unknown): text is string => text === UNCONFIRMED_WRITE_RESULT || isEhrWriteAnswer(text);

/**
 * A stored `writeResult` a reader passes on: this version's forms (isWriteResult) or another version's of the same
 * make, capitals and underscores without digits, which the access log names as a form it cannot show (a rollback:
 * hostile review helper-139, F1). Text of any other shape is not shown.
 */
export const isWriteResultForm = (text: unknown): text is string => typeof text === 'string' && /^[A-Z][A-Z_]{0,15}(?: [A-Z][A-Z_]{0,63})?$/.test(text);

/** A payment type as a record keeps it: one of PAYMENT_TYPES. */
export const isPaymentType = (text: unknown): text is PaymentType => typeof text === 'string' && (PAYMENT_TYPES as readonly string[]).includes(text);

/** What a request came to, allowed, refused or failed: exactly one per request. */
export interface OutcomeRecord extends AuditFields {
  phase?: undefined;
  outcome: 'allowed' | 'denied' | 'failed';
  status: number;
  /** How many items the release policy withheld from the answer (docs/contract.md#only-what-may-be-released), when any; never which. */
  withheld?: number;
  /**
   * What the EHR answered a write (docs/contract.md#writes): its ResultCode and ReasonCode, such as
   * `OK ARRIVAL_REGISTERED`, `INFO ALREADY_PAID` or `ERROR OUTSIDE_ARRIVAL_WINDOW` (isWriteResult), so
   * the trail tells the write that was made from its repeats and refusals; UNCONFIRMED_WRITE_RESULT on a write's
   * failure the EHR may have made. Absent on every other record.
   */
  writeResult?: string;
  /**
   * The other reads whose records of the patient the answer holds besides `operation`'s, in the order made
   * (docs/contract.md#the-patients-access-log): a FHIR search's includes, a `$summary`'s sections.
   * isAlsoRead (src/domain/access-log/also-read.ts) holds. Absent on every other record, and on every record
   * written before it.
   */
  alsoRead?: string[];
  /**
   * The booking a write was about, its ContactId (isContactId), where the write's answer shows the booking is the
   * patient's: any but `ERROR CONTACT_NOT_FOUND` of the answers docs/contract.md#writes names
   * (confirmsBooking). Never a caller's text the EHR did not know as the patient's: not on a refusal, a
   * failure, an attempt, or a booking not found. Absent on every other record.
   */
  contactId?: string;
  /**
   * With a payment's `contactId`, the payment type it paid with (isPaymentType): only on `OK PAYMENT_REGISTERED`, as
   * the EHR keeps the first payment's type and a repeat asking another (`INFO ALREADY_PAID`) changes nothing.
   */
  paymentType?: PaymentType;
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
