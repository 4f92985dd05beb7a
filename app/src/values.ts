/** How a lab value reads: as the laboratory wrote it, in the reader's decimal mark, with its mark in words (direction.ts). */
import type { Observation } from './fhir-types.js';
import { decimal, NBSP, number, textOf } from './format.js';
import type { Lang } from './i18n.js';
import { valueMark } from './direction.js';
import { markWords, otherInterpretation } from './interpretation.js';

/**
 * A value as written: a quantity with its comparator, its digits in the reader's decimal mark and
 * its unit after a no-break space (never on a line of its own), or the text. `withUnit` false for a
 * label beside a plot whose axis names the unit.
 */
export function valueText(o: Observation, lang: Lang, withUnit = true): string {
  const q = o.valueQuantity;
  if (q?.value !== undefined) {
    const digits = q.valueText === undefined ? number(q.value, lang) : decimal(q.valueText, lang);
    return `${q.comparator ?? ''}${digits}${q.unit === undefined || !withUnit ? '' : `${NBSP}${q.unit}`}`;
  }
  return o.valueString ?? textOf(o.valueCodeableConcept) ?? '';
}

/** The value's mark in words (`Low`, `Critically high`, or the laboratory's own text); undefined when nothing. */
export function markText(o: Observation, lang: Lang): string | undefined {
  const mark = valueMark(o);
  return mark === undefined ? otherInterpretation(o) : markWords(mark, lang);
}
