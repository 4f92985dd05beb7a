/**
 * Decimal arithmetic on numbers as FHIR JSON writes them (docs/upstream-fhir.md#text-numbers-and-codes):
 * a fee of `200.00` less `50.5` is `149.50`, exactly, never a binary fraction. At most 40 digits
 * each, so the arithmetic stays small.
 */
import { fhirFault } from '../fault.js';
import { MAX_DECIMAL_DIGITS, tooManyDigits } from '../fhir-json.js';

/** FHIR's decimal as JSON writes it: an exponent too (a Java BigDecimal writes 250 as `2.5E+2`; re-review helper-172, R4). */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function parse(text: string): { digits: bigint; scale: number } {
  // Checked again here, before BigInt: its cost grows with the digits (fhir-json.ts refuses them first).
  if (tooManyDigits(text)) throw fhirFault(`a fee of more than ${MAX_DECIMAL_DIGITS} digits`);
  const m = DECIMAL.exec(text);
  if (m === null) throw fhirFault('a fee not written as a decimal');
  const [, sign, whole, fraction = '', exponent = '0'] = m as unknown as [string, string, string, string | undefined, string | undefined];
  // The exponent moves the point: at most as far as a fee has digits, so no power below grows past them.
  const scale = fraction.length - Number(exponent);
  if (Math.abs(scale) > MAX_DECIMAL_DIGITS || whole.length + fraction.length - scale > MAX_DECIMAL_DIGITS) throw fhirFault(`a fee of more than ${MAX_DECIMAL_DIGITS} digits`);
  const written = BigInt(`${whole}${fraction}`);
  const digits = scale < 0 ? written * 10n ** BigInt(-scale) : written;
  return { digits: sign === '-' ? -digits : digits, scale: Math.max(scale, 0) };
}

/** `a − b`, never below 0, with as many decimals as the more precise of the two. */
export function decimalDifference(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const shifted = (v: { digits: bigint; scale: number }) => v.digits * 10n ** BigInt(scale - v.scale);
  const difference = shifted(x) - shifted(y);
  const text = (difference < 0n ? 0n : difference).toString().padStart(scale + 1, '0');
  return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

/**
 * Whether `text` is an amount of kronor a person reads as written and a payment writes back exactly: not
 * below zero, whole öre (at most two decimals once an exponent is applied), below a trillion (where a
 * JavaScript number, as the booking shows it, still holds it exactly). 200 less 1E-40 wrote a 43-digit
 * amount no later read of the notice took (re-review helper-174, F6).
 */
export function isKronorAmount(text: string): boolean {
  try {
    const { digits, scale } = parse(text);
    return digits >= 0n && scale <= 2 && digits < 10n ** BigInt(12 + scale);
  } catch {
    return false;
  }
}
