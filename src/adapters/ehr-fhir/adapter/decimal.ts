/**
 * Decimal arithmetic on numbers as FHIR JSON writes them (docs/upstream-fhir.md#text-numbers-and-codes):
 * a fee of `200.00` less `50.5` is `149.50`, exactly, never a binary fraction. At most 40 digits
 * each, so the arithmetic stays small.
 */
import { fhirFault } from '../fault.js';
import { MAX_DECIMAL_DIGITS, tooManyDigits } from '../fhir-json.js';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function parse(text: string): { digits: bigint; scale: number } {
  // Checked again here, before BigInt: its cost grows with the digits (fhir-json.ts refuses them first).
  if (tooManyDigits(text)) throw fhirFault(`a fee of more than ${MAX_DECIMAL_DIGITS} digits`);
  const m = DECIMAL.exec(text);
  if (m === null) throw fhirFault('a fee not written as a plain decimal');
  const [, sign, whole, fraction = ''] = m as unknown as [string, string, string, string | undefined];
  const digits = BigInt(`${whole}${fraction}`);
  return { digits: sign === '-' ? -digits : digits, scale: fraction.length };
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
