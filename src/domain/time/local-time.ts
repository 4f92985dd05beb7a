/**
 * Compact local timestamps of the EHR (`YYYYMMDDhhmmss`, or `YYYYMMDD` for a date) and their
 * instants. Wall-clock time is read in a named IANA zone; DST edges follow the "compatible" rule
 * of Temporal and java.time: a time in a spring gap is read an hour later, a time that occurs twice
 * takes the earlier instant.
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const FILTER = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;
const DAY_MS = 24 * HOUR_MS;

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1] ?? 0;
}

/**
 * Whether a wall clock names a real moment of the calendar (no 30 February, no 31 April, no month 13,
 * no hour 24): the one rule both doors judge a date by, the COS filters and FHIR's date search.
 */
export function isValidWallClock(w: WallClock): boolean {
  return (
    w.year >= 1 &&
    w.month >= 1 && w.month <= 12 &&
    w.day >= 1 && w.day <= daysInMonth(w.year, w.month) &&
    w.hour <= 23 && w.minute <= 59 && w.second <= 59
  );
}

function toWallClock(m: RegExpExecArray): WallClock {
  return {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]),
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
  };
}

/** The number the `n` ASCII digits of `s` at `at` write, or -1 when one of them is not a digit. */
function digitsAt(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Parses a 14-digit timestamp or an 8-digit date; undefined when the form or the date is impossible.
 * Read a digit at a time, exactly as `/^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/` reads it
 * (test/domain/time/compact-time.test.ts holds the two equal): that expression's match and its six
 * substrings were a cost of every timestamp the XML reader maps (issue 56 item 3).
 */
export function parseCompact(value: string): WallClock | undefined {
  const long = value.length === 14;
  if (!long && value.length !== 8) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 4, 2);
  const day = digitsAt(value, 6, 2);
  const hour = long ? digitsAt(value, 8, 2) : 0;
  const minute = long ? digitsAt(value, 10, 2) : 0;
  const second = long ? digitsAt(value, 12, 2) : 0;
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  const wall = { year, month, day, hour, minute, second };
  return isValidWallClock(wall) ? wall : undefined;
}

export function isCompactDateTime(value: string): boolean {
  return value.length === 14 && parseCompact(value) !== undefined;
}

export function isCompactDate(value: string): boolean {
  return value.length === 8 && parseCompact(value) !== undefined;
}

/** What a date-time given to the API must be, in words a person can act on (every 400 about one says this). */
export const LOCAL_DATE_TIME_EXPECTED = 'a real local date-time YYYY-MM-DDThh:mm:ss, without a time zone (no Z or offset), e.g. 2025-01-31T08:00:00';

