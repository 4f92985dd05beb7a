import type { ActiveRules } from './active-rules.js';
import { parseCompact, wallClockToEpochMs, type WallClock } from '../time/local-time.js';

/** The same wall-clock time `days` calendar days later; the calendar knows no zone, so DST cannot shift it. */
function daysLater(w: WallClock, days: number): WallClock {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day + days);
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * Whether a note signed at `signed` (compact local time in `zone`, or a date read as its midnight)
 * was signed at least `days` days before `now`. Days are calendar days in `zone`: a note signed at
 * 23:30 is released at 23:30 `days` days later, and a day with a DST change counts as one day
 * however long it is. A time that day does not have (a spring gap) is read an hour later, as every
 * local time is. No readable signing time means the delay has not begun: not released.
 */
export function signedLongEnoughAgo(signed: string | undefined, days: number, now: number, zone: string): boolean {
  const wall = signed === undefined ? undefined : parseCompact(signed);
  if (wall === undefined) return false;
  return now >= wallClockToEpochMs(daysLater(wall, days), zone);
}

/** Withheld for its signature: unsigned where the rules withhold unsigned items, or signed too recently for the signing delay. */
export function signatureWithholds(signed: string | undefined, rules: ActiveRules): boolean {
  return (rules.withholdUnsigned && signed === undefined)
    || (rules.signingDelayDays !== undefined && !signedLongEnoughAgo(signed, rules.signingDelayDays, rules.now, rules.zone));
}
