/**
 * Mapped documents kept between reads, one budget for every XML adapter of the process
 * (EHR_CACHE_BYTES, docs/running.md#settings): the embedded EHR keeps a document's records per
 * version of its file, `xml-http` per version the EHR named with its validators (ETag, Last-Modified).
 * An entry is used only when its version is the one the caller knows to be current, so a changed
 * document is mapped again on the next read. Entries are deep-frozen: every consumer gets the same
 * objects and none can change them for the next one (selectInRange and the masking copy; a stray
 * write would throw, not leak). Bounded, each entry costed with its key and bookkeeping: the entries
 * not used for longest go first (second chance, below). Concurrent misses of `get` for one version
 * share one read.
 *
 * A key names one document of one patient of one source, exactly (the adapters' `keyOf`): an entry
 * can only ever be found by the key it was kept under.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface Mapped<T> {
  value: T;
  /** The records as a read without a time range answers them (selected and sorted once). */
  unbounded: T;
  /** The reasons the mapping left items out, told again on every use (the log says so per request). */
  dropped: readonly string[];
}

/** Whether a document read was answered from a kept mapping or mapped anew (pdas_mapped_documents_total). */
export type DocumentOutcome = 'kept' | 'mapped';

interface Entry {
  version: string; mapped: object; cost: number;
  /** Used since the eviction round last passed it: it is passed over once more (second chance). */
  used: boolean;
}

/** Freezes `value` and everything reachable from it (mapped records: plain objects and arrays). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) freezeNext(stack);
  return value;
}

/** Objects frozen between two looks at the clock. */
const FREEZES_PER_LOOK = 1024;
/** How long one slice of freezing may hold the event loop, as long as one slice of mapping (ehr-xml's SLICE_MS). */
export const FREEZE_SLICE_MS = 2;

/**
 * deepFreeze in slices of about `sliceMs`, the event loop free between them: the records of a mapped
 * ~9 MiB journal took 32-222 ms to freeze at once on a loaded machine (issue 56), longer than a
 * 20 ms stretch may be. A value is handed out only once this has finished.
 */
export async function deepFreezeInSlices<T>(value: T, sliceMs = FREEZE_SLICE_MS): Promise<T> {
  const stack: unknown[] = [value];
  let until = performance.now() + sliceMs;
  for (let n = 1; stack.length > 0; n++) {
    freezeNext(stack);
    if (n % FREEZES_PER_LOOK === 0 && performance.now() >= until) {
      await nextTurn();
      until = performance.now() + sliceMs;
    }
  }
  return value;
}

/** Freezes the next object of `stack` and puts its children on it; a frozen one (and so what is below it) is passed over. */
function freezeNext(stack: unknown[]): void {
  const v = stack.pop();
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
}

/** EHR_CACHE_BYTES by default: 64 MiB of kept mappings per process. */
export const DEFAULT_CACHE_BYTES = 64 * 2 ** 20;

/**
 * Bytes kept per character (or byte) of XML: the mapped records take about 1.3 bytes per character,
 * and their strings keep the document text itself alive (up to 2 bytes per character).
 */
export const COST_PER_CHAR = 4;
/**
 * Bytes an entry takes beside its records and key: the entry, its Map slot, the Mapped object and its
 * arrays. With it a tiny document's entry costs what it holds (hostile review helper-153, F2: 305,040
 * entries of 55-character documents, read under as many ranges, took 107 MiB of heap for 64 MiB counted).
 */
const ENTRY_BYTES = 256;

/** What an entry of `key` for `chars` characters of XML counts against the budget. */
export const costOf = (key: string, chars: number): number => chars * COST_PER_CHAR + key.length * 2 + ENTRY_BYTES;

export class MappedDocuments {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<object | undefined>>();
  private cost = 0;

