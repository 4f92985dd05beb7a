/**
 * Whether a kept record names a listed care unit, remembered per record and list (issue 56 item 4: the
 * release policy's care-unit checks repeated per record cost a policy-filtered journal a fifth of its
 * CPU). The check walks the whole record (unit-references.ts), and a kept record (the embedded EHR's
 * and xml-http's kept mappings, frozen all the way down) is handed to every request as the same object
 * and can never change, so the walk's answer for it and one list cannot either. The list is the
 * policy's own (activeRules makes one per policy, not per request), so the memo lives as long as the
 * record and the policy both do, and holds one boolean per kept record: bounded by what the EHR keeps.
 * A record that is not frozen whole (a copy the release made, records mapped anew) is walked every time.
 */
import { isFrozenWhole } from '../frozen-whole.js';
import { namesListedUnit, type ListedUnits } from './unit-references.js';

const remembered = new WeakMap<ListedUnits, WeakMap<object, boolean>>();

/** namesListedUnit(record, units), remembered for a record frozen whole. */
export function namesListedUnitOf(record: unknown, units: ListedUnits): boolean {
  if (typeof record !== 'object' || record === null || !Object.isFrozen(record)) return namesListedUnit(record, units);
  let known = remembered.get(units);
  const found = known?.get(record);
  if (found !== undefined) return found;
  const names = namesListedUnit(record, units);
  if (!isFrozenWhole(record)) return names;
  if (known === undefined) remembered.set(units, known = new WeakMap());
  known.set(record, names);
  return names;
}
