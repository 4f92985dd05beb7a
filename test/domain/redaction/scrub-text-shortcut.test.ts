/**
 * scrubText gives back unread the text no rule can change (src/domain/redaction/scrub-text.ts): the
 * shortcut must never skip text a rule would change. Held equal to every rule applied, over texts
 * made of what the rules look for: digits joined by every kind of separator, escapes, fullwidth
 * digits, invisible and control characters, a token's start, runs of word characters near 40.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubByRules, scrubText } from '../../../src/domain/redaction/scrub-text.js';
import { assertProperty } from '../../support/seeds.js';

const PIECES = [
  ...'0123456789', '19121212', '1212', '-', '+', '.', ' ', '\t', '\n', '/', '_', ':', '--', '_/', ' .', '%', '%31', '%2531', '%2', 'eyJ',
  '*', '#', '(', '|', '=', ',', ' - ', '---', 'a', 'F', 'x', 'Z', '\u200b', '\u00ad', '\u2011', '\u2212', '\u02d7', '\uff11', '\uff19', '\u0661', '\u0669', '\u0967', '~', '\u0301', '\ufe0f', '\u20e3', '\u001b', '\u00a0', 'é',
];
const piecewise = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));
const wordRun = fc.tuple(fc.integer({ min: 36, max: 44 }), fc.constantFrom('a', 'A1b', '9', '-x')).map(([n, unit]) => unit.repeat(n).slice(0, n));

describe('the scrubber\'s shortcut for text no rule can change', () => {
  it('gives what every rule gives, for any text of the pieces the rules look for (property)', async () => {
    await assertProperty(fc.property(fc.oneof(piecewise, wordRun, fc.uuid({ version: 4 }), fc.string({ maxLength: 60 })), (text) => {
      expect(scrubText(text)).toBe(scrubByRules(text));
    }), { seeds: [1912, 1913, 1914], numRuns: 30_000 });
  });

  it('gives back nine digits, however joined, and replaces a number, however joined', () => {
    for (const join of ['', '-', '+', '.', ' ', '_', '/', '--', '_/', ' .', '~', '-~', '*', '#', ')(', '|', '=', ' - ', '---', ' / ']) {
      expect(scrubText(['19121', '2121'].join(join))).toBe(['19121', '2121'].join(join));
      expect(scrubText(['19121212', '1212'].join(join))).toBe('[REDACTED]');
    }
  });
});
