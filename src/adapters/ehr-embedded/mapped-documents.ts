/**
 * Mapped documents of the embedded EHR, kept while their file is unchanged: an entry is used only
 * when the file's current version (device, inode, size, modification and change time in ns) is the
 * one it was read at, so an edited or replaced file is read again on the next request. Entries are
 * deep-frozen: every consumer gets the same objects and none can change them for the next one
 * (selectInRange and the masking copy; a stray write would throw, not leak). Bounded: the least
 * recently used entries go first. Concurrent misses for one document share one read.
 */

export interface Mapped<T> {
  value: T;
  /** The records as a read without a time range answers them (selected and sorted once). */
  unbounded: T;
  /** The reasons the mapping left items out, told again on every use (the log says so per request). */
  dropped: readonly string[];
}

interface Entry { version: string; mapped: Mapped<unknown>; cost: number; lastUsed: number }

/** Freezes `value` and everything reachable from it (mapped records: plain objects and arrays). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return value;
}

export class MappedDocuments {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Mapped<unknown>>>();
  private cost = 0;
  // Recency as a counter in each entry rather than the Map's order: moving an entry to the end on
  // every hit (delete + set) made V8 rebuild the Map's table again and again, and those tables
  // outlived the young generation (measured with bench:profile --promoted).
  private uses = 0;

  /** @param maxCost budget in bytes, each entry costed at COST_PER_CHAR per character of its XML */
  constructor(private readonly maxCost: number) {}

  /**
   * The mapping of `key` at `version`, from the cache or from `load` (which reads and maps the file
   * and reports the version it actually read, and the text length for the budget).
   */
  async get<T>(key: string, version: string, load: () => Promise<{ version: string; mapped: Mapped<T>; chars: number } | undefined>): Promise<Mapped<T> | undefined> {
    const hit = this.entries.get(key);
    if (hit?.version === version) {
      hit.lastUsed = ++this.uses;
      return hit.mapped as Mapped<T>;
    }
    const flightKey = `${key}\u0000${version}`;
    const pending = this.inflight.get(flightKey);
    if (pending) return pending as Promise<Mapped<T>>;
    const run = (async (): Promise<Mapped<T> | undefined> => {
      const loaded = await load();
      if (loaded === undefined) return undefined;
      deepFreeze(loaded.mapped);
      this.store(key, { version: loaded.version, mapped: loaded.mapped, cost: loaded.chars * COST_PER_CHAR, lastUsed: ++this.uses });
      return loaded.mapped;
    })();
    this.inflight.set(flightKey, run as Promise<Mapped<unknown>>);
    try {
      return await run;
    } finally {
      this.inflight.delete(flightKey);
    }
  }

  private store(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.cost -= old.cost;
    }
    if (entry.cost > this.maxCost) return;
    this.entries.set(key, entry);
    this.cost += entry.cost;
    while (this.cost > this.maxCost) this.evictLeastRecentlyUsed();
  }

  /** Only when a new entry goes over budget, so a scan of the (few hundred at most) entries is cheap enough. */
  private evictLeastRecentlyUsed(): void {
    let oldest: [string, Entry] | undefined;
    for (const pair of this.entries) if (oldest === undefined || pair[1].lastUsed < oldest[1].lastUsed) oldest = pair;
    if (oldest === undefined) return;
    this.entries.delete(oldest[0]);
    this.cost -= oldest[1].cost;
  }
}

/**
 * Bytes kept per character of XML: the mapped records take about 1.3 bytes per character, and
 * their strings keep the document text itself alive (up to 2 bytes per character).
 */
export const COST_PER_CHAR = 4;
