/**
 * Withholding the items of a read that the region's policy does not release
 * (docs/contract.md#only-what-may-be-released). Pure: items, the rule for one item and the active
 * rules in, the released items and how many were withheld out. Withheld items are left out whole;
 * the input is never changed. Each read's policy (src/domain/operations) says which extracts its
 * rules look at.
 */
import type { Released } from '../read-policy/read-policy.js';
import type { Outcome } from './journal-release.js';

interface Extracts<T> {
  kept: T[];
  withheld: number;
}

function releaseEach<T>(items: readonly T[], release: (item: T) => Outcome<T>, everything: boolean): Extracts<T> {
  if (everything) return { kept: [], withheld: items.length };
  const kept: T[] = [];
  let withheld = 0;
  for (const item of items) {
    const outcome = release(item);
    withheld += outcome.withheld;
    if (outcome.kept !== undefined) kept.push(outcome.kept);
  }
  return { kept, withheld };
}

/**
 * Applies `release` to the extracts under `key` of each container (`everything`: all withheld);
 * `dropEmpty` for layouts that answer no empty container.
 */
export function releaseIn<C, K extends keyof C, T>(
  containers: C[], key: K, release: (item: T) => Outcome<T>, everything: boolean, dropEmpty: boolean,
): Released<C[]> {
  let withheld = 0;
  const records: C[] = [];
  for (const container of containers) {
    const outcome = releaseEach(container[key] as T[], release, everything);
    withheld += outcome.withheld;
    if (outcome.withheld === 0) records.push(container);
    else if (outcome.kept.length > 0 || !dropEmpty) records.push({ ...container, [key]: outcome.kept });
  }
  return { records, withheld };
}
