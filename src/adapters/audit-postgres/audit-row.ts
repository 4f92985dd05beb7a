import { isAlsoRead } from '../../domain/access-log/also-read.js';
import { isContactId } from '../../domain/writes/contact-id.js';
import { isAuditReason, isPaymentType, isWriteResult, type AuditRecord, type OutcomeRecord } from '../../ports/audit-trail.port.js';
import { macHex, unkeyedHex, type ChainKey } from '../audit-chain/chain-keys.js';

/** The `prev_hash` of the first row, as in the file trail. */
export const GENESIS = '0'.repeat(64);

/** Column order of the table; the canonical form and the INSERT both follow it. */
export const COLUMNS = [
  'time', 'request_id', 'operation', 'actor_issuer', 'actor_subject', 'actor_person_id', 'client_id',
  'subscription', 'patient_id', 'delegation', 'source_address', 'outcome', 'status',
] as const;

/** Columns added by migrations 2 to 5, after `status` in the INSERT and the canonical form. */
export const LATER_COLUMNS = ['phase', 'service_request_id', 'withheld', 'caller_request_id', 'unaudited'] as const;

/**
 * Columns added by migrations 7 (proxy grants), 8 (a write's answer), 9 (the other reads a request made) and 10 (a write's
 * booking and payment type), after `key_id` in the INSERT; in the canonical forms only when set.
 */
export const GRANT_COLUMNS = ['proxy_grant_id', 'reason', 'write_result', 'also_read', 'contact_id', 'payment_type'] as const;

/** One record as stored: `time` is UTC with microseconds, absent fields are null, in COLUMNS order, then LATER_COLUMNS. */
export interface StoredValues {
  time: string;
  text: Array<string | null>;
  /** Null for an attempt record, which is stored before there is an answer. */
  status: number | null;
  phase: 'attempt' | 'outcome';
  serviceRequestId: string | null;
  /** How many items the release policy withheld from the answer; null when none (and for every older row). */
  withheld: number | null;
  /** The caller's X-Request-Id as kept for operators; null when none was sent (and for every older row). */
  callerRequestId: string | null;
  /** On a `refusalsNotAudited` row, how many refusals it counts; null on every other row. */
  unaudited: number | null;
  /** The proxy grant a row is about (migration 7); null on every other row (and every older one). */
  proxyGrantId: string | null;
  /** Why support staff ended a grant (migration 7); null on every other row. */
  reason: string | null;
  /** What the EHR answered a write (migration 8), `OK ARRIVAL_REGISTERED`; null on every other row. */
  writeResult: string | null;
  /** The other reads the request made (migration 9), space-separated: `getJournalNotes getDiagnoses`; null on every other row. */
  alsoRead: string | null;
  /** The booking a write was about (migration 10), `4711`; null on every other row. */
  contactId: string | null;
  /** With a payment's booking, the type it asked (migration 10), `CARD`; null on every other row. */
  paymentType: string | null;
}

const OUTCOMES = new Set<string>(['allowed', 'denied', 'failed']);
/** A positive whole number the integer columns hold. */
const isCount = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 2_147_483_647;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** What the HTTP layer keeps of a caller's id, and the column's CHECK: printable ASCII, 1 to 128 characters. */
const CALLER_ID = /^[\x20-\x7e]{1,128}$/;
/** A grant id as the column's CHECK takes it: the store's ids are 32 hex digits; this leaves room for another store's. */
export const GRANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A value the database stores exactly as given: PostgreSQL refuses NUL in text and UTF-8 encoding
 * replaces lone surrogates, either of which would fail a whole batch or falsify the hash.
 */
function storable(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.includes('\u0000') || Buffer.from(value, 'utf8').toString('utf8') !== value) {
    throw new TypeError(`audit record field ${field} cannot be stored`);
  }
  return value;
}

/**
 * The record in the form the table holds it, validated here so one bad record is refused alone
 * instead of failing the batch it would share with other requests.
 */
