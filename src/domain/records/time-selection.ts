/**
 * Range selection and ordering of mapped records (CONTRACT §4): inclusive bounds compared as
 * instants, oldest first, stable for equal times. Pure: returns new containers, never mutates, and
 * applying it twice gives the same result as once.
 */
import type { ReadKind, ReadResults, TimeRange } from '../../ports/ehr-records.port.js';
import { compactToEpochMs } from '../time/local-time.js';
import type { BookedAppointmentsResult } from './booking.js';
import { VIDEO_MEETINGS_MAX } from './video-meeting.js';

interface Bounds { from: number; to: number }

/**
 * Keeps the items whose instant lies within `bounds`, sorted by instant; stable. An item without a
 * readable instant cannot be shown to lie in a range: it is kept, last, only when there is none.
 */
function select<T>(items: readonly T[], instant: (item: T) => number, bounds: Bounds): T[] {
  const unbounded = bounds.from === -Infinity && bounds.to === Infinity;
  const kept: { item: T; at: number }[] = [];
  for (const item of items) {
    const at = instant(item);
    if (Number.isNaN(at)) {
      if (unbounded) kept.push({ item, at: Infinity });
    } else if (at >= bounds.from && at <= bounds.to) {
      kept.push({ item, at });
    }
  }
  kept.sort((a, b) => a.at - b.at);
  return kept.map((k) => k.item);
}

const typedStart = (b: { TypedStartDateTime: string }): number => Date.parse(b.TypedStartDateTime);

/** A TS value's instant; NaN without one (an unreadable instant, see `select`). */
const instantOf = (ts: { value?: string } | undefined, zone: string): number =>
  (ts?.value === undefined ? Number.NaN : compactToEpochMs(ts.value, zone));

/** The vendor layouts answer one element holding the extracts, or none when no extract is left. */
function selectExtracts<T, K extends keyof T>(items: readonly T[], key: K, pick: (extracts: T[K]) => T[K]): T[] {
  return items.map((item) => ({ ...item, [key]: pick(item[key]) }))
    .filter((item) => (item[key] as unknown[]).length > 0);
}

type Selectors = { [P in ReadKind]: (data: ReadResults[P], bounds: Bounds, zone: string) => ReadResults[P] };

const SELECTORS: Selectors = {
  patient: (data) => data,
  // Every extract, in the EHR's order: the vendor's layout picks none.
  'patient-v2': (data) => data,
  bookings: (results, bounds) => results.map((r: BookedAppointmentsResult) => ({
    ...r,
    Booking: select(r.Booking, typedStart, bounds),
    RegisteredBooking: select(r.RegisteredBooking, typedStart, bounds),
  })),
  contacts: (items, bounds, zone) => selectExtracts(items, 'contactEHRExtract',
    (extracts) => select(extracts, (e) => instantOf(e.contact?.contactBeginDateTime, zone), bounds)),
  videomeetings: (items, bounds) => select(items, (m) => m.startDateTimeInUnix, bounds).slice(0, VIDEO_MEETINGS_MAX),
  attentionsignals: (items, bounds, zone) => selectExtracts(items, 'AttentionSignalEHRExtract',
    (extracts) => select(extracts, (e) => instantOf(e.time_created, zone), bounds)),
  medications: (records, bounds, zone) => records.map((r) => ({
    ...r,
    PrescriptionEHRExtract: select(r.PrescriptionEHRExtract, (e) => compactToEpochMs(e.time_created.value, zone), bounds),
  })),
  journalnotes: (records, bounds, zone) => records.map((r) => ({
    ...r,
    JournalNoteEHRExtract: select(r.JournalNoteEHRExtract, (e) => compactToEpochMs(e.time_created.value, zone), bounds),
  })),
};

export function selectInRange<K extends ReadKind>(
  kind: K, data: ReadResults[K], range: TimeRange, zone: string,
): ReadResults[K] {
  const bounds: Bounds = {
    from: range.from === undefined ? -Infinity : compactToEpochMs(range.from, zone),
    to: range.to === undefined ? Infinity : compactToEpochMs(range.to, zone),
  };
  return (SELECTORS[kind] as (d: ReadResults[K], b: Bounds, z: string) => ReadResults[K])(data, bounds, zone);
}
