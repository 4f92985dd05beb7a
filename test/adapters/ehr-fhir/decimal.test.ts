/** The PaymentNotice amount: price less reduction on the decimals as written, never below 0. */
import { describe, expect, it } from 'vitest';
import { decimalDifference } from '../../../src/adapters/ehr-fhir/adapter/decimal.js';

describe('decimalDifference', () => {
  it('subtracts exactly, keeping the precision written', () => {
    expect(decimalDifference('200.00', '50.5')).toBe('149.50');
    expect(decimalDifference('0.3', '0.1')).toBe('0.2');
    expect(decimalDifference('250', '0')).toBe('250');
    expect(decimalDifference('100', '150')).toBe('0');
    expect(decimalDifference('1.05', '1.05')).toBe('0.00');
  });

  it('refuses a number it cannot read as a plain decimal', () => {
    expect(() => decimalDifference('1e2', '0')).toThrow(/plain decimal/);
  });

  it('refuses a fee of more than 40 digits before any arithmetic on it, and takes one of 40', () => {
    const forty = `1${'0'.repeat(37)}.00`;
    expect(decimalDifference(forty, '0.5')).toBe(`${'9'.repeat(37)}.50`);
    expect(() => decimalDifference(`${forty}1`, '0')).toThrow(/more than 40 digits/);
    expect(() => decimalDifference('200', `0.${'0'.repeat(39)}1`)).toThrow(/more than 40 digits/);
    // Four million digits held the event loop about a second in the payment's arithmetic.
    expect(() => decimalDifference('9'.repeat(4_000_000), '1')).toThrow(/more than 40 digits/);
  });
});
