import type { ActiveRules } from '../release/active-rules.js';
import type { Outcome } from '../release/journal-release.js';
import { releaseIn } from '../release/release.js';
import { noContactDetails, type Bounds, type Released } from './read-policy.js';
import { selectExtracts, selectIn } from './time-selection.js';

/** What a read's policy does with the extracts under `K`, for any item that holds them there: select, protect, mask. */
export interface ExtractsSelection<K extends string, E> {
  select<T extends Record<K, E[]>>(items: T[], bounds: Bounds, zone: string): T[];
  marksProtectedIdentity(items: ReadonlyArray<Record<K, E[]>>): boolean;
  withoutContactDetails<T>(items: T[]): T[];
}

/** A read's policy as far as it depends on its extracts under `K`, a release rule included. */
export interface ExtractsPolicy<K extends string, E> extends ExtractsSelection<K, E> {
  release<T extends Record<K, E[]>>(items: T[], rules: ActiveRules, everything: boolean): Released<T[]>;
}

interface ExtractRules<E> {
  instant: (extract: E, zone: string) => number;
  protectedMark: (extract: E) => boolean | undefined;
  vendorLayout: boolean;
}

/**
 * The policy of a read whose items hold the patient's extracts under `key`: filtered and sorted on
 * `instant`, protected when an extract's patient is marked so, and, given a `release` rule, released
 * extract by extract (without one nothing of the read is ever withheld). `vendorLayout`: a container
 * left without extracts is not answered (selection and release alike).
 */
export function extractsPolicy<K extends string, E>(key: K, rules: ExtractRules<E> & {
  release: (extract: E, rules: ActiveRules) => Outcome<E>;
}): ExtractsPolicy<K, E>;
export function extractsPolicy<K extends string, E>(key: K, rules: ExtractRules<E>): ExtractsSelection<K, E>;
export function extractsPolicy<K extends string, E>(key: K, rules: ExtractRules<E> & {
  release?: (extract: E, rules: ActiveRules) => Outcome<E>;
}): ExtractsSelection<K, E> | ExtractsPolicy<K, E> {
  const selection: ExtractsSelection<K, E> = {
    select: (items, bounds, zone) => (rules.vendorLayout ? selectExtracts : selectIn)(items, key, (e: E) => rules.instant(e, zone), bounds),
    marksProtectedIdentity: (items) => items.some((c) => c[key].some((e) => rules.protectedMark(e) === true)),
    withoutContactDetails: noContactDetails,
  };
  const release = rules.release;
  if (release === undefined) return selection;
  return {
    ...selection,
    release: (items, active, everything) => releaseIn(items, key, (e: E) => release(e, active), everything, rules.vendorLayout),
  };
}
