/**
 * FHIR JSON, read so that decimals stay as written (docs/upstream-fhir.md#text-numbers-and-codes):
 * a lab value `4.0` is answered `"4.0"`, never `"4"`. JSON.parse hands its reviver the source text
 * of each number (Node 22 and 24); where that text differs from how JavaScript writes the number,
 * it is kept beside the object that holds the number, and `writtenNumber` gives it back. Numbers
 * stay numbers, so the schemas check them as numbers. A number of more than MAX_DECIMAL_DIGITS
 * digits makes the answer malformed, before anything is done with it: four million digits of a fee
 * held the event loop a second in the payment's arithmetic.
 */
import { fhirFault } from './fault.js';

/** The most digits a number of a FHIR answer may have (docs/upstream-fhir.md#settings, "Bounded cost"). */
export const MAX_DECIMAL_DIGITS = 40;

/** Whether `text` (a number as written) has more than MAX_DECIMAL_DIGITS digits. */
export function tooManyDigits(text: string): boolean {
  if (text.length <= MAX_DECIMAL_DIGITS) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39 && ++digits > MAX_DECIMAL_DIGITS) return true;
  }
  return false;
}

const written = new WeakMap<object, Map<string, string>>();

interface ReviverContext {
  source?: string;
}

function keepSource(this: unknown, key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === 'number' && context?.source !== undefined && tooManyDigits(context.source)) {
    throw fhirFault(`a number of more than ${MAX_DECIMAL_DIGITS} digits`);
  }
  if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) {
    const holder = this as object;
    let sources = written.get(holder);
    if (sources === undefined) {
      sources = new Map();
      written.set(holder, sources);
    }
    sources.set(key, context.source);
  }
  return value;
}

/** The JSON of a FHIR answer; not JSON (or nested past what the parser can hold) is a fault. */
export function parseFhirJson(text: string): unknown {
  try {
    return JSON.parse(text, keepSource as (key: string, value: unknown) => unknown);
  } catch (err) {
    if (err instanceof SyntaxError || err instanceof RangeError) throw fhirFault('not JSON');
    throw err;
  }
}

/**
 * The number at `holder[key]` as the JSON wrote it. A number that did not come through
 * `parseFhirJson` (one made in code) is written as JavaScript writes it.
 */
export function writtenNumber(holder: object, key: string | number): string | undefined {
  const value = (holder as Record<string, unknown>)[key];
  if (typeof value !== 'number') return undefined;
  return written.get(holder)?.get(String(key)) ?? String(value);
}
