import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../ports/clock.port.js';

export interface JwksCacheOptions {
  /** Least time between two fetches, successful or not: a flood of unknown `kid`s never becomes a fetch storm. */
  cooldownMs: number;
  /** Age after which the keys are refreshed in the background; old keys keep working if that fails. */
  maxAgeMs: number;
}

function asKeySet(json: unknown): JSONWebKeySet {
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('JWKS has no keys array');
  // Only public asymmetric keys can sign access tokens we accept; a shared secret never can.
  const usable = keys.filter((k): k is JSONWebKeySet['keys'][number] =>
    typeof k === 'object' && k !== null && ['RSA', 'EC', 'OKP'].includes((k as { kty?: string }).kty ?? '') &&
    (k as { d?: unknown }).d === undefined);
  // A set with nothing usable (`{"keys":[]}`, a misconfigured server) must not replace keys that work.
  if (usable.length === 0) throw new Error('JWKS has no usable key');
  return { keys: usable };
}

/** The authorization server's signing keys, fetched only from the configured JWKS and kept through outages. */
export class JwksCache {
  private local: JWTVerifyGetKey | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<unknown>,
    private readonly clock: Clock,
    private readonly options: JwksCacheOptions,
    private readonly onError: (err: unknown) => void,
  ) {}

  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (!this.local) await this.refresh();
    else if (this.clock.now() - this.fetchedAt > this.options.maxAgeMs) void this.refresh();
    const local = this.local;
    if (!local) throw new errors.JWKSNoMatchingKey();
    try {
      return await local(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      // A refresh already on its way (e.g. the keys just aged out) may bring this very kid: wait for it.
      if (this.inflight) await this.inflight;
      else if (this.coolingDown()) throw err;
      else await this.refresh();
      if (!this.local) throw err;
      return await this.local(header, token);
    }
  };

  private coolingDown(): boolean {
    return this.clock.now() - this.attemptedAt < this.options.cooldownMs;
  }

  /** Single-flight; never rejects: a failed fetch, or one without a usable key, leaves the last good keys in place. */
  private refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    if (this.coolingDown()) return Promise.resolve();
    this.attemptedAt = this.clock.now();
    this.inflight = this.load()
      .then((json) => {
        this.local = createLocalJWKSet(asKeySet(json));
        this.fetchedAt = this.clock.now();
      })
      .catch(this.onError)
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
