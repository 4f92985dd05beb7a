/**
 * The selection of records that cannot change, remembered (issue 56 item 4; BENCHMARKS.md). Kept
 * mappings are frozen (mapped-documents.ts), so selecting and sorting the same frozen array for the
 * same bounds gives the same records every time: the answer is made once per array and bounds, and
 * handed out frozen, so no caller can change what the next one gets. An array that is not frozen is
 * selected anew each time, as before. Entries live as long as their array (a WeakMap), a few bounds each.
 */
import type { Bounds } from './read-policy.js';

/** Bounds remembered per array: a read's usual ranges (none, this year, a window) and a few more. */
const BOUNDS_KEPT = 8;

/**
 * Freezes what a selection made anew (its array, the containers it copied and their lists), stopping
 * at what was frozen already: the kept records themselves.
 */
function freezeNew<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) freezeNew(inner);
  return value;
}

const remembered = new WeakMap<readonly unknown[], Map<string, readonly unknown[]>>();

/** `select(items, bounds)` for `items`, remembered when `items` is frozen; `key` names everything else it depends on. */
export function rememberedSelection<T>(items: readonly T[], key: string, bounds: Bounds, select: () => T[]): T[] {
  if (!Object.isFrozen(items)) return select();
  const name = `${key}\u0000${String(bounds.from)}\u0000${String(bounds.to)}`;
  let kept = remembered.get(items);
  const found = kept?.get(name);
  if (found !== undefined) return found as T[];
  const selected = freezeNew(select());
  if (kept === undefined) remembered.set(items, kept = new Map());
  else if (kept.size >= BOUNDS_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(name, selected);
  return selected as T[];
}