/** `YYYY-MM-DDThh:mm:ss` (the API's filter form) to a compact 14-digit value; undefined if impossible. */
export function filterParamToCompact(value: string): string | undefined {
  const m = FILTER.exec(value);
  if (!m || !isValidWallClock(toWallClock(m))) return undefined;
  return value.replace(/[-T:]/g, '');
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function formatCompact(w: WallClock): string {
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Throws RangeError for a zone the runtime does not know; used to validate configuration. */
export function assertTimeZone(zone: string): void {
  formatterFor(zone);
}

/** The wall clock shown in `zone` at the instant `epochMs`. */
export function wallClockAt(epochMs: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0,
    hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0,
  };
}

/** Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear takes every year as written. */
function wallAsUtc(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

// Real zones change offset only on quarter-hour boundaries; caching per quarter keeps mapping cheap.
// Kept per zone by the quarter's number: a key string made at every call was most of the call's cost
// (BENCHMARKS.md, "Time zone offsets"). Zones come from the configuration, a few at most; the bound is a guard.
const offsetCache = new Map<string, Map<number, number>>();
const MAX_ZONES = 16;
const MAX_QUARTERS = 50_000;

function quartersOf(zone: string): Map<number, number> {
  let quarters = offsetCache.get(zone);
  if (quarters === undefined) {
    if (offsetCache.size >= MAX_ZONES) offsetCache.clear();
    quarters = new Map();
    offsetCache.set(zone, quarters);
  }
  return quarters;
}

/** Offset of `zone` from UTC at `epochMs`, in milliseconds. */
export function offsetAt(epochMs: number, zone: string): number {
  const quarters = quartersOf(zone);
  const quarter = Math.floor(epochMs / QUARTER_MS);
  let offset = quarters.get(quarter);
  if (offset === undefined) {
    const flooredMs = Math.floor(epochMs / 1000) * 1000;
    offset = wallAsUtc(wallClockAt(flooredMs, zone)) - flooredMs;
    if (quarters.size >= MAX_QUARTERS) quarters.clear();
    quarters.set(quarter, offset);
  }
  return offset;
}

/** The instant of a wall-clock time in `zone`, by the "compatible" DST rule. */
export function wallClockToEpochMs(w: WallClock, zone: string): number {
  const asUtc = wallAsUtc(w);
  const before = offsetAt(asUtc - DAY_MS, zone);
  const after = offsetAt(asUtc + DAY_MS, zone);
  // The earlier of the instants that show this wall clock (a time the autumn repeats has two).
  const early = asUtc - before;
  const late = asUtc - after;
  const earlyShows = early + offsetAt(early, zone) === asUtc;
  const lateShows = late + offsetAt(late, zone) === asUtc;
  if (earlyShows && lateShows) return Math.min(early, late);
  if (earlyShows) return early;
  if (lateShows) return late;
  // In a gap: read with the offset in force before the transition, i.e. shifted forward.
  return early;
}

/** Instant of a compact 14-digit timestamp (or 8-digit date at local midnight); throws RangeError if malformed. */
export function compactToEpochMs(value: string, zone: string): number {
  const wall = parseCompact(value);
  if (!wall) throw new RangeError('malformed compact timestamp');
  return wallClockToEpochMs(wall, zone);
}

/** `YYYY-MM-DDThh:mm:ssZ`. */
export function epochMsToUtcIso(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The wall clock at `epochMs` in `zone`, compact. From the offset cached per quarter hour, not from
 * `Intl` at every call: the delegation check asks for today's date on every delegate's request, and
 * `formatToParts` was ~9 µs of a proxy's read (docs/benchmarks-history.md#issue-53-a-read-as-a-proxy-2026-11-26). The same quarter-hour rule as
 * `offsetAt`; test/domain/local-time.test.ts holds it to `wallClockAt` across transitions.
 */
export function epochMsToCompact(epochMs: number, zone: string): string {
  const d = new Date(Math.floor(epochMs / 1000) * 1000 + offsetAt(epochMs, zone));
  return formatCompact({
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(),
  });
}

/** The calendar day in `zone` at `epochMs`, as `YYYYMMDD`. */
export function localDate(epochMs: number, zone: string): string {
  return epochMsToCompact(epochMs, zone).slice(0, 8);
}

/** `20250314093000` -> `2025-03-14 09:30` (the booking StartTime display form). */
export function compactToDisplay(value: string): string {
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)} ${value.slice(8, 10)}:${value.slice(10, 12)}`;
}

/** `19121212` -> `1912-12-12`. */
export function compactDateToIso(value: string): string {
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

/**
 * A 14-digit local time as an instant with the zone's offset at that instant
 * (`2026-12-14T09:30:00+01:00`), as FHIR writes a dateTime with a time. From the instant, so a time
 * in the spring gap is written as the instant it stands for.
 */
export function compactToOffsetIso(compact: string, zone: string): string {
  const key = `${zone}|${compact}`;
  let iso = offsetIsoCache.get(key);
  if (iso === undefined) {
    iso = offsetIso(compact, zone);
    if (offsetIsoCache.size >= 50_000) offsetIsoCache.clear();
    offsetIsoCache.set(key, iso);
  }
  return iso;
}

// A patient's records repeat their times (a note's, its signature's, each part's): each written once (BENCHMARKS.md part 10).
const offsetIsoCache = new Map<string, string>();

function offsetIso(compact: string, zone: string): string {
  return epochMsToOffsetIso(compactToEpochMs(compact, zone), zone);
}

/**
 * An instant as the zone's wall clock with its offset at that instant (`2027-10-31T02:30:00+01:00`),
 * on the second: unlike a 14-digit local time, it names the second of autumn's repeated hour too.
 */
export function epochMsToOffsetIso(epochMs: number, zone: string): string {
  const offsetMs = offsetAt(epochMs, zone);
  const offsetMin = Math.round(offsetMs / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  // The wall clock from the (cached) offset rather than from Intl again: a FHIR answer writes
  // hundreds of these, and Intl's formatToParts was its largest single cost (BENCHMARKS.md part 10).
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offsetMs).toISOString();
  return `${local.slice(0, 19)}${sign}${hh}:${mm}`;
}
