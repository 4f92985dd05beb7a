/**
 * src/domain/redaction/shown-value.ts: what a refusal may show back of what a person sent. Every text
 * below was shown back in a 400 by the hostile review of 2026-11-28 (helper-65); synthetic numbers only.
 */
import { describe, expect, it } from 'vitest';
import { mayShowBack, shownValue } from '../../../src/domain/redaction/shown-value.js';

const TOLVAN = '191212121212';
const REVERSED = [...TOLVAN].reverse().join('');

describe('what a refusal may show back', () => {
  it('shows no text whose digits hold a number: any separator, an extra digit, a cut, a reversal, circled digits, fillers', () => {
    for (const text of [
      TOLVAN, '19121212*1212', "19121212'1212", '19121212 - 1212', '19121212---1212', '19121212(1212)', '19121212|1212', '19121212\u00b71212',
      '0 198112189876', '2019-12-12 19121212-1212', '1912121212123', `${'a'.repeat(52)}1912121212123`, `\u202e${REVERSED}\u202c`,
      '\u2776\u277e\u2776\u2777\u2776\u2777\u2776\u2777\u2776\u2777\u2776\u2777', '19121212\u31641212', '19121212\u28001212', 'Consent.19121212.1212',
      '%31%39%31%32%31%32%31%32%31%32%31%32',
    ]) {
      expect([text, mayShowBack(text), shownValue(text)]).toEqual([text, false, 'an identity number']);
    }
  });

  it('shows what holds no number, quoted and cut to 64 characters', () => {
    for (const text of ['LabResult', 'Observation', '2025-01-31T08:00:00+01:00', '59284-0', 'x'.repeat(100), '191212']) {
      expect([text, mayShowBack(text), shownValue(text)]).toEqual([text, true, JSON.stringify(text.slice(0, 64))]);
    }
  });
});
