import { describe, expect, it } from 'vitest';
import { birthDateOf, parsePersonalIdentityNumber } from '../../src/domain/identity/personal-identity-number.js';

describe('Swedish personal identity numbers', () => {
  it('accepts valid numbers with or without the hyphen, in canonical 12-digit form', () => {
    expect(parsePersonalIdentityNumber('191212121212')).toBe('191212121212');
    expect(parsePersonalIdentityNumber('19121212-1212')).toBe('191212121212');
    expect(parsePersonalIdentityNumber('201701012393')).toBe('201701012393');
  });

  it('accepts a coordination number (day + 60) and reads its birth date', () => {
    expect(parsePersonalIdentityNumber('194608632396')).toBe('194608632396');
    expect(birthDateOf('194608632396')).toBe('19460803');
    expect(birthDateOf('191212121212')).toBe('19121212');
  });

  it.each([
    ['a wrong check digit', '191212121213'],
    ['ten digits', '1212121212'],
    ['a plus separator', '19121212+1212'],
    ['spaces', '19121212 1212'],
    ['a leading space', ' 191212121212'],
    ['a list', '191212121212,198112189876'],
    ['month 13', '191213121210'],
    ['30 February', '200002301234'],
    ['day 00', '191212001219'],
    ['letters', '19121212121X'],
    ['an empty string', ''],
  ])('refuses %s', (_label, raw) => {
    expect(parsePersonalIdentityNumber(raw)).toBeUndefined();
  });
});
