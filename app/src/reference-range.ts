/**
 * A lab value's reference range as numbers to draw: `low`/`high` when the Observation has them,
 * else read from its text as Swedish labs write it ("105–145", "0,5–0,8", "<5", ">1,0"), or with
 * the unit after it ("4–6 mmol/l", as the service writes bounds it cannot place beside a value).
 * Numbers in another unit than the value's are never a band for it (units.ts).
 */
import type { ReferenceRange } from './fhir-types.js';
import type { Lang } from './i18n.js';
import { comparableUnits } from './units.js';

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

/** A range's text and the unit written after it (`4–6 mmol/l`): one word after a space, or none. */
const WITH_UNIT = /^(.*\d)\s+(\S+)$/;

/**
 * The numbers a range's text names, when it is one of the forms above, alone or followed by a unit
 * that is `unit` (the value's); a unit written otherwise, or any other word after it
 * (`117–153 (Kvinnor)`), names no numbers to compare or draw.
 */
export function parseRangeText(text: string, unit?: string): { low?: number; high?: number } {
  const whole = text.trim().replace(/\u2212/g, '-');
  const written = WITH_UNIT.exec(whole);
  const t = written !== null && unit !== undefined && comparableUnits(written[2], unit) && !isRangeForm(whole) ? written[1] as string : whole;
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

/**
 * The first range of an Observation as a band for a value in `unit`; undefined when it has none. A
 * bound in another unit is left out (hostile review helper-222, F6: a range in mmol/L drawn on a mg/dL axis).
 */
export function bandOf(ranges: readonly ReferenceRange[] | undefined, unit?: string): Band | undefined {
  const r = ranges?.[0];
  if (r === undefined) return undefined;
  // A bound in another unit makes the whole range another unit's, and the text beside it writes it (helper-223, F4).
  if (!comparableUnits(r.low?.unit, unit) || !comparableUnits(r.high?.unit, unit)) return r.text === undefined ? {} : { text: r.text };
  const fromText = r.text === undefined ? {} : parseRangeText(r.text, unit);
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
 * value beside it is written, when the text is one of the forms above, alone or with a unit after it
 * (`3,5–4,4 mmol/l`, helper-223 F5); any other text as written.
 */
export function rangeText(text: string, lang: Lang): string {
  const marked = (t: string) => t.replace(/(\d)[.,](\d)/g, lang === 'sv' ? '$1,$2' : '$1.$2');
  if (isRangeForm(text)) return marked(text);
  const written = WITH_UNIT.exec(text.trim());
  return written !== null && isRangeForm(written[1] as string) ? `${marked(written[1] as string)} ${written[2] as string}` : text;
}