export function toStoredValues(record: AuditRecord): StoredValues {
  const ms = Date.parse(record.time);
  const iso = Number.isNaN(ms) ? '' : new Date(ms).toISOString();
  if (!ISO_MS.test(iso)) throw new TypeError('audit record time is not a valid instant');
  if (!OUTCOMES.has(record.outcome)) throw new TypeError('audit record outcome is invalid');
  const attempt = record.phase === 'attempt';
  if (attempt ? record.status !== undefined || record.outcome !== 'allowed'
    : record.phase !== undefined || !Number.isInteger(record.status) || record.status < 100 || record.status > 599) {
    throw new TypeError('audit record phase or status is invalid');
  }
  const withheld = attempt ? undefined : record.withheld;
  if (withheld !== undefined && !isCount(withheld)) throw new TypeError('audit record withheld count is invalid');
  const unaudited = attempt ? undefined : record.unaudited;
  if (unaudited !== undefined && !isCount(unaudited)) throw new TypeError('audit record unaudited count is invalid');
  for (const field of ['requestId', 'operation'] as const) {
    if (typeof record[field] !== 'string' || record[field] === '') throw new TypeError(`audit record lacks ${field}`);
  }
  const caller = record.callerRequestId;
  if (caller !== undefined && (typeof caller !== 'string' || !CALLER_ID.test(caller))) throw new TypeError('audit record field callerRequestId cannot be stored');
  const grant = record.proxyGrantId;
  if (grant !== undefined && (typeof grant !== 'string' || !GRANT_ID.test(grant))) throw new TypeError('audit record field proxyGrantId cannot be stored');
  if (record.reason !== undefined && !isAuditReason(record.reason)) throw new TypeError('audit record field reason cannot be stored');
  const writeResult = attempt ? undefined : record.writeResult;
  if (writeResult !== undefined && !isWriteResult(writeResult)) throw new TypeError('audit record field writeResult cannot be stored');
  const alsoRead = attempt ? undefined : record.alsoRead;
  if (alsoRead !== undefined && !isAlsoRead(alsoRead)) throw new TypeError('audit record field alsoRead cannot be stored');
  const contactId = attempt ? undefined : record.contactId;
  if (contactId !== undefined && !isContactId(contactId)) throw new TypeError('audit record field contactId cannot be stored');
  const paymentType = attempt ? undefined : record.paymentType;
  // A type names the payment of a booking: alone it would say nothing of which.
  if (paymentType !== undefined && (!isPaymentType(paymentType) || contactId === undefined)) throw new TypeError('audit record field paymentType cannot be stored');
  const a = record.actor;
  return {
    // The database keeps microseconds; the canonical form spells them out so a changed instant shows.
    time: `${iso.slice(0, 23)}000Z`,
    text: [
      storable(record.requestId, 'requestId'), storable(record.operation, 'operation'),
      storable(a?.issuer, 'actor.issuer'), storable(a?.subject, 'actor.subject'), storable(a?.personId, 'actor.personId'),
      storable(record.clientId, 'clientId'), storable(record.subscription, 'subscription'),
      storable(record.patientId, 'patientId'), storable(record.delegation, 'delegation'),
      storable(record.sourceAddress, 'sourceAddress'), record.outcome,
    ],
    status: record.status ?? null,
    phase: attempt ? 'attempt' : 'outcome',
    serviceRequestId: storable(record.serviceRequestId, 'serviceRequestId'),
    withheld: withheld ?? null,
    callerRequestId: caller ?? null,
    unaudited: unaudited ?? null,
    proxyGrantId: grant ?? null,
    reason: record.reason ?? null,
    writeResult: writeResult ?? null,
    alsoRead: alsoRead?.join(' ') ?? null,
    contactId: contactId ?? null,
    paymentType: paymentType ?? null,
  };
}

/**
 * sha256 over the canonical JSON array of every column (COLUMNS order, then LATER_COLUMNS) followed
 * by the previous hash. The columns of migrations 2 and 3 are spelled as rows written before them
 * had them: none for an outcome with no service request id and nothing withheld, else `phase`,
 * `service_request_id` and `withheld` when not null. The columns of migrations 4 and 5
 * (`caller_request_id`, `unaudited`) are spelled only when one is set, up to the last one set, and
 * then `withheld` is spelled out, null included: such a row has four or five later values and every
 * other row at most three, so no two rows share a canonical form and every older row keeps its hash.
 * The columns of migration 7 (`proxy_grant_id`, `reason`) follow the same rule after them: a row with
 * either has six or seven later values, and every row before it at most five. So does migration 8's
 * `write_result`: a row with it has eight, every row before it at most seven; migration 9's `also_read`:
 * a row with it has nine; and migration 10's `contact_id` and `payment_type`: a row with them has ten or eleven.
 */
export function rowHash(values: StoredValues, prevHash: string): string {
  const newer = [values.callerRequestId, values.unaudited, ...grantColumns(values)];
  while (newer.length > 0 && newer[newer.length - 1] === null) newer.pop();
  const withheld = values.withheld === null ? [] : [values.withheld];
  const later = newer.length > 0 ? [values.phase, values.serviceRequestId, values.withheld, ...newer]
    : values.phase === 'outcome' && values.serviceRequestId === null && values.withheld === null
      ? [] : [values.phase, values.serviceRequestId, ...withheld];
  const canonical = JSON.stringify([values.time, ...values.text, values.status, ...later, prevHash]);
  return unkeyedHex(canonical);
}

/**
 * The MAC of a keyed row (migration 6): HMAC-SHA-256 under `key` over the canonical JSON array of
 * every column up to `unaudited`, each spelled out (null included), then the columns of migrations 7
 * to 10 up to the last one set (none on a row without them, so every keyed row written before keeps its
 * MAC; 21 to 26 values before the key's id on a row with them, 20 on every other, so no two rows
 * share a form), then the key's id and the previous hash. A row with a key id is verified only this
 * way, so the spelling of the unkeyed form above never applies.
 */
export function rowMac(values: StoredValues, prevHash: string, key: ChainKey): string {
  return macHex(key, JSON.stringify([values.time, ...values.text, values.status, values.phase, values.serviceRequestId, values.withheld,
    values.callerRequestId, values.unaudited, ...grantValues(values), key.id, prevHash]));
}

