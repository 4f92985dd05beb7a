/**
 * FHIR date search (docs/fhir-api.md#search): a parameter value and a resource's date element are
 * each a range of instants, compared by the prefix's rule. A value without a zone is local time in
 * EHR_TIMEZONE (docs/upstream-fhir.md §1.6), as a date is a local day.
 */
import { DomainError } from '../errors.js';
import { isValidWallClock, wallClockToEpochMs } from '../time/local-time.js';

export type DatePrefix = 'eq' | 'ge' | 'gt' | 'le' | 'lt';
/** Half-open: [start, end). */
export interface InstantRange { start: number; end: number }
export interface DateComparison { prefix: DatePrefix; range: InstantRange }

const FORM = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
/**
 * FHIR R4's dateTime as a resource writes it (datatypes §2.24.0.1), stricter than a search value: a
 * time has seconds and an offset within ±14:00. A leap second is not taken (no 14-digit local time
 * says one).
 */
const STRICT_DATE_TIME = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;
export const isStrictDateTime = (value: string): boolean => STRICT_DATE_TIME.test(value);

export const DATE_EXPECTED = 'a real FHIR date or dateTime with an optional prefix eq, ge, gt, le or lt, e.g. ge2025-01-31 or lt2025-01-31T08:00:00+01:00';

const offsetMs = (zone: string): number => {
  if (zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
};

/** The range a FHIR date, dateTime or instant stands for; undefined when it is none of them. */
export function rangeOf(value: string, zone: string): InstantRange | undefined {
  const m = FORM.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, z] = m;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const wall = { year, month, day, hour: h === undefined ? 0 : Number(h), minute: mi === undefined ? 0 : Number(mi), second: s === undefined ? 0 : Number(s) };
  // The COS door's rule (docs/contract.md#reads): 30 February is refused, never read as 2 March.
  if (!isValidWallClock(wall)) return undefined;
  const start = z === undefined
    ? wallClockToEpochMs(wall, zone)
    : Date.UTC(year, month - 1, day, wall.hour, wall.minute, wall.second) - offsetMs(z);
  const next = { ...wall };
  if (mo === undefined) next.year += 1;
  else if (d === undefined) { next.month = month === 12 ? 1 : month + 1; if (month === 12) next.year += 1; }
  else if (h === undefined) return { start, end: wallClockToEpochMs(nextDay(wall), zone) };
  else if (s === undefined) return { start, end: start + 60_000 };
  else return fraction === undefined ? { start, end: start + 1000 } : withinSecond(start, fraction);
  return { start, end: wallClockToEpochMs(next, zone) };
}

/**
 * The range a fraction of a second stands for, by its precision: `.5` a tenth, `.050` one millisecond (a
 * record's time has no finer one; more digits narrow the range within it). Whole milliseconds in integers.
 */
function withinSecond(second: number, fraction: string): InstantRange {
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  if (fraction.length <= 3) return { start: second + ms, end: second + ms + 10 ** (3 - fraction.length) };
  const rest = Number(`0.${fraction.slice(3)}`);
  return { start: second + ms + rest, end: second + ms + rest + 10 ** (3 - fraction.length) };
}

function nextDay(w: { year: number; month: number; day: number }): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const t = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), hour: 0, minute: 0, second: 0 };
}

/** A search value (`ge2025-01-31`); throws a 400-class DomainError naming the parameter. */
export function dateComparison(param: string, value: string, zone: string): DateComparison {
  const prefixed = /^(eq|ge|gt|le|lt)/.exec(value);
  const prefix = (prefixed?.[1] ?? 'eq') as DatePrefix;
  const range = rangeOf(value.slice(prefixed === null ? 0 : 2), zone);
  if (range === undefined) throw new DomainError('INVALID_SEARCH', `Search parameter ${param} must be ${DATE_EXPECTED}.`);
  return { prefix, range };
}

/** Whether a resource's date range satisfies a comparison (FHIR R4 search, date prefixes). */
export function satisfies(target: InstantRange, c: DateComparison): boolean {
  switch (c.prefix) {
    case 'eq': return target.start >= c.range.start && target.end <= c.range.end;
    case 'ge': return target.end > c.range.start;
    case 'gt': return target.end > c.range.end;
    case 'le': return target.start < c.range.end;
    case 'lt': return target.start < c.range.start;
  }
}

/**
 * The instants a point in time (an instant such as AuditEvent's `recorded`) may lie in to satisfy
 * every comparison: `[from, to)`, open ends `-Infinity` / `Infinity`. For a point, `satisfies` reduces
 * to these bounds, so a store can be asked for the range instead of each record being tested.
 */
export function instantBounds(dates: readonly DateComparison[]): { from: number; to: number } {
  let from = -Infinity;
  let to = Infinity;
  for (const { prefix, range } of dates) {
    if (prefix === 'eq' || prefix === 'ge') from = Math.max(from, range.start);
    if (prefix === 'gt') from = Math.max(from, range.end);
    if (prefix === 'eq' || prefix === 'le') to = Math.min(to, range.end);
    if (prefix === 'lt') to = Math.min(to, range.start);
  }
  return { from, to };
}
