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

/** The value's text in its `rendered-value` extension, if any; a blank one says nothing (`160/ ` was shown: helper-219, F5). */
const renderedOf = (q: Quantity): string | undefined => {
  const text = q._value?.extension?.find((e) => e.url === RENDERED_VALUE)?.valueString;
  return text === undefined || text.trim() === '' ? undefined : text;
};

/**
 * The value of a Quantity as the EHR wrote it: its `rendered-value` when that writes the same number,
 * else the value as the JSON wrote it (`4.0` stays `4.0`); a rendered text of another number is not
 * answered for it (the value is the datum; a text that contradicts it is not shown as it). Without a
 * value, the rendered text is all the EHR wrote (a lab's `6,1`), so it is answered, not lost.
 */
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
 * (`<0,50` or `< 0,50` beside `<` and `0.5`) is answered whole, and one of the number alone (`0,50`)
 * after the comparator. Any other text gives way to the data where there is a number (`<` and `0.5`
 * with `<=0,50` read `<0.5`); with none, nothing says what the text and the comparator together
 * mean (`<` beside `<=0,50`, `≤0,50` or `mindre än 0,5`), so it is refused rather than shown as a
 * comparison the EHR did not write (hostile reviews helper-216 F9, helper-217 F11, helper-218, helper-219 F4).
 */
export function comparedAsWritten(q: Quantity | undefined): string | undefined {
  const value = valueAsWritten(q);
  if (q === undefined || value === undefined || q.comparator === undefined) return value;
  const rendered = renderedOf(q);
  const written = writtenNumber(q, 'value');
  if (rendered === undefined) return `${q.comparator}${value}`;
  const [, comparator, number = ''] = WRITTEN_COMPARISON.exec(rendered) ?? [];
  const writes = (text: string) => (written === undefined ? DECIMAL_TEXT.test(text) : writesTheNumber(text, written));
  if (comparator === q.comparator && writes(number)) return rendered;
  if (comparator === undefined && writes(rendered)) return `${q.comparator}${rendered}`;
  if (written === undefined) throw fhirFault('an Observation value whose written text compares otherwise than its comparator');
  return `${q.comparator}${written}`;
}
