/**
 * src/domain/redaction/names-a-person.ts, the one rule for "this text names a person" that the FHIR
 * API's search values and the log scrubber share (issue 44 item 5; synthetic test numbers only).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsAPersonNumber, namesAPerson } from '../../../src/domain/redaction/names-a-person.js';
import { readingOf } from '../../../src/domain/redaction/reading.js';
import { scrubText } from '../../../src/domain/redaction/scrub-text.js';
import { assertProperty } from '../../support/seeds.js';

/** `digits` written in the script whose zero is `zero` (Arabic-Indic U+0660, Devanagari U+0966, …). */
const inScript = (digits: string, zero: number): string => digits.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)));

/** Tolvan's number in every spelling the review found passing the search-value check, and the ones the log scrubber already caught. */
const SPELLINGS = [
  '191212121212', '19121212-1212', '19121212+1212', '19121212 1212', '19121212.1212', '1912.1212.1212', '1912 1212 1212',
  '121212-1212', '121212+1212', '1212121212', '121212 1212', '19121212\u20131212', '19121212--1212', '19121212_1212', '19121212/1212',
  '19121212\u200b1212', '%31%39%31%32%31%32%31%32%31%32%31%32', '19121212%2D1212', '%2531%2539121212-1212', '\uff11\uff19\uff11\uff12\uff11\uff12\uff11\uff12\uff11\uff12\uff11\uff12',
  'a|19121212-1212', 'Patient/19121212.1212', 'x 191212721219 y', 'nr121212--1212)',
  // A minus sign is a dash to a reader, and a digit is a digit in any script (hostile review).
  '19121212\u22121212', '121212\u22121212', '19121212\u02d71212', '19121212\u27961212', '19121212\u20431212',
  ...[0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0x1040].map((zero) => inScript('191212121212', zero)), inScript('19121212-1212', 0x660),
  `${inScript('1912', 0x966)}1212${inScript('1212', 0x660)}`,
  // A mark on a digit (combining, enclosing, a variation selector) is still that digit, and a tilde a dash (hostile review).
  '1\u03019121212-1212', '1\ufe0f9121212-1212', '19121212-\u03321212', '19121212\u034f-1212', '1\u20e39121212-1212', '1\u093e9121212-1212',
  '1%CC%819121212-1212', '19121212~1212', '19121212%7E1212', '19121212\uff5e1212', '19121212\u20531212',
  '\u2776\u277e\u2776\u2777\u2776\u2777\u2776\u2777\u2776\u2777\u2776\u2777', '19121212\u31641212', '1912\u24f5\u24f61212\u24f5\u24f6',
  // Any other separator, and a number among other groups of digits (hostile review: echoed in a search's links).
  '19121212*1212', '19121212#1212', '(19121212)1212', '19121212|1212', '19121212=1212', '0 191212121212', '19121212-1212 5', '7 121212-1212 3',
  // Three separators, as a person types a dash between spaces (second hostile review).
  '19121212 - 1212', '19121212---1212', '121212 - 1212', '1912 - 1212 - 1212', '19121212 \u2212 1212', '19121212\u2014\u2014\u20141212', '19121212 / 1212',
];

describe('the one rule for a text that names a person', () => {
  it('finds a number in every spelling, as written and as read', () => {
    for (const text of SPELLINGS) expect([text, namesAPerson(text), holdsAPersonNumber(text)]).toEqual([text, true, true]);
  });

  it('reads a digit of every script as its value (the oracle: Intl\'s numbering systems)', () => {
    let read = 0;
    for (const system of Intl.supportedValuesOf('numberingSystem')) {
      const format = new Intl.NumberFormat('en', { numberingSystem: system, useGrouping: false });
      for (let value = 0; value < 10; value++) {
        const digit = format.format(value);
        if ([...digit].length !== 1 || !/\p{Nd}/u.test(digit)) continue; // a system of words or of several signs (Roman, Han)
        expect([system, digit, readingOf(digit)]).toEqual([system, digit, String(value)]);
        read++;
      }
    }
    expect(read).toBeGreaterThan(500);
  });

  it('names nobody with a code, an invalid number, an organisation\'s id, a time, a list, or digits a letter splits', () => {
    const codes = [
      '191212121213', '20191212121212', '20120301100277', '19870101000077', 'SE2321000016-1003', '2321000016', 'final', '2025-01-31',
      'lt2025-01-31T08:00:00+01:00', '12:12:12+12:12', '1212,121212', '19121212A1212', '1912 -  1212 - 1212', '19121212    1212', 'note-17', '',
      // Groups of digits are read whole: a 13-digit code holds a number in 12 of its digits, and names nobody.
      '1191212121212', '19121212-12125', '5 1191212121212',
    ];
    for (const text of codes) expect([text, namesAPerson(text)]).toEqual([text, false]);
  });

  it('holds a number in a longer run (a 14-digit code by chance, one digit too many) that it does not name', () => {
    for (const text of ['20191212121212', '2015062198471', 'x2019121212121299', '20120301100277']) {
      expect([text, namesAPerson(text), holdsAPersonNumber(text)]).toEqual([text, false, true]);
    }
  });

  it('is the scrubber\'s rule: whatever names a person is replaced in a log line, and nothing the scrubber gives back names one (property)', async () => {
    const pieces = fc.constantFrom(
      '19121212', '1212', '121212', '191212721219', '-', '+', '.', ' ', '--', '_', '/', ',', '%2D', '%31', '\uff11', '\u200b', 'a', '0', '9',
      '\u2212', '%E2%88%92', inScript('1212', 0x660), inScript('19121212', 0x966), '\u0661', '\u0969', '\u0301', '\ufe0f', '~', '%CC%81',
      '*', '#', '(', '|', ':', ' - ', '---',
    );
    const text = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));
    await assertProperty(fc.property(text, (t) => {
      if (namesAPerson(t)) expect(scrubText(t)).not.toBe(t);
      expect(namesAPerson(scrubText(t))).toBe(false);
      expect(!namesAPerson(t) || holdsAPersonNumber(t)).toBe(true);
    }), { seeds: [44_05, 4406, 4407], numRuns: 5_000 });
  });
});
