/**
 * The kept mappings every XML adapter of a process shares (EHR_CACHE_BYTES): one budget, least
 * recently used out first, an entry used only at the version it was kept at.
 */
import { describe, expect, it } from 'vitest';
import { costOf, deepFreeze, deepFreezeInSlices, MappedDocuments, type DocumentOutcome, type Mapped } from '../../../src/adapters/mapped-documents/mapped-documents.js';

const mapping = (n: number): Mapped<number[]> => ({ value: [n], unbounded: [n], dropped: [] });

describe('MappedDocuments', () => {
  it('drops the least recently used entries beyond its budget', async () => {
    const cache = new MappedDocuments(costOf('a', 100) * 2 + costOf('a', 100) / 2);
    let loads = 0;
    const load = (chars: number) => async () => {
      loads++;
      return { version: 'v1', chars, mapped: mapping(loads) };
    };
    await cache.get('a', 'v1', load(100));
    await cache.get('b', 'v1', load(100));
    await cache.get('a', 'v1', load(100));
    await cache.get('c', 'v1', load(100));
    expect(loads).toBe(3);
    await cache.get('a', 'v1', load(100));
    await cache.get('b', 'v1', load(100));
    expect(loads).toBe(4);
  });

  it('reuses a kept mapping only at its version, and keeps it frozen', async () => {
    const cache = new MappedDocuments(10_000);
    const kept = await cache.keep('k', '"a"', mapping(1), 10);
    expect(Object.isFrozen(kept.value)).toBe(true);
    expect(cache.versionOf('k')).toBe('"a"');
    expect(cache.reuse('k', '"a"')).toBe(kept);
    expect(cache.reuse('k', '"b"')).toBeUndefined();
    expect(cache.reuse('other', '"a"')).toBeUndefined();
  });

  it('replaces what a key held with each new mapping, and forgets it when the new one has no version', async () => {
    const cache = new MappedDocuments(10_000);
    await cache.keep('k', '"a"', mapping(1), 10);
    const newer = await cache.keep('k', '"b"', mapping(2), 20);
    expect(cache.reuse('k', '"a"')).toBeUndefined();
    expect(cache.reuse('k', '"b"')).toBe(newer);
    expect(cache.bytesKept).toBe(costOf('k', 20));
    const unversioned = await cache.keep('k', undefined, mapping(3), 10);
    expect(Object.isFrozen(unversioned.value)).toBe(false);
    expect(cache.versionOf('k')).toBeUndefined();
    expect(cache.bytesKept).toBe(0);
  });

  it('while a new mapping of the same version is frozen the one kept stays in use; of another version it is forgotten at once', async () => {
    const cache = new MappedDocuments(10_000);
    const old = await cache.keep('k', '"a"', mapping(1), 10);
    const same = cache.keep('k', '"a"', mapping(2), 10);
    expect(cache.reuse('k', '"a"')).toBe(old);
    const next = await same;
    expect(cache.reuse('k', '"a"')).toBe(next);
    const other = cache.keep('k', '"b"', mapping(3), 10);
    expect(cache.versionOf('k')).toBeUndefined();
    const newer = await other;
    expect(cache.reuse('k', '"b"')).toBe(newer);
    const unversioned = cache.keep('k', undefined, mapping(4), 10);
    expect(cache.versionOf('k')).toBeUndefined();
    await unversioned;
  });

  // Hostile review helper-153, F2: each read of another range is an entry of its own, and an entry of a tiny
  // document was costed at its few characters alone: 305,040 of them took 107 MiB of heap under a 64 MiB budget.
  it('counts each entry\'s key and bookkeeping against the budget, however small its document', async () => {
    const budget = 64 * 1024;
    const cache = new MappedDocuments(budget);
    const keys = Array.from({ length: 2_000 }, (_, n) => `${'p'.repeat(200)}\n${n}`);
    for (const key of keys) await cache.keep(key, '"v"', mapping(1), 1);
    const kept = keys.filter((key) => cache.versionOf(key) !== undefined);
    expect(kept.length).toBeGreaterThan(0);
    // The keys alone (two bytes a character) of what is kept fit the budget, and so does what it counts.
    expect(kept.length * kept[0]!.length * 2).toBeLessThanOrEqual(budget);
    expect(cache.bytesKept).toBeLessThanOrEqual(budget);
  });

  it('gives an entry used since the last eviction a second chance, and evicts the others oldest first', async () => {
    const cache = new MappedDocuments(costOf('a', 10) * 3);
    for (const key of ['a', 'b', 'c']) await cache.keep(key, '"v"', mapping(1), 10);
    cache.reuse('a', '"v"');
    await cache.keep('d', '"v"', mapping(1), 10);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.versionOf(key) !== undefined)).toEqual([true, false, true, true]);
    await cache.keep('e', '"v"', mapping(1), 10);
    // a's second chance was spent in d's round: c is now the oldest not used since.
    expect(['a', 'c', 'd', 'e'].map((key) => cache.versionOf(key) !== undefined)).toEqual([true, false, true, true]);
  });

  it('keeps nothing larger than its budget, nor anything with a budget of 0', async () => {
    const small = new MappedDocuments(costOf('k', 100));
    await small.keep('k', '"a"', mapping(1), 101);
    expect(small.versionOf('k')).toBeUndefined();
    const none = new MappedDocuments(0);
    await none.keep('k', '"a"', mapping(1), 1);
    expect(none.versionOf('k')).toBeUndefined();
    expect(() => new MappedDocuments(-1)).toThrow(RangeError);
  });

  it('tells every read whether a kept mapping answered it', async () => {
    const told: DocumentOutcome[] = [];
    const cache = new MappedDocuments(10_000, (outcome) => told.push(outcome));
    const load = async () => ({ version: 'v', chars: 1, mapped: mapping(1) });
    await Promise.all([cache.get('a', 'v', load), cache.get('a', 'v', load)]);
    await cache.get('a', 'v', load);
    await cache.keep('b', '"x"', mapping(2), 1);
    cache.reuse('b', '"x"');
    cache.reuse('b', '"y"');
    // The second of two concurrent first reads shares the first's mapping: it is told at once, the mapping once done.
    expect(told).toEqual(['kept', 'mapped', 'kept', 'mapped', 'kept']);
  });

  it('deep-freezes nested objects and arrays', () => {
    const value = deepFreeze({ a: [{ b: { c: 1 } }] });
    expect(Object.isFrozen(value.a[0]?.b)).toBe(true);
  });

  it('freezes a large mapping in slices, the event loop turning between them, and keeps it only once all of it is frozen', async () => {
    const many = () => Array.from({ length: 20_000 }, (_, i) => ({ id: i, parts: [{ text: `t${i}` }] }));
    const records = many();
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      if (!counting) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    await deepFreezeInSlices({ records }, 0);
    counting = false;
    // 60,000 objects, a look at the clock every 1,024: the loop turned between the slices.
    expect(turns).toBeGreaterThan(10);
    expect(records.every((r) => Object.isFrozen(r) && Object.isFrozen(r.parts[0]))).toBe(true);

    const cache = new MappedDocuments(10 ** 9);
    const kept = many();
    const keeping = cache.keep('k', '"a"', { records: kept, dropped: [] }, 100);
    expect(cache.versionOf('k')).toBeUndefined();
    await keeping;
    expect(kept.every((r) => Object.isFrozen(r.parts[0]))).toBe(true);
    expect(cache.versionOf('k')).toBe('"a"');
  });
});
