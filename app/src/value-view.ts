/**
 * A value as the lab tables and the journal notes show it: as written, its unit on its line (a
 * quantity never wraps, style.css `.quantity`; a value in words wraps as text does), and its mark
 * beside it, a symbol for the eye and a word for everyone (never colour alone).
 */
import { h, type Child } from './dom.js';
import { valueMark } from './direction.js';
import type { Observation } from './fhir-types.js';
import { NBSP } from './format.js';
import type { Lang } from './i18n.js';
import { SYMBOLS } from './interpretation.js';
import { isRangeForm, rangeText } from './reference-range.js';
import { hasValue, markText, rangeTexts, valueText } from './values.js';

/** The mark beside a value: its symbol hidden from assistive technology, its word read. */
export function markElement(o: Observation, lang: Lang): Child {
  const mark = valueMark(o);
  const words = markText(o, lang);
  if (words === undefined) return null;
  return h('span', { class: `flag flag-${mark?.kind ?? 'other'}` }, mark === undefined ? null : h('span', { 'aria-hidden': 'true' }, `${SYMBOLS[mark.kind]}${NBSP}`), words);
}

/** The value and its mark. */
export function valueElement(o: Observation, lang: Lang): HTMLElement {
  const quantity = o.valueQuantity !== undefined && hasValue(o);
  return h('span', { class: 'value' }, h('span', { class: quantity ? 'quantity' : 'text' }, valueText(o, lang)), ' ', markElement(o, lang));
}

/** A range as written, in the reader's decimal mark; one of the short forms (`134-170`) never breaks at its dash. */
export const rangeElement = (text: string, lang: Lang): HTMLElement =>
  h('span', { class: isRangeForm(text) ? 'range' : 'text' }, rangeText(text, lang));

/** Every range of a value, in order, apart by semicolons; none where it has none. */
export const rangesElement = (o: Observation, lang: Lang): Child[] =>
  rangeTexts(o).flatMap((text, i) => (i === 0 ? [rangeElement(text, lang)] : ['; ', rangeElement(text, lang)]));
