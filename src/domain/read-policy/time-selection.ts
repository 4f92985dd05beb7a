/**
 * Range selection and ordering of mapped records (docs/contract.md#reads): inclusive bounds compared
 * as instants, oldest first, stable for equal times. Pure: returns new containers, never mutates,
 * and applying it twice gives the same result as once. Each read's policy says which member's time
 * counts; these are the pieces it is built from.
 */
import type { TimeRange } from '../time/time-range.js';
import { compactToEpochMs } from '../time/local-time.js';
import type { Bounds } from './read-policy.js';

/** The bounds of a range of compact local times, in `zone`. */
export function boundsOf(range: TimeRange, zone: string): Bounds {
  return {
    from: range.from === undefined ? -Infinity : compactToEpochMs(range.from, zone),
    to: range.to === undefined ? Infinity : compactToEpochMs(range.to, zone),
  };
}

/**
 * Keeps the items whose instant lies within `bounds`, sorted by instant; stable. An item without a
 * readable instant cannot be shown to lie in a range: it is kept, last, only when there is none.
 */
export function select<T>(items: readonly T[], instant: (item: T) => number, bounds: Bounds): T[] {
  const unbounded = bounds.from === -Infinity && bounds.to === Infinity;
  const kept: { item: T; at: number }[] = [];
  for (const item of items) {
    const at = instant(item);
    if (Number.isNaN(at)) {
      if (unbounded) kept.push({ item, at: Infinity });
    } else if (at >= bounds.from && at <= bounds.to) {
      kept.push({ item, at });
    }
  }
  kept.sort((a, b) => a.at - b.at);
  return kept.map((k) => k.item);
}

/** A TS value's instant; NaN without one (an unreadable instant, see `select`). */
export const instantOf = (ts: { value?: string } | undefined, zone: string): number =>
  (ts?.value === undefined ? Number.NaN : compactToEpochMs(ts.value, zone));

/** Each container with the extracts under `key` selected; containers keep their place. */
export function selectIn<C, K extends keyof C, T>(containers: C[], key: K, instant: (extract: T) => number, bounds: Bounds): C[] {
  return containers.map((c) => ({ ...c, [key]: select(c[key] as T[], instant, bounds) }));
}

/** The vendor layouts answer one element holding the extracts, or none when no extract is left. */
export function selectExtracts<C, K extends keyof C, T>(containers: C[], key: K, instant: (extract: T) => number, bounds: Bounds): C[] {
  return selectIn(containers, key, instant, bounds).filter((c) => (c[key] as unknown[]).length > 0);
}

/** The answer as the EHR gave it: a read with no time of its own (the patient's information). */
export const unfiltered = <T>(items: T[]): T[] => items;
