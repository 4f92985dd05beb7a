import type { VerifiedToken } from '../../ports/access-token-verifier.port.js';

/**
 * Verified claims by the WHOLE token string, so two tokens can never share an entry; an entry is
 * used only until the token's own expiry. Bounded: the oldest entry goes first.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { token: VerifiedToken; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  /** An entry is served while its expiry is after `notExpiredAfter` (now minus the allowed skew). */
  get(token: string, notExpiredAfter: number): VerifiedToken | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= notExpiredAfter) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.token;
  }

  set(token: string, verified: VerifiedToken, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { token: verified, expiresAt });
  }
}
