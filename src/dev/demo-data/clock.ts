import {
  compactToEpochMs, epochMsToCompact, formatCompact, localDate, parseCompact,
} from '../../domain/time/local-time.js';

/**
 * "Today" for the demo data. Every date is a calendar offset from the local day the service starts
 * on, so the data never goes stale; only the drop-in booking depends on the time of day.
 */
export interface DemoClock {
  readonly now: number;
  readonly zone: string;
  /** The local calendar day at `now`, `YYYYMMDD`. */
  readonly today: string;
  /** Start of today's drop-in bookings: `now` + 45 min rounded up to 5 min, 14-digit local time. */
  readonly dropIn: string;
  /** Offset (days, negative) of the latest daylight-saving change day, or a plain past day without DST. */
  readonly dstChangeDay: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
// 45 minutes leaves a newcomer inside the arrival window (120 min before to 30 min after the start)
// yet keeps the booking visibly in the future.
const DROP_IN_LEAD_MIN = 45;
/** The drop-in's times are whole multiples of these minutes. */
export const DROP_IN_STEP_MINUTES = 5;
const DROP_IN_ROUND_MS = DROP_IN_STEP_MINUTES * MINUTE_MS;

/** Calendar arithmetic on an 8-digit date; no zone is involved, so DST cannot shift it. */
export function addDays(date8: string, days: number): string {
  const w = parseCompact(date8);
  if (!w || date8.length !== 8) throw new RangeError('not a YYYYMMDD date');
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return formatCompact({
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0,
  }).slice(0, 8);
}

/** The 14-digit local time `hhmm` (or `hhmmss`) on the day `days` from today. */
export function dayAt(clock: DemoClock, days: number, time: string): string {
  if (!/^([01]\d|2[0-3])[0-5]\d([0-5]\d)?$/.test(time)) throw new RangeError(`bad time of day ${time}`);
  return `${addDays(clock.today, days)}${time.padEnd(6, '0')}`;
}

/** A spec's day as an offset from today: its own, or with 'dst' the latest daylight-saving change day (a DST trap). */
export const dayOf = (clock: DemoClock, day: number | 'dst'): number => (day === 'dst' ? clock.dstChangeDay : day);

/** A local time `minutes` later as an instant, so a meeting across a DST change keeps its real length. */
export function plusMinutes(compact: string, minutes: number, zone: string): string {
  return epochMsToCompact(compactToEpochMs(compact, zone) + minutes * MINUTE_MS, zone);
}

function latestDstChangeDay(today: string, zone: string): number {
  // Start yesterday: a note in today's small hours could still lie in the future.
  for (let back = 1; back <= 730; back++) {
    const day = addDays(today, -back);
    const length = compactToEpochMs(addDays(day, 1), zone) - compactToEpochMs(day, zone);
    if (length !== DAY_MS) return -back;
  }
  return -200;
}

export function demoClock(now: number, zone: string): DemoClock {
  if (!Number.isFinite(now)) throw new RangeError('now must be epoch milliseconds');
  // Zone offsets are whole quarter hours, so rounding the instant also rounds the wall clock.
  const dropInMs = Math.ceil((now + DROP_IN_LEAD_MIN * MINUTE_MS) / DROP_IN_ROUND_MS) * DROP_IN_ROUND_MS;
  const today = localDate(now, zone);
  return {
    now, zone, today,
    dropIn: epochMsToCompact(dropInMs, zone),
    dstChangeDay: latestDstChangeDay(today, zone),
  };
}
