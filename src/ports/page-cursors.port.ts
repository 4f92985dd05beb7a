import type { LogPosition } from './access-log.port.js';

/**
 * Opaque, tamper-proof page cursors: a position sealed together with what it is bound to (the
 * store, the patient and the query), so a cursor is worthless for any other patient or query.
 */
export interface PageCursors {
  seal(position: LogPosition, binding: string): string;
  /** The position, or undefined when the cursor was altered, forged or made for another binding. */
  open(cursor: string, binding: string): LogPosition | undefined;
}
