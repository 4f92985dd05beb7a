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
});
