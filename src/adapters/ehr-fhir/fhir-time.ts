/**
 * FHIR times to the API's (docs/upstream-fhir.md#time): an instant, or a dateTime with a time,
 * carries an offset and becomes 14 digits of local time in EHR_TIMEZONE, fractions dropped; a date
 * stays 8 digits with no zone arithmetic; a year or a month alone has no compact form. Instants stay
 * exact: what is computed from one (`TypedStartDateTime`, the `*InUnix` members) comes from the
 * instant itself, never from its 14 digits, which cannot tell the two 02:30 of an autumn night apart.
 */
import { daysInMonth, epochMsToCompact, wallClockToEpochMs, type WallClock } from '../../domain/time/local-time.js';
import { fhirFault } from './fault.js';

/** What the mapping needs to read times: the zone, and a note for a time that breaks FHIR's rules. */
export interface TimeContext {
  zone: string;
  /** Told of a time with no offset (read as local time); never given the value itself. */
  note(reason: string): void;
}

export type FhirMoment =
  | { kind: 'partial' }
  | { kind: 'date'; date: string }
  | { kind: 'instant'; epochMs: number };

const FORM = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;
const MINUTE_MS = 60_000;

function wallAsUtc(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const m = OFFSET.exec(offset);
  const [hours, minutes] = [Number(m?.[2]), Number(m?.[3])];
  if (!m || hours > 14 || minutes > 59) throw fhirFault('impossible time offset');
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The moment a FHIR date, dateTime or instant names; an impossible one is a fault. */
export function readMoment(text: string, ctx: TimeContext): FhirMoment {
  const m = FORM.exec(text);
  if (!m) throw fhirFault('unreadable time');
  if (m[2] === undefined || m[3] === undefined) return { kind: 'partial' };
  const wall: WallClock = {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
  };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > daysInMonth(wall.year, wall.month)
    || wall.hour > 23 || wall.minute > 59 || wall.second > 59) throw fhirFault('impossible time');
  if (m[4] === undefined) return { kind: 'date', date: `${m[1]}${m[2]}${m[3]}` };
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (m[8] === undefined) {
    ctx.note('a FHIR time without an offset was read as local time');
    return { kind: 'instant', epochMs: wallClockToEpochMs(wall, ctx.zone) + millis };
  }
  return { kind: 'instant', epochMs: wallAsUtc(wall) - offsetMinutes(m[8]) * MINUTE_MS + millis };
}

/** 14 digits of local time, 8 of a date, or undefined for a partial date or no time at all. */
export function compactOf(text: string | undefined, ctx: TimeContext): string | undefined {
  if (text === undefined) return undefined;
  const moment = readMoment(text, ctx);
  if (moment.kind === 'partial') return undefined;
  return moment.kind === 'date' ? moment.date : epochMsToCompact(moment.epochMs, ctx.zone);
}

/** TS(x): `{value}` of the compact form, absent when there is none. */
export function ts(text: string | undefined, ctx: TimeContext): { value: string } | undefined {
  const value = compactOf(text, ctx);
  return value === undefined ? undefined : { value };
}

/** TS(x) as a date: the first 8 digits (a date of death, a relationship's bounds). */
export function tsDate(text: string | undefined, ctx: TimeContext): { value: string } | undefined {
  const value = compactOf(text, ctx);
  return value === undefined ? undefined : { value: value.slice(0, 8) };
}

/** The instant of a time that must have one (an appointment's start); a date alone is a fault. */
export function instantOf(text: string, ctx: TimeContext): number {
  const moment = readMoment(text, ctx);
  if (moment.kind !== 'instant') throw fhirFault('a time without its time of day');
  return moment.epochMs;
}

/**
 * Whether a period (of an address, an identifier) has ended by `nowMs`: an end that is an instant
 * before now, or a date (a month, a year) before today's local one (the end day itself still counts).
 */
export function hasEnded(period: { end?: string } | undefined, nowMs: number, ctx: TimeContext): boolean {
  if (period?.end === undefined) return false;
  const moment = readMoment(period.end, ctx);
  if (moment.kind === 'instant') return moment.epochMs < nowMs;
  const today = epochMsToCompact(nowMs, ctx.zone).slice(0, 8);
  if (moment.kind === 'date') return moment.date < today;
  // A year or a month ends with its last day: it has ended when today lies in a later one.
  const digits = period.end.replace(/-/g, '');
  return digits < today.slice(0, digits.length);
}
