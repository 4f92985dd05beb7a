import type * as Crypto from 'node:crypto';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assertProperty } from '../support/seeds.js';

// Counts every timingSafeEqual the adapter makes and the lengths it compares (threat 10 of docs/threat-model.md#tokens-and-keys).
const compared = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean => {
      compared.calls.push([a.byteLength, b.byteLength]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { StaticSubscriptionKeys } = await import('../../src/adapters/subscription-keys/static-subscription-keys.js');
const { parseSubscriptionKeys } = await import('../../src/start/config.js');

/** Subscription keys: every configured key is compared, in fixed-length constant time, and only an exact key matches. */
describe('subscription keys are compared in constant time (threat 10 of docs/threat-model.md#tokens-and-keys)', () => {
  beforeEach(() => {
    compared.calls.length = 0;
  });

  const keySet = (n: number): Map<string, string> =>
    new Map(Array.from({ length: n }, (_, i) => [`app-${i}`, `subscription-key-${i}-${'k'.repeat(16 + i)}`]));

  it('compares every configured key, fixed-length digests only, whether the match is first, last or absent', () => {
    const keys = keySet(8);
    const store = new StaticSubscriptionKeys(keys);
    const values = [...keys.values()];
    const cases: Array<[string, string | undefined]> = [
      [values[0] ?? '', 'app-0'], [values[7] ?? '', 'app-7'], [values[3] ?? '', 'app-3'], ['no-such-key-at-all-0000', undefined], ['', undefined],
      [`${values[7] ?? ''}x`, undefined], ['x'.repeat(10_000), undefined],
    ];
    for (const [candidate, name] of cases) {
      compared.calls.length = 0;
      expect(store.identify(candidate)).toBe(name);
      expect(compared.calls).toHaveLength(8);
      expect(compared.calls.every(([a, b]) => a === 32 && b === 32)).toBe(true);
    }
  });

  it('identifies the right name for random key sets, and never a prefix, an extension, another case or a neighbour (property)', async () => {
    const key = fc.string({ minLength: 16, maxLength: 64, unit: 'grapheme-ascii' });
    await assertProperty(fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 12 }), fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), (keys, pick, suffix) => {
      const store = new StaticSubscriptionKeys(new Map(keys.map((k, i) => [`n${i}`, k])));
      const index = pick % keys.length;
      const chosen = keys[index] ?? '';
      compared.calls.length = 0;
      expect(store.identify(chosen)).toBe(`n${index}`);
      expect(compared.calls).toHaveLength(keys.length);
      const near = [chosen.slice(0, -1), `${chosen}${suffix}`, ` ${chosen}`, chosen.toUpperCase() === chosen ? chosen.toLowerCase() : chosen.toUpperCase()];
      for (const candidate of near) {
        const expected = keys.indexOf(candidate);
        expect(store.identify(candidate)).toBe(expected === -1 ? undefined : `n${expected}`);
      }
    }), { seeds: [4481, 4482, 4483], numRuns: 300 });
  });

  it('issue 12 item 11: accepts two keys under one subscription name (key rotation), each compared in constant time', () => {
    const [older, newer, other] = ['rotating-key-old-0123456789', 'rotating-key-new-9876543210', 'another-app-key-0123456789'];
    const store = new StaticSubscriptionKeys(parseSubscriptionKeys(`kiosk:${older},other:${other}\nkiosk:${newer}`, 'SUBSCRIPTION_KEYS'));
    for (const [candidate, name] of [[older, 'kiosk'], [newer, 'kiosk'], [other, 'other'], ['rotating-key-neither-000000', undefined]] as const) {
      compared.calls.length = 0;
      expect([candidate, store.identify(candidate)]).toEqual([candidate, name]);
      expect(compared.calls).toHaveLength(3);
    }
  });
});
