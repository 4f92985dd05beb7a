/** How dates, names and codes read on the page. Times are shown in Swedish time, where the care was given. */
import type { CodeableConcept, HumanName } from './fhir-types.js';
import type { Lang } from './i18n.js';

const ZONE = 'Europe/Stockholm';
export const LOCALE: Readonly<Record<Lang, string>> = { sv: 'sv-SE', en: 'en-GB' };

/** Between a value and its unit, and wherever two words must stay on one line: a no-break space. */
export const NBSP = '\u00a0';

/**
 * A FHIR date or dateTime as the reader's language writes it; a bare date stays a date (no midnight,
 * no zone shift). `seconds` for a moment that is an event's own (the access log), minutes otherwise.
 */
export function when(value: string | undefined, lang: Lang, seconds = false): string | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(value)) {
    if (value.length < 10) return value;
    return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`));
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short', timeZone: ZONE }).format(t);
}

/** A timestamp's date as the tables write it (`16 Oct 2026`, `16 okt. 2026`), for a plot's axis. */
export function dateOf(epochMs: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeZone: ZONE }).format(epochMs);
}

/** A moment's calendar day in Swedish time, `2026-11-26`: the day the access log and the appointments count by. */
export function dayKey(epochMs: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epochMs);
}

/** A person's name as written: its text, else given names and family name. */
export function nameOf(names: readonly HumanName[] | undefined): string | undefined {
  const name = names?.find((n) => n.use === 'official') ?? names?.[0];
  if (name === undefined) return undefined;
  if (name.text !== undefined) return name.text;
  const parts = [...(name.given ?? []), ...(name.family === undefined ? [] : [name.family])];
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** What a concept says: its text, else the first coding's display, else its code. */
export function textOf(concept: CodeableConcept | undefined): string | undefined {
  if (concept === undefined) return undefined;
  if (concept.text !== undefined) return concept.text;
  const coding = concept.coding?.find((c) => c.display !== undefined) ?? concept.coding?.[0];
  return coding?.display ?? coding?.code;
}

/** A number as the reader's language writes it, every decimal kept. */
export function number(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 20, useGrouping: false }).format(value);
}

/** A decimal's digits as written, with the decimal mark of the reader's language (Swedish writes `4,0`). */
export function decimal(digits: string, lang: Lang): string {
  return lang === 'sv' ? digits.replace('.', ',') : digits;
}
