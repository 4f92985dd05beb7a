import { describe, expect, it } from 'vitest';
import { selectInRange } from '../../../src/domain/records/index.js';
import {
  booking, bookingResult, contact, deepFreeze, journal, meeting, patientRecords, patientData, prescriptions, signal, ZONE,
} from './builders.js';

const at = (iso: string): number => Date.parse(iso);

describe('selectInRange on instants', () => {
  const contacts = deepFreeze([
    contact('c-july', at('2025-07-04T12:30:00Z')),
    contact('c-march-a', at('2025-03-14T08:30:00Z')),
    contact('c-feb', at('2025-02-10T07:10:00Z')),
    contact('c-march-b', at('2025-03-14T08:30:00Z')),
  ]);

  it('sorts oldest first, keeping document order for equal instants', () => {
    expect(selectInRange('contacts', contacts, {}, ZONE).map((c) => c.contactId))
      .toEqual(['c-feb', 'c-march-a', 'c-march-b', 'c-july']);
  });

  it('includes both bounds, read as local Stockholm time', () => {
    // 09:30 local in March is 08:30Z; 14:30 local in July is 12:30Z.
    const range = { from: '20250314093000', to: '20250704143000' };
    expect(selectInRange('contacts', contacts, range, ZONE).map((c) => c.contactId)).toEqual(['c-march-a', 'c-march-b', 'c-july']);
    const narrower = { from: '20250314093001', to: '20250704142959' };
    expect(selectInRange('contacts', contacts, narrower, ZONE)).toEqual([]);
  });

  it('takes either bound alone', () => {
    expect(selectInRange('contacts', contacts, { to: '20250210081000' }, ZONE).map((c) => c.contactId)).toEqual(['c-feb']);
    expect(selectInRange('contacts', contacts, { from: '20250314093001' }, ZONE).map((c) => c.contactId)).toEqual(['c-july']);
  });

  it('reads a bound in the repeated autumn hour as the earlier instant', () => {
    const autumn = [contact('summer-0230', at('2024-10-27T00:30:00Z')), contact('winter-0230', at('2024-10-27T01:30:00Z'))];
    const range = { from: '20241027023000', to: '20241027023000' };
    expect(selectInRange('contacts', autumn, range, ZONE).map((c) => c.contactId)).toEqual(['summer-0230']);
  });

  it('reads a bound in the spring gap an hour later', () => {
    const spring = [contact('0129Z', at('2025-03-30T01:29:59Z')), contact('0130Z', at('2025-03-30T01:30:00Z'))];
    expect(selectInRange('contacts', spring, { from: '20250330023000' }, ZONE).map((c) => c.contactId)).toEqual(['0130Z']);
  });

  it('is idempotent and never mutates its input (the input is frozen)', () => {
    const range = { from: '20250101000000' };
    const before = JSON.stringify(contacts);
    const once = selectInRange('contacts', contacts, range, ZONE);
    expect(selectInRange('contacts', once, range, ZONE)).toEqual(once);
    expect(JSON.stringify(contacts)).toBe(before);
    expect(once).not.toBe(contacts);
  });
});

describe('selectInRange per kind', () => {
  it('attention signals by registration time', () => {
    const signals = [signal('late', at('2025-01-20T15:05:00Z')), signal('early', at('2018-03-02T10:00:00Z'))];
    expect(selectInRange('attentionsignals', signals, {}, ZONE).map((s) => s.signalId)).toEqual(['early', 'late']);
    expect(selectInRange('attentionsignals', signals, { from: '20190101000000' }, ZONE).map((s) => s.signalId)).toEqual(['late']);
  });

  it('video meetings: at most 64, the earliest, sorted', () => {
    const base = at('2025-03-01T08:00:00Z');
    const meetings = deepFreeze(Array.from({ length: 70 }, (_, i) => meeting(1000 + i, base + (69 - i) * 3_600_000)));
    const selected = selectInRange('videomeetings', meetings, {}, ZONE);
    expect(selected).toHaveLength(64);
    expect(selected[0]?.actionId).toBe(1069);
    expect(selected[63]?.actionId).toBe(1006);
    expect(selected.map((m) => m.startDateTimeInUnix)).toEqual([...selected.map((m) => m.startDateTimeInUnix)].sort((a, b) => a - b));
    expect(selectInRange('videomeetings', selected, {}, ZONE)).toEqual(selected);
    expect(selectInRange('videomeetings', meetings, { from: '20250304040000' }, ZONE).map((m) => m.actionId))
      .toEqual([1002, 1001, 1000]);
  });

  it('bookings: sorts and filters Booking and RegisteredBooking inside each result, keeping every result', () => {
    const results = deepFreeze([
      bookingResult([booking('00012345', '2025-07-04T12:30:00Z'), booking('4711923', '2025-03-14T08:30:00Z')]),
      { Booking: [], RegisteredBooking: [], ResultCode: 'INFO' as const, Comment: 'Tidboken svarade inte', Any: [] },
    ]);
    const all = selectInRange('bookings', results, {}, ZONE);
    expect(all).toHaveLength(2);
    expect(all[0]?.Booking.map((b) => b.ContactId)).toEqual(['4711923', '00012345']);
    expect(all[1]).toEqual(results[1]);
    const summer = selectInRange('bookings', results, { from: '20250704143000', to: '20251027081500' }, ZONE);
    expect(summer[0]?.Booking.map((b) => b.ContactId)).toEqual(['00012345']);
    expect(summer[0]?.RegisteredBooking.map((b) => b.BookingId)).toEqual(['WB-1']);
    expect(summer[0]?.Patient).toBe(results[0]?.Patient);
    expect(selectInRange('bookings', results, { to: '20251027081459' }, ZONE)[0]?.RegisteredBooking).toEqual([]);
    expect(selectInRange('bookings', summer, { from: '20250704143000', to: '20251027081500' }, ZONE)).toEqual(summer);
  });

  it('medications and journal notes: each record\'s extracts by time_created', () => {
    const meds = deepFreeze(prescriptions('20250303101522', '20250112154405'));
    expect(selectInRange('medications', meds, {}, ZONE)[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250112154405', '20250303101522']);
    expect(selectInRange('medications', meds, { from: '20250201000000' }, ZONE)[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250303101522']);
    const notes = deepFreeze(journal('20250303103012', '20241027023000'));
    expect(selectInRange('journalnotes', notes, { to: '20241027023000' }, ZONE)[0]?.JournalNoteEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20241027023000']);
    const none = selectInRange('journalnotes', notes, { to: '20241027022959' }, ZONE);
    expect(none).toHaveLength(1);
    expect(none[0]?.JournalNoteEHRExtract).toEqual([]);
  });

  it('patient records are returned unchanged', () => {
    const records = deepFreeze(patientRecords(patientData()));
    expect(selectInRange('patient', records, { from: '20300101000000' }, ZONE)).toBe(records);
  });
});
