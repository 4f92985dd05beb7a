/**
 * A lab value's reference range as numbers to draw: `low`/`high` when the Observation has them,
 * else read from its text as Swedish labs write it ("105–145", "0,5–0,8", "<5", ">1,0").
 */
import type { ReferenceRange } from './fhir-types.js';
import type { Lang } from './i18n.js';

export interface Band { low?: number; high?: number; text?: string }

const NUMBER = '(-?\\d+(?:[.,]\\d+)?)';
const BETWEEN = new RegExp(`^${NUMBER}\\s*[–—-]\\s*${NUMBER}$`);
const BELOW = new RegExp(`^(?:<|≤|<=)\\s*${NUMBER}$`);
const ABOVE = new RegExp(`^(?:>|≥|>=)\\s*${NUMBER}$`);

const num = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number(s.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
};

/** The numbers a range's text names, when it is one of the forms above. */
export function parseRangeText(text: string): { low?: number; high?: number } {
  const t = text.trim().replace(/\u2212/g, '-');
  const between = BETWEEN.exec(t);
  if (between) {
    const low = num(between[1]);
    const high = num(between[2]);
    return low !== undefined && high !== undefined && low <= high ? { low, high } : {};
  }
  const below = BELOW.exec(t);
  if (below) return { ...(num(below[1]) === undefined ? {} : { high: num(below[1]) }) };
  const above = ABOVE.exec(t);
  if (above) return { ...(num(above[1]) === undefined ? {} : { low: num(above[1]) }) };
  return {};
}

/** The first range of an Observation as a band; undefined when it has none. */
export function bandOf(ranges: readonly ReferenceRange[] | undefined): Band | undefined {
  const r = ranges?.[0];
  if (r === undefined) return undefined;
  const fromText = r.text === undefined ? {} : parseRangeText(r.text);
  const low = r.low?.value ?? fromText.low;
  const high = r.high?.value ?? fromText.high;
  return {
    ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }), ...(r.text === undefined ? {} : { text: r.text }),
  };
}

/** Whether a range's text is one of the forms above (`134–170`, `<5`, `>1,0`): a few characters that read as one. */
export function isRangeForm(text: string): boolean {
  const t = text.trim().replace(/\u2212/g, '-');
  return BETWEEN.test(t) || BELOW.test(t) || ABOVE.test(t);
}

/**
 * A range's text with the reader's decimal mark (`3,5–8,8` in Swedish, `3.5–8.8` in English), as the
 * value beside it is written, when the text is one of the forms above; any other text as written.
 */
export function rangeText(text: string, lang: Lang): string {
  if (!isRangeForm(text)) return text;
  return text.replace(/(\d)[.,](\d)/g, lang === 'sv' ? '$1,$2' : '$1.$2');
}
