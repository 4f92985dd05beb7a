/**
 * A decimal as the EHR wrote it (docs/upstream-fhir.md#text-numbers-and-codes): FHIR's decimal has a
 * point, and a Swedish EHR writes `12,5`. FHIR's own `rendered-value` extension on the value holds the
 * text as written, and text reaches the patient exactly as the EHR wrote it (docs/contract.md), so that text
 * is answered, where it is the same number as the value; else the value as the JSON wrote it.
 */
import type { Quantity } from '../../domain/fhir/resources/datatypes.js';
import { fhirFault } from './fault.js';
import { writtenNumber } from './fhir-json.js';

export const RENDERED_VALUE = 'http://hl7.org/fhir/StructureDefinition/rendered-value';

/** A decimal written with a point or a comma (one of them at most), and nothing else. */
const DECIMAL_TEXT = /^-?\d+([.,]\d+)?$/;

/**
 * Whether `text` writes the number `written` (the value's JSON text): the same number, by a comma or a
 * point, with or without the trailing zeros a server that stores numbers as numbers drops (`4,0` for `4`).
 */
export const writesTheNumber = (text: string, written: string): boolean =>
  DECIMAL_TEXT.test(text) && Number(text.replace(',', '.')) === Number(written);

/**
 * The value of a Quantity as the EHR wrote it: its `rendered-value` when that writes the same number,
 * else the value as the JSON wrote it (`4.0` stays `4.0`); a rendered text of another number is not
 * answered for it (the value is the datum; a text that contradicts it is not shown as it). Without a
 * value, the rendered text is all the EHR wrote (a lab's `6,1`), so it is answered, not lost.
 */
/** The value's text in its `rendered-value` extension, if any. */
const renderedOf = (q: Quantity): string | undefined => q._value?.extension?.find((e) => e.url === RENDERED_VALUE)?.valueString;

export function valueAsWritten(q: Quantity | undefined): string | undefined {
  if (q === undefined) return undefined;
  const written = writtenNumber(q, 'value');
  const rendered = renderedOf(q);
  if (written === undefined) return rendered;
  return rendered !== undefined && writesTheNumber(rendered, written) ? rendered : written;
}

/** A comparison written before a number: its comparator, and the number's text after any spaces. */
const WRITTEN_COMPARISON = /^(<=|>=|<|>)\s*(.*)$/s;

/**
 * The comparator and value as the EHR wrote them: a rendered-value that writes the same comparison
 * (`<0,50` or `< 0,50` beside `<` and `0.5`) is answered whole; one that writes another comparator
 * gives way to the data (`<` and `0.5` read `<0.5`), and with no number beside it, nothing says which
 * comparison is meant, so it is refused (hostile reviews helper-216 F9, helper-217 F11, helper-218).
 * Else the comparator before valueAsWritten.
 */
export function comparedAsWritten(q: Quantity | undefined): string | undefined {
  const value = valueAsWritten(q);
  if (q === undefined || value === undefined || q.comparator === undefined) return value;
  const rendered = renderedOf(q);
  const written = writtenNumber(q, 'value');
  const [, comparator, number] = WRITTEN_COMPARISON.exec(rendered ?? '') ?? [];
  if (rendered === undefined || comparator === undefined) return `${q.comparator}${value}`;
  if (comparator === q.comparator && (written === undefined || writesTheNumber(number ?? '', written))) return rendered;
  if (written === undefined) throw fhirFault('an Observation value whose written text compares otherwise than its comparator');
  return `${q.comparator}${written}`;
}
