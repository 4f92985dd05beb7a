/**
 * The operation table: every operation of the API, once (docs/architecture.md#one-operation-one-place).
 * Ordered as the spec numbers them, then the vendor's reads beyond the spec, then what the law adds. Everything about an operation that
 * routes, scope checks, documentation, the access log or tests need is read from here.
 */
import type { Static } from 'typebox';
import * as READS from '../../reads/index.js';
import type { ReadPolicy } from '../read-policy/read-policy.js';
import { rememberedSelection } from '../read-policy/remembered-selection.js';
import { boundsOf } from '../read-policy/time-selection.js';
import type { TimeRange } from '../time/time-range.js';
import { getAccessLog } from './access-log.js';
import { changeAppointment } from './change-appointment.js';
import { PROXY_AUDIT_ACTIONS, type AuditAction, type Operation, type RecordsRead } from './operation.js';
import { registerPayment } from './payments.js';
import { PROXY_OPERATIONS } from './proxy-operations.js';

/** After the reads and writes of the EHR: the access log, then sharing (neither is a call of the EHR). */
const rank = (op: Operation): number => (op.handler === 'accessLog' ? 1 : op.handler === 'proxy' ? 2 : 0);

/**
 * Numbered operations by number, then unnumbered reads by name; the access log, then sharing, last.
 * Sharing's operations keep the table's order (list, read, grant, accept, decline, revoke: the steps as a person takes them).
 */
const listingOrder = ([nameA, a]: [string, Operation], [nameB, b]: [string, Operation]): number =>
  rank(a) - rank(b)
  || (rank(a) === 2 ? 0 : (a.number ?? Number.MAX_SAFE_INTEGER) - (b.number ?? Number.MAX_SAFE_INTEGER)
    || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0));

const inListingOrder = <T extends Record<string, Operation>>(table: T): T =>
  Object.fromEntries(Object.entries(table).sort(listingOrder)) as T;

export const OPERATIONS = inListingOrder({
  registerPayment,
  changeAppointment,
  ...READS,
  getAccessLog,
  ...PROXY_OPERATIONS,
} as const satisfies Record<string, Operation>);

type Table = typeof OPERATIONS;
export type OperationName = keyof Table;

/** The reads of patient records from the EHR, by the name of their operation. */
export type ReadName = { [O in OperationName]: Table[O] extends RecordsRead ? O : never }[OperationName];

/** One item of a read's answer (the answer is an array of these). */
export type ReadItem<R extends ReadName> = Table[R] extends RecordsRead<infer S> ? Static<S> : never;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export const isOperationName = (name: string): name is OperationName => Object.hasOwn(OPERATIONS, name);

export const READ_NAMES = OPERATION_NAMES.filter((name): name is ReadName => OPERATIONS[name].handler === 'records');

/** A read's policy, typed by its answer's item. */
export const readPolicyOf = <R extends ReadName>(name: R): ReadPolicy<ReadItem<R>> =>
  (OPERATIONS[name] as RecordsRead).policy as ReadPolicy<ReadItem<R>>;

/** A read's items within `range` (compact local times in `zone`), oldest first, as its policy selects them. */
export function selectInRange<R extends ReadName>(read: R, items: ReadItem<R>[], range: TimeRange, zone: string): ReadItem<R>[] {
  const bounds = boundsOf(range, zone);
  return rememberedSelection(items, `${read}\u0000${zone}`, bounds, () => readPolicyOf(read).select(items, bounds, zone));
}

/** True for the operations that change patient data. */
/**
 * What an operation of the table does to the patient's record (the access log's AuditEvent.action): the EHR's writes
 * update it, sharing's changes make, answer or end a grant of it (PROXY_AUDIT_ACTIONS); a read, or a name not of the
 * table, changes nothing.
 */
export function auditActionOf(operation: string): AuditAction {
  if (!isOperationName(operation)) return 'E';
  const op: Operation = OPERATIONS[operation];
  if (op.handler === 'arrival' || op.handler === 'payment') return 'U';
  return op.handler === 'proxy' ? PROXY_AUDIT_ACTIONS[op.action] : 'E';
}

/** Whether an operation changes the patient's record or who may read it: a write of the EHR, or a change of a grant. */
export const changesPatientData = (operation: string): boolean => auditActionOf(operation) !== 'E';

/** The reads whose entry has a release rule, by name: what the compiler knows of RELEASE_FILTERED_READS. */
export type ReleaseFilteredRead = { [R in ReadName]: Table[R]['policy'] extends { release: unknown } ? R : never }[ReadName];

/** The reads the release policy may filter, each of which may have its own guardian age limit. */
export const RELEASE_FILTERED_READS: readonly ReleaseFilteredRead[] = READ_NAMES.filter(
  (name): name is ReleaseFilteredRead => OPERATIONS[name].policy.release !== undefined);

/**
 * What a guardian age limit may name: the reads the release policy filters, and the access log (past
 * its age a guardian no longer sees who read the child's record, docs/contract.md#the-patients-access-log).
 * Each answer of these may carry `Patient-Data-Filtered`.
 */
export const GUARDIAN_LIMITED_OPERATIONS: readonly OperationName[] = [...RELEASE_FILTERED_READS, 'getAccessLog'];
