/**
 * src/domain/identity/identity-number-in-text.ts: the two readings the FHIR API uses, side by side
 * (synthetic test numbers only).
 */
import { describe, expect, it } from 'vitest';
import { recordIdNamesAPerson, searchValueNamesAPerson } from '../../src/domain/identity/identity-number-in-text.js';

describe('an identity number in a text the FHIR API would serve', () => {
  it('a record id: any valid 12 digits of a run, separators between digits allowed', () => {
    for (const id of ['191212121212', 'note-191212121212', '19121212-1212', '1912.1212.1212', 'x2019121212121299']) {
      expect([id, recordIdNamesAPerson(id)]).toEqual([id, true]);
    }
    for (const id of ['note-17', '191212121213', 'SE2321000016-1003', '19121212 1212']) expect([id, recordIdNamesAPerson(id)]).toEqual([id, false]);
  });

  it('a search value: exactly 12 digits, or 8 and 4 around a hyphen, fullwidth folded; a longer run is a code', () => {
    for (const v of ['191212121212', 'a|19121212-1212', '１９１２１２１２１２１２']) expect([v, searchValueNamesAPerson(v)]).toEqual([v, true]);
    for (const v of ['20191212121212', '1912.1212.1212', '191212121213', 'final']) expect([v, searchValueNamesAPerson(v)]).toEqual([v, false]);
  });
});
