import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../ports/clock.port.js';

export interface JwksCacheOptions {
  /** Least time between two fetches, successful or not: a flood of unknown `kid`s never becomes a fetch storm. */
  cooldownMs: number;
  /** Age after which the keys are refreshed in the background; old keys keep working if that fails. */
  maxAgeMs: number;
}

type Jwk = JSONWebKeySet['keys'][number];
type Header = Parameters<JWTVerifyGetKey>[0];
type Jws = Parameters<JWTVerifyGetKey>[1];
type LocalJwks = ReturnType<typeof createLocalJWKSet>;

/** The key that verifies a token, and which published key it is (`id`), so a verification can outlive it no longer than the key. */
export interface ResolvedKey {
  id: string;
  key: Awaited<ReturnType<LocalJwks>>;
}

/** A published key with jose's choice rules (kid, alg, use, key_ops, crv) applied to it alone. */
interface PublishedKey {
  id: string;
  select: LocalJwks;
}

function usableKeys(json: unknown): Jwk[] {
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('JWKS has no keys array');
  // Only public asymmetric keys can sign access tokens we accept; a shared secret never can.
  const usable = keys.filter((k): k is Jwk =>
    typeof k === 'object' && k !== null && ['RSA', 'EC', 'OKP'].includes((k as { kty?: string }).kty ?? '') &&
    (k as { d?: unknown }).d === undefined);
  // A set with nothing usable (`{"keys":[]}`, a misconfigured server) must not replace keys that work.
  if (usable.length === 0) throw new Error('JWKS has no usable key');
  return usable;
}

/** A key is the JWK as published, members sorted: a key whose entry changes in any way counts as withdrawn. */
const idOf = (jwk: Jwk): string => JSON.stringify(jwk, Object.keys(jwk).sort());

/** The authorization server's signing keys, fetched only from the configured JWKS and kept through outages. */
export class JwksCache {
  private published: PublishedKey[] | undefined;
  private ids: ReadonlySet<string> = new Set();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<unknown>,
    private readonly clock: Clock,
    private readonly options: JwksCacheOptions,
    private readonly onError: (err: unknown) => void,
  ) {}

  async resolve(header: Header, jws: Jws): Promise<ResolvedKey> {
    if (!this.published) await this.refresh();
    else this.refreshIfStale();
    try {
      return await this.choose(header, jws);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      // A refresh already on its way (e.g. the keys just aged out) may bring this very kid: wait for it.
      if (this.inflight) await this.inflight;
      else if (this.coolingDown()) throw err;
      else await this.refresh();
      return await this.choose(header, jws);
    }
  }

  /** False once a refresh has brought a key set without the key `id`: what it verified is not reused. */
  publishes(id: string): boolean {
    return this.ids.has(id);
  }

  /** Starts a background refresh of keys older than maxAgeMs; never waits for it. */
  refreshIfStale(): void {
    if (this.published && this.clock.now() - this.fetchedAt > this.options.maxAgeMs) void this.refresh();
  }

  /** Looks at the keys' age every `everyMs`, so they are refreshed whether or not tokens arrive; returns the stop. */
  watch(everyMs: number): () => void {
    const timer = setInterval(() => this.refreshIfStale(), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Exactly one published key must fit, as in jose's own key set: none or several refuse the token. */
  private async choose(header: Header, jws: Jws): Promise<ResolvedKey> {
    let chosen: ResolvedKey | undefined;
    for (const { id, select } of this.published ?? []) {
      let key: ResolvedKey['key'];
      try {
        key = await select(header, jws);
      } catch (err) {
        if (err instanceof errors.JWKSNoMatchingKey) continue;
        throw err;
      }
      if (chosen) throw new errors.JWKSMultipleMatchingKeys();
      chosen = { id, key };
    }
    if (!chosen) throw new errors.JWKSNoMatchingKey();
    return chosen;
  }

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
        const published = usableKeys(json).map((jwk) => ({ id: idOf(jwk), select: createLocalJWKSet({ keys: [jwk] }) }));
        this.published = published;
        this.ids = new Set(published.map((k) => k.id));
        this.fetchedAt = this.clock.now();
      })
      .catch(this.onError)
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
