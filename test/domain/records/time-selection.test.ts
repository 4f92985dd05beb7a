import { describe, expect, it } from 'vitest';
import { selectInRange } from '../../../src/domain/operations/table.js';
import type { AttentionSignal, CareContact } from '../../../src/domain/records/index.js';
import {
  booking, bookingResult, contact, contacts, deepFreeze, journal, meeting, patientRecords, patientData, patientV2, patientV2Data,
  prescriptions, signal, signals, ZONE,
} from './builders.js';

const at = (iso: string): number => Date.parse(iso);

const ids = (answer: CareContact[]): (string | undefined)[] =>
  answer.flatMap((item) => item.contactEHRExtract.map((e) => e.contact?.contactInternalID));

describe('selectInRange on instants', () => {
  // Care contacts (vendor layout) begin at compact local times: the instants are 12:30Z, 08:30Z, 07:10Z, 08:30Z.
  const all = deepFreeze(contacts(
    contact('c-july', '20250704143000'),
    contact('c-march-a', '20250314093000'),
    contact('c-feb', '20250210081000'),
    contact('c-march-b', '20250314093000'),
  ));

  it('sorts oldest first, keeping document order for equal instants', () => {
    expect(ids(selectInRange('getContacts', all, {}, ZONE))).toEqual(['c-feb', 'c-march-a', 'c-march-b', 'c-july']);
  });

  it('includes both bounds, read as local Stockholm time; no extract left is no element', () => {
    const range = { from: '20250314093000', to: '20250704143000' };
    expect(ids(selectInRange('getContacts', all, range, ZONE))).toEqual(['c-march-a', 'c-march-b', 'c-july']);
    const narrower = { from: '20250314093001', to: '20250704142959' };
    expect(selectInRange('getContacts', all, narrower, ZONE)).toEqual([]);
  });

  it('takes either bound alone', () => {
    expect(ids(selectInRange('getContacts', all, { to: '20250210081000' }, ZONE))).toEqual(['c-feb']);
    expect(ids(selectInRange('getContacts', all, { from: '20250314093001' }, ZONE))).toEqual(['c-july']);
  });

  it('reads a bound and a contact in the repeated autumn hour as the earlier instant', () => {
    // 02:30 local is 00:30Z (summer time); 03:30 local is 02:30Z.
    const autumn = contacts(contact('summer-0230', '20241027023000'), contact('winter-0330', '20241027033000'));
    const range = { from: '20241027023000', to: '20241027023000' };
    expect(ids(selectInRange('getContacts', autumn, range, ZONE))).toEqual(['summer-0230']);
  });

  it('reads a bound in the spring gap an hour later', () => {
    const spring = contacts(contact('0129Z', '20250330032959'), contact('0130Z', '20250330033000'));
    expect(ids(selectInRange('getContacts', spring, { from: '20250330023000' }, ZONE))).toEqual(['0130Z']);
  });

  it('keeps a contact without a begin time only when there is no range, last', () => {
    const undated = { ...contact('undated', '20250101000000'), contact: { contactInternalID: 'undated', contactSecrecyLevels: { secrecyLevel: [] }, actions: { action: [] } } };
    const mixed = contacts(undated, contact('c-feb', '20250210081000'));
    expect(ids(selectInRange('getContacts', mixed, {}, ZONE))).toEqual(['c-feb', 'undated']);
    expect(ids(selectInRange('getContacts', mixed, { from: '20200101000000' }, ZONE))).toEqual(['c-feb']);
  });

  it('is idempotent and never mutates its input (the input is frozen)', () => {
    const range = { from: '20250101000000' };
    const before = JSON.stringify(all);
    const once = selectInRange('getContacts', all, range, ZONE);
    expect(selectInRange('getContacts', once, range, ZONE)).toEqual(once);
    expect(JSON.stringify(all)).toBe(before);
    expect(once).not.toBe(all);
  });
});