  /**
   * @param maxCost budget in bytes, each entry costed at COST_PER_CHAR per character of its XML; 0 keeps nothing
   * @param onRead told of each document read, whether a kept mapping answered it
   */
  constructor(private readonly maxCost: number, private readonly onRead: (outcome: DocumentOutcome) => void = () => undefined) {
    if (!Number.isSafeInteger(maxCost) || maxCost < 0) throw new RangeError('the budget must be a whole number of bytes, 0 or more');
  }

  /**
   * The mapping of `key` at `version`, from the cache or from `load` (which reads and maps the file
   * and reports the version it actually read, and the text length for the budget).
   */
  async get<T>(key: string, version: string, load: () => Promise<{ version: string; mapped: Mapped<T>; chars: number } | undefined>): Promise<Mapped<T> | undefined> {
    const hit = this.reuse<Mapped<T>>(key, version);
    if (hit !== undefined) return hit;
    const flightKey = `${key}\u0000${version}`;
    const pending = this.inflight.get(flightKey);
    if (pending) {
      this.onRead('kept');
      return pending as Promise<Mapped<T> | undefined>;
    }
    const run = (async (): Promise<Mapped<T> | undefined> => {
      const loaded = await load();
      if (loaded === undefined) return undefined;
      // Frozen kept or not: the concurrent reads that share this one share its objects.
      return this.keep(key, loaded.version, await deepFreezeInSlices(loaded.mapped), loaded.chars);
    })();
    this.inflight.set(flightKey, run);
    try {
      return await run;
    } finally {
      this.inflight.delete(flightKey);
    }
  }

  /** The version kept under `key`, if any, without using it (`xml-http`: what to make its next request conditional on). */
  versionOf(key: string): string | undefined {
    return this.entries.get(key)?.version;
  }

  /** The mapping kept under `key` when it is at `version` (told as a read answered from it); undefined otherwise. */
  reuse<V extends object>(key: string, version: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit?.version !== version) return undefined;
    hit.used = true;
    this.onRead('kept');
    return hit.mapped as V;
  }

  /**
   * A fresh mapping of `key`, told as a read mapped anew: frozen (in slices) and kept at `version` when
   * there is one to check it by later and it fits the budget, in place of whatever was kept under `key`;
   * else that is forgotten, since it is not known to be the current version. `chars`: the XML's
   * length, for the budget.
   */
  async keep<V extends object>(key: string, version: string | undefined, mapped: V, chars: number): Promise<V> {
    this.onRead('mapped');
    const cost = costOf(key, chars);
    const keeping = version !== undefined && cost <= this.maxCost;
    // What is kept is not the current version, unless it is this very one: that stays in use while this one is frozen.
    if (!keeping || this.entries.get(key)?.version !== version) this.forget(key);
    if (!keeping) return mapped;
    await deepFreezeInSlices(mapped);
    // The last mapping to be ready is the one kept, whatever was kept meanwhile: a 304 is only ever taken at its own version.
    this.forget(key);
    this.entries.set(key, { version, mapped, cost, used: false });
    this.cost += cost;
    while (this.cost > this.maxCost) this.evictOne();
    return mapped;
  }

  /** Drops what is kept under `key` (a newer version came, or it could not be mapped). */
  forget(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.cost -= old.cost;
  }

  /** Bytes of budget the kept mappings take now (for tests). */
  get bytesKept(): number {
    return this.cost;
  }

  /**
   * Evicts the oldest entry not used since the round last passed it (second chance, or CLOCK): one used
   * meanwhile goes to the end of the Map, unmarked. A hit only sets a flag: moving the entry on every hit
   * (delete + set) made V8 rebuild the Map's table again and again, and those tables outlived the young
   * generation (bench:profile --promoted). Each entry is passed over once at most per round, so an
   * eviction costs few steps on average where a scan for the least recently used cost one step per
   * entry (helper-153, F2: 7.3 ms at p50 with 305,040 entries).
   */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
        continue;
      }
      this.cost -= entry.cost;
      return;
    }
  }
}
