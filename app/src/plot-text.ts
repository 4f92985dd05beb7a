/**
 * A lab plot in words: the canvas's accessible name (the count, the latest value with its mark, how
 * many are high, low or abnormal, the range), and the range as its one legend entry names it.
 */
import { number, when } from './format.js';
import { LABELS, MARK_WORDS, type Lang } from './i18n.js';
import { markWords, type Mark } from './interpretation.js';
import { rangeText, type Band } from './reference-range.js';

/** What a plot needs of a value to say it. */
export interface SpokenPoint { x: number; label: string; mark?: Mark }

/** A value in words: as written, and its mark. */
export const spoken = (p: SpokenPoint, lang: Lang): string => (p.mark === undefined ? p.label : `${p.label} (${markWords(p.mark, lang).toLowerCase()})`);

/** The range as written (in the reader's decimal mark), else from its bounds: `12–140`, `≥ 1`, `≤ 5`. */
export function rangeWords(band: Band, lang: Lang): string {
  if (band.text !== undefined) return rangeText(band.text, lang);
  const { low, high } = band;
  if (low !== undefined && high !== undefined) return `${number(low, lang)}–${number(high, lang)}`;
  return low !== undefined ? `≥\u00a0${number(low, lang)}` : high !== undefined ? `≤\u00a0${number(high, lang)}` : '';
}

/** The legend's one entry for the range: `Reference range 12–140`. */
export const rangeLegend = (band: Band, lang: Lang): string => `${LABELS.range[lang]} ${rangeWords(band, lang)}`.trim();

/** What the plot shows, in words: the accessible name of the canvas. */
export function describePlot(test: string, points: readonly SpokenPoint[], band: Band | undefined, lang: Lang): string {
  const last = points[points.length - 1];
  const latest = last === undefined ? '' : `, ${LABELS.latest[lang]} ${spoken(last, lang)} (${when(new Date(last.x).toISOString(), lang) ?? ''})`;
  const kinds = (['high', 'low', 'abnormal'] as const).map((k) => [k, points.filter((p) => p.mark?.kind === k).length] as const).filter(([, n]) => n > 0);
  const marked = kinds.length === 0 ? '' : `; ${kinds.map(([k, n]) => `${n} ${MARK_WORDS[k][lang].toLowerCase()}`).join(', ')}`;
  const words = band === undefined ? '' : rangeWords(band, lang);
  const range = words === '' ? '' : `; ${LABELS.range[lang].toLowerCase()} ${words}`;
  return `${LABELS.chartOf[lang]} ${test}: ${points.length} ${(points.length === 1 ? LABELS.oneValue : LABELS.values)[lang]}${latest}${marked}${range}`;
}
