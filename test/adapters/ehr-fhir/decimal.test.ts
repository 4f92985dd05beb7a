/** The PaymentNotice amount: price less reduction on the decimals as written, never below 0. */
import { describe, expect, it } from 'vitest';
import { decimalDifference, isKronorAmount } from '../../../src/adapters/ehr-fhir/adapter/decimal.js';

describe('decimalDifference', () => {
  it('subtracts exactly, keeping the precision written', () => {
    expect(decimalDifference('200.00', '50.5')).toBe('149.50');
    expect(decimalDifference('0.3', '0.1')).toBe('0.2');
    expect(decimalDifference('250', '0')).toBe('250');
    expect(decimalDifference('100', '150')).toBe('0');
    expect(decimalDifference('1.05', '1.05')).toBe('0.00');
  });

  // Re-review helper-172, R4: FHIR's decimal may have an exponent (a Java BigDecimal writes 250 as 2.5E+2), which the
  // booking showed as 250 while every payment of it was refused. Failed before: "not written as a plain decimal".
  it('reads an exponent as the number it writes, and refuses what is no decimal', () => {
    expect(decimalDifference('2.5E+2', '0')).toBe('250');
    expect(decimalDifference('1e2', '0.5')).toBe('99.5');
    expect(decimalDifference('1.5e-1', '0')).toBe('0.15');
    expect(decimalDifference('200', '5E1')).toBe('150');
    for (const text of ['abc', '1.', '.5', '1e', '0x10']) expect(() => decimalDifference(text, '0')).toThrow(/not written as a decimal/);
  });

  it('refuses an exponent that would make a fee of more than 40 digits before any arithmetic on it', () => {
    expect(decimalDifference('1e39', '0')).toBe(`1${'0'.repeat(39)}`);
    for (const text of ['1e40', '1e-41', '1e99999', '1e-99999']) expect(() => decimalDifference(text, '0')).toThrow(/more than 40 digits/);
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

describe('isKronorAmount', () => {
  it('takes whole öre from 0 to below a trillion kronor, however written, and nothing else', () => {
    for (const text of ['0', '250', '199.50', '0.05', '2.5E+2', '1.99e2', '999999999999.99', '-0']) expect([text, isKronorAmount(text)]).toEqual([text, true]);
    for (const text of ['-1', '0.001', '1E-40', '1e12', '1000000000000', 'abc', '1e99999']) expect([text, isKronorAmount(text)]).toEqual([text, false]);
  });
});
