import { hash, timingSafeEqual } from 'node:crypto';
import type { SubscriptionKeys } from '../../ports/subscription-keys.port.js';

// As hex, then into a Buffer from Node's pool: `hash(…, 'buffer')` gives each digest a backing store
// of its own, which cost 2-3x the hash itself under a busy heap (BENCHMARKS.md, the subscription key).
const digest = (value: string): Buffer => Buffer.from(hash('sha256', value, 'hex'), 'hex');

/**
 * Keys from configuration, as [name, key] pairs: a name may hold several keys, so a key can be
 * rotated without an outage. Each candidate is hashed to a fixed length and every key is compared,
 * so neither the length nor the position of a match shows in the response time.
 */
export class StaticSubscriptionKeys implements SubscriptionKeys {
  private readonly entries: ReadonlyArray<{ name: string; digest: Buffer }>;

  constructor(keys: Iterable<readonly [string, string]>) {
    this.entries = [...keys].map(([name, key]) => ({ name, digest: digest(key) }));
  }

  identify(key: string): string | undefined {
    const candidate = digest(key);
    let match: string | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(candidate, entry.digest) && match === undefined) match = entry.name;
    }
    return match;
  }
}