describe('selectInRange per kind', () => {
  it('attention signals by time_created, the version kept', () => {
    const answer = signals(signal('late', '20250120160500'), signal('early', '20180302110000'));
    const names = (a: AttentionSignal[]) => a.flatMap((i) => i.AttentionSignalEHRExtract.map((e) => e.AttentionSignal?.RcId?.extension));
    expect(names(selectInRange('getAttentionSignals', answer, {}, ZONE))).toEqual(['early', 'late']);
    const later = selectInRange('getAttentionSignals', answer, { from: '20190101000000' }, ZONE);
    expect(names(later)).toEqual(['late']);
    expect(later[0]?.XSDVersion).toEqual({ version: 2.1 });
  });

  it('patient v2: every extract in the EHR\'s order, whatever the range', () => {
    const answer = patientV2(patientV2Data({ patientSex: 'M' }), patientV2Data({ patientSex: 'U' }));
    expect(selectInRange('getPatientV2', answer, { from: '20300101000000' }, ZONE)).toEqual(answer);
  });

  it('video meetings: at most 64, the earliest, sorted', () => {
    const base = at('2025-03-01T08:00:00Z');
    const meetings = deepFreeze(Array.from({ length: 70 }, (_, i) => meeting(1000 + i, base + (69 - i) * 3_600_000)));
    const selected = selectInRange('getVideoMeetings', meetings, {}, ZONE);
    expect(selected).toHaveLength(64);
    expect(selected[0]?.actionId).toBe(1069);
    expect(selected[63]?.actionId).toBe(1006);
    expect(selected.map((m) => m.startDateTimeInUnix)).toEqual([...selected.map((m) => m.startDateTimeInUnix)].sort((a, b) => a - b));
    expect(selectInRange('getVideoMeetings', selected, {}, ZONE)).toEqual(selected);
    expect(selectInRange('getVideoMeetings', meetings, { from: '20250304040000' }, ZONE).map((m) => m.actionId))
      .toEqual([1002, 1001, 1000]);
  });

  it('bookings: sorts and filters Booking and RegisteredBooking inside each result, keeping every result', () => {
    const results = deepFreeze([
      bookingResult([booking('00012345', '2025-07-04T12:30:00Z'), booking('4711923', '2025-03-14T08:30:00Z')]),
      { Booking: [], RegisteredBooking: [], ResultCode: 'INFO' as const, Comment: 'Tidboken svarade inte', Any: [] },
    ]);
    const all = selectInRange('getAppointments', results, {}, ZONE);
    expect(all).toHaveLength(2);
    expect(all[0]?.Booking.map((b) => b.ContactId)).toEqual(['4711923', '00012345']);
    expect(all[1]).toEqual(results[1]);
    const summer = selectInRange('getAppointments', results, { from: '20250704143000', to: '20251027081500' }, ZONE);
    expect(summer[0]?.Booking.map((b) => b.ContactId)).toEqual(['00012345']);
    expect(summer[0]?.RegisteredBooking.map((b) => b.BookingId)).toEqual(['WB-1']);
    expect(summer[0]?.Patient).toBe(results[0]?.Patient);
    expect(selectInRange('getAppointments', results, { to: '20251027081459' }, ZONE)[0]?.RegisteredBooking).toEqual([]);
    expect(selectInRange('getAppointments', summer, { from: '20250704143000', to: '20251027081500' }, ZONE)).toEqual(summer);
  });

  it('medications and journal notes: each record\'s extracts by time_created', () => {
    const meds = deepFreeze(prescriptions('20250303101522', '20250112154405'));
    expect(selectInRange('getMedications', meds, {}, ZONE)[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250112154405', '20250303101522']);
    expect(selectInRange('getMedications', meds, { from: '20250201000000' }, ZONE)[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250303101522']);
    const notes = deepFreeze(journal('20250303103012', '20241027023000'));
    expect(selectInRange('getJournalNotes', notes, { to: '20241027023000' }, ZONE)[0]?.JournalNoteEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20241027023000']);
    const none = selectInRange('getJournalNotes', notes, { to: '20241027022959' }, ZONE);
    expect(none).toHaveLength(1);
    expect(none[0]?.JournalNoteEHRExtract).toEqual([]);
  });

  it('patient records are returned unchanged', () => {
    const records = deepFreeze(patientRecords(patientData()));
    expect(selectInRange('getPatient', records, { from: '20300101000000' }, ZONE)).toBe(records);
  });
});
