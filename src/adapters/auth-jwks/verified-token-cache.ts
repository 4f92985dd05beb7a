import type { VerifiedToken } from '../../ports/access-token-verifier.port.js';

/**
 * Verified claims by the WHOLE token string, so two tokens can never share an entry; an entry is
 * used only until the token's own expiry, and only while the key that verified it is still
 * published. Bounded: the oldest entry goes first.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { token: VerifiedToken; expiresAt: number; keyId: string }>();

  constructor(private readonly maxEntries: number) {}

  /** An entry is served while its expiry is after `notExpiredAfter` (now minus the allowed skew) and `published(keyId)` holds. */
  get(token: string, notExpiredAfter: number, published: (keyId: string) => boolean): VerifiedToken | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= notExpiredAfter || !published(entry.keyId)) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.token;
  }

  set(token: string, verified: VerifiedToken, expiresAt: number, keyId: string): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { token: verified, expiresAt, keyId });
  }
}
