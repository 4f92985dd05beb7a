import { hash, timingSafeEqual } from 'node:crypto';
import type { SubscriptionKeys } from '../../ports/subscription-keys.port.js';

const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

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
