import type { ActiveRules } from '../release/active-rules.js';
import type { Outcome } from '../release/journal-release.js';
import { releaseIn } from '../release/release.js';
import { noContactDetails, type Bounds, type Released } from './read-policy.js';
import { selectExtracts, selectIn } from './time-selection.js';

/** A read's policy as far as it depends on its extracts under `K`, for any item that holds them there. */
export interface ExtractsPolicy<K extends string, E> {
  select<T extends Record<K, E[]>>(items: T[], bounds: Bounds, zone: string): T[];
  marksProtectedIdentity(items: Array<Record<K, E[]>>): boolean;
  withoutContactDetails<T>(items: T[]): T[];
  release<T extends Record<K, E[]>>(items: T[], rules: ActiveRules, everything: boolean): Released<T[]>;
}

/**
 * The policy of a read whose items hold the patient's extracts under `key`: filtered and sorted on
 * `instant`, protected when an extract's patient is marked so, released extract by extract. `vendorLayout`:
 * a container left without extracts is not answered (selection and release alike).
 */
export function extractsPolicy<K extends string, E>(key: K, rules: {
  instant: (extract: E, zone: string) => number;
  protectedMark: (extract: E) => boolean | undefined;
  release: (extract: E, rules: ActiveRules) => Outcome<E>;
  vendorLayout: boolean;
}): ExtractsPolicy<K, E> {
  return {
    select: (items, bounds, zone) => (rules.vendorLayout ? selectExtracts : selectIn)(items, key, (e: E) => rules.instant(e, zone), bounds),
    marksProtectedIdentity: (items) => items.some((c) => c[key].some((e) => rules.protectedMark(e) === true)),
    withoutContactDetails: noContactDetails,
    release: (items, active, everything) => releaseIn(items, key, (e: E) => rules.release(e, active), everything, rules.vendorLayout),
  };
}
