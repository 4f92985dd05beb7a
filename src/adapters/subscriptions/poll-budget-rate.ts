/**
 * The arithmetic of the EHR read budget (docs/notifications.md#the-ehr-budget), a GCRA (generic cell
 * rate algorithm, the leaky bucket as a meter): each read takes one emission interval of a timeline
 * whose end, the theoretical arrival time (TAT), moves on by `reads × interval` from the later of
 * itself and now; the reads may be made once the TAT is within the burst of now.
 *
 * So the reads made in any window of length L are at most (L + burst) / interval: the rate, and at most
 * one second's worth at once, or one poll's reads where a single poll needs more than that (a poll of
 * four reads at 0.5 per second waits its six seconds, then makes its four). The memory and PostgreSQL
 * budgets share this; PostgreSQL moves the TAT in one UPDATE every instance takes in turn.
 */

/** One second's worth of the budget: how far ahead of now the reserved timeline may run before a poll waits. */
export const BURST_MS = 1000;

/** Milliseconds one read takes of the budget; a rate that is not a positive number is refused. */
export function intervalMs(readsPerSecond: number): number {
  if (!(Number.isFinite(readsPerSecond) && readsPerSecond > 0)) throw new RangeError(`reads per second must be a positive number, not ${readsPerSecond}`);
  return 1000 / readsPerSecond;
}

/** A reservation's size: a whole number of reads, zero or more. */
export function checkReads(reads: number): void {
  if (!(Number.isSafeInteger(reads) && reads >= 0)) throw new RangeError(`a reservation is a whole number of reads, not ${reads}`);
}

/** The TAT once `reads` are reserved at `nowMs`. */
export const nextTat = (tat: number, nowMs: number, reads: number, interval: number): number => Math.max(tat, nowMs) + reads * interval;

/** How long to wait at `nowMs` before making reads reserved up to `tat` (whole milliseconds, rounded up: never early). */
export const waitFor = (tat: number, nowMs: number): number => Math.max(0, Math.ceil(tat - BURST_MS - nowMs));
