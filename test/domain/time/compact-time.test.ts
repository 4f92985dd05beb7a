import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidWallClock, parseCompact, type WallClock } from '../../../src/domain/time/local-time.js';
import { assertProperty } from '../../support/seeds.js';

/** parseCompact as it was before issue 56 item 3, by the expression: the oracle of the digit reader. */
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/;
function byExpression(value: string): WallClock | undefined {
  const m = COMPACT.exec(value);
  if (!m) return undefined;
  const wall = {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]),
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
  };
  return isValidWallClock(wall) ? wall : undefined;
}

describe('parseCompact', () => {
  it('issue 56 item 3: reads every text exactly as the expression it replaced', async () => {
    // Digits mostly, and what sits near them: other characters, non-ASCII digits, a line end.
    const char = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...'0123456789') },
      { weight: 1, arbitrary: fc.constantFrom('/', ':', 'a', ' ', '\n', '-', '٣', '０', '\u0000') },
    );
    const lengths = fc.oneof(fc.constantFrom(8, 14), fc.integer({ min: 0, max: 16 }));
    const text = lengths.chain((n) => fc.array(char, { minLength: n, maxLength: n }).map((cs) => cs.join('')));
    await assertProperty(fc.property(text, (value) => {
      expect(parseCompact(value)).toEqual(byExpression(value));
    }), { seeds: [20261126, 20261127], numRuns: 5000 });
  });

  it('reads real timestamps and dates, and refuses impossible ones', () => {
    expect(parseCompact('20260823093000')).toEqual({ year: 2026, month: 8, day: 23, hour: 9, minute: 30, second: 0 });
    expect(parseCompact('20240229')).toEqual({ year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0 });
    for (const bad of ['20230229', '20261301', '20260823240000', '2026082309300', '20260823093000\n', ' 20260823', '']) {
      expect(parseCompact(bad), bad).toBeUndefined();
    }
  });
});
