/**
 * Issue 55 item 4: what is next, first (app/src/visit-times.ts). Appointments were one list, newest
 * first, past and future mixed, today's in the middle. Now: upcoming soonest first with the next one
 * singled out, the past apart, newest first.
 */
import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../app/src/fhir-types.js';
import type { Visit } from '../../app/src/video.js';
import { byTime, daysUntil } from '../../app/src/visit-times.js';

const NOW = Date.parse('2026-11-26T14:10:00+01:00');
const visit = (id: string, start: string | undefined, more: Partial<Appointment> = {}): Visit =>
  ({ booking: { resourceType: 'Appointment', id, status: 'booked', ...(start === undefined ? {} : { start }), ...more } });
const ids = (visits: readonly Visit[]) => visits.map((v) => v.booking.id);

describe('issue 55 item 4: upcoming first, the next singled out, the past apart', () => {
  it('splits a guardian\'s list as the demo has it: today\'s earlier visit is past, its later one next', () => {
    const visits = [
      visit('jan', '2027-01-10T13:00:00+01:00'), visit('video', '2026-12-10T10:30:00+01:00'), visit('dec', '2026-12-03T15:00:00+01:00', { status: 'proposed' }),
      visit('later-today', '2026-11-26T15:55:00+01:00'), visit('earlier-today', '2026-11-26T10:15:00+01:00', { end: '2026-11-26T10:45:00+01:00' }),
      visit('nov', '2026-11-06T14:00:00+01:00'), visit('aug', '2026-08-28T08:30:00+02:00'),
    ];
    const { upcoming, past, next } = byTime(visits, NOW);
    expect(ids(upcoming)).toEqual(['later-today', 'dec', 'video', 'jan']);
    expect(ids(past)).toEqual(['earlier-today', 'nov', 'aug']);
    expect(next?.booking.id).toBe('later-today');
  });

  it('keeps a visit under way upcoming until its end (or an hour after its start), and one held or missed past whatever its time', () => {
    const { upcoming, past } = byTime([
      visit('under-way', '2026-11-26T13:30:00+01:00'), visit('over', '2026-11-26T13:00:00+01:00'),
      visit('long', '2026-11-26T11:00:00+01:00', { end: '2026-11-26T15:00:00+01:00' }),
      visit('held', '2026-11-26T15:00:00+01:00', { status: 'fulfilled' }), visit('missed', '2026-11-27T09:00:00+01:00', { status: 'noshow' }),
    ], NOW);
    expect(ids(upcoming)).toEqual(['long', 'under-way']);
    expect(ids(past)).toEqual(['missed', 'held', 'over']);
  });

  it('never makes a cancelled visit the next one, puts a visit with no time yet last, and orders two at one time by id', () => {
    const { upcoming, next } = byTime([
      visit('undated', undefined, { status: 'waitlist' }), visit('b', '2026-12-01T09:00:00+01:00'),
      visit('cancelled', '2026-11-30T09:00:00+01:00', { status: 'cancelled' }), visit('a', '2026-12-01T09:00:00+01:00'),
    ], NOW);
    expect(ids(upcoming)).toEqual(['cancelled', 'a', 'b', 'undated']);
    expect(next?.booking.id).toBe('a');
    expect(byTime([visit('cancelled', '2026-11-30T09:00:00+01:00', { status: 'cancelled' })], NOW).next).toBeUndefined();
  });

  it('counts days to the next visit by the Swedish calendar', () => {
    expect(daysUntil(Date.parse('2026-11-26T23:30:00+01:00'), NOW)).toBe(0);
    // 23:30 UTC is half past midnight in Stockholm: tomorrow.
    expect(daysUntil(Date.parse('2026-11-26T23:30:00Z'), NOW)).toBe(1);
    expect(daysUntil(Date.parse('2026-12-10T10:30:00+01:00'), NOW)).toBe(14);
    expect(daysUntil(Date.parse('2027-03-29T08:00:00+02:00'), Date.parse('2027-03-27T22:00:00+01:00'))).toBe(2);
  });
});
