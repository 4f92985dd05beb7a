import type { LogPosition } from './access-log.port.js';

/**
 * Where a walk of the access log stands: the last entry shown, and the walk's end, fixed by its
 * first page. Reading a page is itself an entry of the log, so a walk whose end moved with the
 * clock would meet its own pages for ever (docs/contract.md#the-patients-access-log).
 */
export interface WalkPosition {
  after: LogPosition;
  /** The newest time the walk shows, epoch ms (inclusive). */
  untilMs: number;
}

/**
 * Opaque, tamper-proof page cursors: a walk's position sealed together with what it is bound to
 * (the store, the patient, the query and the caller), so a cursor is worthless for any other.
 */
export interface PageCursors {
  seal(walk: WalkPosition, binding: string): string;
  /**
   * The walk, or undefined when the cursor was altered, forged or made for another binding. A cursor
   * sealed before walks had an end (format 1) carries none: the walk's end is then fixed from that page on.
   */
  open(cursor: string, binding: string): { after: LogPosition; untilMs?: number } | undefined;
}
