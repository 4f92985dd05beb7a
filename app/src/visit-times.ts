/**
 * Appointments as a patient looks for them: what is next first, soonest first, the next one singled
 * out, and the past apart, newest first. A visit is past once it has ended (its end, else an hour
 * after its start, as a video meeting's link stays) or the record says it was held or missed; one
 * with no time yet is upcoming, after the dated ones. The next is the first upcoming one that is
 * still to happen (not cancelled).
 */
import { dayKey } from './format.js';
import type { Visit } from './video.js';
import { WITHOUT_END_MS } from './video.js';

/** Statuses of a visit that is over, whatever its time says. */
const OVER = new Set(['fulfilled', 'noshow']);
/** Statuses of a visit that will not take place. */
const NOT_HAPPENING = new Set(['cancelled', 'noshow', 'entered-in-error']);

export interface VisitsByTime { upcoming: Visit[]; past: Visit[]; next?: Visit }

const startOf = (v: Visit): number => Date.parse(v.booking.start ?? '');

function endOf(v: Visit): number {
  const end = Math.max(...[v.booking.end, v.meeting?.end].map((e) => Date.parse(e ?? '')).filter((e) => !Number.isNaN(e)));
  return Number.isFinite(end) ? end : startOf(v) + WITHOUT_END_MS;
}

const isPast = (v: Visit, now: number): boolean =>
  OVER.has(v.booking.status ?? '') || (!Number.isNaN(startOf(v)) && endOf(v) < now);

/** Upcoming soonest first (undated last), past newest first, each in a stable order. */
export function byTime(visits: readonly Visit[], now: number): VisitsByTime {
  const at = (v: Visit) => (Number.isNaN(startOf(v)) ? Infinity : startOf(v));
  // Two at one time keep one order whatever order the server answered in: by the booking's id.
  const id = (a: Visit, b: Visit) => (a.booking.id ?? '').localeCompare(b.booking.id ?? '');
  const upcoming = visits.filter((v) => !isPast(v, now)).sort((a, b) => at(a) - at(b) || id(a, b));
  const past = visits.filter((v) => isPast(v, now)).sort((a, b) => at(b) - at(a) || id(a, b));
  const next = upcoming.find((v) => !Number.isNaN(startOf(v)) && !NOT_HAPPENING.has(v.booking.status ?? ''));
  return { upcoming, past, ...(next === undefined ? {} : { next }) };
}

/** A moment's calendar day in Swedish time, as days since 1970. */
function dayNumber(epochMs: number): number {
  return Math.round(Date.parse(`${dayKey(epochMs)}T00:00:00Z`) / 86_400_000);
}

/** Calendar days from `now` to `start` in Swedish time: 0 today, 1 tomorrow. */
export const daysUntil = (start: number, now: number): number => dayNumber(start) - dayNumber(now);
