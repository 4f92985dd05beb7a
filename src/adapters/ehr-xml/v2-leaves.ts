/** Leaves of the v2 (camelCase) documents: instants as epoch milliseconds and code lists. */
import { compactToEpochMs } from '../../domain/time/local-time.js';
import { textOf, timeValueOf } from './leaves.js';
import { leaf, type Leaf } from './shape.js';

/** A TV as epoch milliseconds, read in the EHR's zone (DST by the "compatible" rule). */
export const UNIX_MS: Leaf = leaf((raw, name, ctx) => {
  const value = timeValueOf(raw, name);
  return value === undefined ? undefined : compactToEpochMs(value, ctx.zone);
});

/** A code mapped through `codes`; any code not listed becomes `other`. */
export function codeList(codes: ReadonlyMap<string, string>, other: string): Leaf {
  return leaf((raw, name) => {
    const code = textOf(raw, name);
    return code === undefined ? undefined : (codes.get(code) ?? other);
  });
}
