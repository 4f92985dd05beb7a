/** How a lab value reads: as the laboratory wrote it, in the reader's decimal mark, with its mark in words (direction.ts). */
import type { Observation, Quantity } from './fhir-types.js';
import { decimal, NBSP, number, textOf } from './format.js';
import type { Lang } from './i18n.js';
import { valueMark } from './direction.js';
import { markWords, otherInterpretation } from './interpretation.js';

const RENDERED_VALUE = 'http://hl7.org/fhir/StructureDefinition/rendered-value';

/** A value the EHR wrote as no decimal (`<5`, `5,4 (hemolys)`): the API gives it as FHIR's rendered-value alone, the text as written. */
const renderedOf = (q: Quantity | undefined): string | undefined => q?._value?.extension?.find((e) => e.url === RENDERED_VALUE)?.valueString;

/**
 * A value as written: a quantity with its comparator, its digits in the reader's decimal mark and
 * its unit after a no-break space (never on a line of its own), a value given only as written text
 * with its unit the same way, or the text. `withUnit` false for a label beside a plot whose axis
 * names the unit.
 */
export function valueText(o: Observation, lang: Lang, withUnit = true): string {
  const q = o.valueQuantity;
  const unit = q?.unit === undefined || !withUnit ? '' : `${NBSP}${q.unit}`;
  if (q?.value !== undefined) {
    const digits = q.valueText === undefined ? number(q.value, lang) : decimal(q.valueText, lang);
    return `${q.comparator ?? ''}${digits}${unit}`;
  }
  const rendered = renderedOf(q);
  if (rendered !== undefined) return `${rendered}${unit}`;
  return o.valueString ?? textOf(o.valueCodeableConcept) ?? '';
}

/** Whether the Observation holds a value (a unit or a range alone is none). */
export const hasValue = (o: Observation): boolean => o.valueQuantity?.value !== undefined || renderedOf(o.valueQuantity) !== undefined
  || o.valueString !== undefined || o.valueCodeableConcept !== undefined;

/** Every range's text, in order: a value may have one per population (women's and men's). */
export const rangeTexts = (o: Observation): string[] => (o.referenceRange ?? []).flatMap((r) => (r.text === undefined ? [] : [r.text]));

/** The value's mark in words (`Low`, `Critically high`, or the laboratory's own text); undefined when nothing. */
export function markText(o: Observation, lang: Lang): string | undefined {
  const mark = valueMark(o);
  return mark === undefined ? otherInterpretation(o) : markWords(mark, lang);
}
