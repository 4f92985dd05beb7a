/** How a lab value reads: as the laboratory wrote it, in the reader's decimal mark, with the laboratory's mark in words. */
import type { Observation } from './fhir-types.js';
import { decimal, NBSP, number, textOf } from './format.js';
import type { Lang } from './i18n.js';
import { markOf, markWords, otherInterpretation } from './interpretation.js';

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

/** What the laboratory said of the value, in words (`Low`, `Critically high`, or its own text); undefined when nothing. */
export function markText(o: Observation, lang: Lang): string | undefined {
  const mark = markOf(o);
  return mark === undefined ? otherInterpretation(o) : markWords(mark, lang);
}