/** The columns of migrations 7 to 10 in GRANT_COLUMNS order. */
const grantColumns = (values: StoredValues): Array<string | null> =>
  [values.proxyGrantId, values.reason, values.writeResult, values.alsoRead, values.contactId, values.paymentType];

/** The columns of migrations 7 to 10 up to the last one set: none for a row without any. */
function grantValues(values: StoredValues): Array<string | null> {
  const set = grantColumns(values);
  while (set.length > 0 && set[set.length - 1] === null) set.pop();
  return set;
}

/** The row's hash as the chain holds it: its MAC under `key`, or, without one (a row from before the key), rowHash. */
export const chainedHash = (values: StoredValues, prevHash: string, key: ChainKey | undefined): string =>
  (key === undefined ? rowHash(values, prevHash) : rowMac(values, prevHash, key));

/** Columns of a selected row (`id` is bigint, which the driver returns as text), `time` read as text so no precision is lost. */
export interface SelectedRow {
  id: string;
  time_utc: string;
  request_id: string;
  operation: string;
  actor_issuer: string | null;
  actor_subject: string | null;
  actor_person_id: string | null;
  client_id: string | null;
  subscription: string | null;
  patient_id: string | null;
  delegation: string | null;
  source_address: string | null;
  outcome: AuditRecord['outcome'];
  status: number | null;
  phase: 'attempt' | 'outcome';
  service_request_id: string | null;
  withheld: number | null;
  caller_request_id: string | null;
  unaudited: number | null;
  proxy_grant_id: string | null;
  reason: string | null;
  write_result: string | null;
  also_read: string | null;
  contact_id: string | null;
  payment_type: string | null;
  /** The chain key's id (migration 6); null for a row written before the chain had a key. */
  key_id: string | null;
  prev_hash: string;
  hash: string;
}

// The text form of `time` gets another name, so an ORDER BY time still sorts the timestamptz column.
export const SELECT_COLUMNS = `id, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time_utc, request_id, operation, actor_issuer, actor_subject, actor_person_id,
  client_id, subscription, patient_id, delegation, source_address, outcome, status, phase, service_request_id, withheld, caller_request_id, unaudited, proxy_grant_id, reason, write_result, also_read, contact_id, payment_type, key_id, prev_hash, hash`;

export function storedValuesOf(row: SelectedRow): StoredValues {
  return {
    time: row.time_utc,
    text: [row.request_id, row.operation, row.actor_issuer, row.actor_subject, row.actor_person_id, row.client_id,
      row.subscription, row.patient_id, row.delegation, row.source_address, row.outcome],
    status: row.status, phase: row.phase, serviceRequestId: row.service_request_id, withheld: row.withheld, callerRequestId: row.caller_request_id,
    unaudited: row.unaudited, proxyGrantId: row.proxy_grant_id, reason: row.reason, writeResult: row.write_result, alsoRead: row.also_read,
    contactId: row.contact_id, paymentType: row.payment_type,
  };
}

/**
 * Back to the port's shape: null columns become absent fields, time loses the padding microseconds.
 * The table's checks make an attempt row one with outcome `allowed` and no status, any other row an outcome.
 */
export function recordOf(row: SelectedRow): AuditRecord {
  const common = {
    time: new Date(Date.parse(row.time_utc)).toISOString(),
    requestId: row.request_id, operation: row.operation,
    // The port requires an address; one the socket no longer knew was stored as null.
    sourceAddress: row.source_address ?? '',
  };
  const record: AuditRecord = row.phase === 'attempt'
    ? { ...common, phase: 'attempt', outcome: 'allowed' }
    : {
      ...common, outcome: row.outcome, status: row.status ?? 0,
      ...(row.withheld === null ? {} : { withheld: row.withheld }), ...(row.unaudited === null ? {} : { unaudited: row.unaudited }),
      ...(row.write_result === null ? {} : { writeResult: row.write_result }), ...(row.also_read === null ? {} : { alsoRead: row.also_read.split(' ') }),
      ...(row.contact_id === null ? {} : { contactId: row.contact_id }), ...(isPaymentType(row.payment_type) ? { paymentType: row.payment_type } : {}),
    } satisfies OutcomeRecord;
  if (row.service_request_id !== null) record.serviceRequestId = row.service_request_id;
  if (row.caller_request_id !== null) record.callerRequestId = row.caller_request_id;
  if (row.actor_issuer !== null && row.actor_subject !== null) {
    record.actor = { issuer: row.actor_issuer, subject: row.actor_subject, ...(row.actor_person_id !== null ? { personId: row.actor_person_id } : {}) };
  }
  if (row.client_id !== null) record.clientId = row.client_id;
  if (row.subscription !== null) record.subscription = row.subscription;
  if (row.patient_id !== null) record.patientId = row.patient_id;
  if (row.delegation !== null) record.delegation = row.delegation;
  if (row.proxy_grant_id !== null) record.proxyGrantId = row.proxy_grant_id;
  if (row.reason !== null) record.reason = row.reason;
  return record;
}
