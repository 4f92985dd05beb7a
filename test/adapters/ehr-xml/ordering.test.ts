/** The examples come in no time order: mapped, then selected, they come out oldest first. */
import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { selectInRange } from '../../../src/domain/records/index.js';
import { example, PATIENT, ZONE } from './fixtures.js';

const read = <K extends Parameters<typeof mapDocument>[0]>(kind: K, file: string, range = {}) =>
  selectInRange(kind, mapDocument(kind, example(file), { zone: ZONE, expectedPatientId: PATIENT }), range, ZONE);

describe('examples sorted by their time key', () => {
  it('contacts by start', () => {
    expect(read('contacts', 'contacts.xml').map((c) => c.contactId))
      .toEqual(['00769001', '00771234', '00772001', '4711000000098', '00012345']);
  });

  it('video meetings by start, within the range of the example request', () => {
    expect(read('videomeetings', 'videomeetings.xml', { from: '20250301000000', to: '20250630235959' }).map((m) => m.actionId))
      .toEqual([4711000000098, 4711000000123, 4711000000140]);
    expect(read('videomeetings', 'videomeetings.xml', { from: '20250520131500', to: '20250520131500' }).map((m) => m.actionId))
      .toEqual([4711000000123]);
  });

  it('attention signals by registration', () => {
    expect(read('attentionsignals', 'attentionsignals.xml').map((s) => s.signalId))
      .toEqual(['AS-000103', 'AS-000101', 'AS-000102', 'AS-000187', 'AS-000190']);
  });

  it('bookings by start inside each result', () => {
    const results = read('bookings', 'bookings.xml', { from: '20250101000000' });
    expect(results.map((r) => r.ResultCode)).toEqual(['OK', 'INFO']);
    expect(results[0]?.Booking.map((b) => b.ContactId)).toEqual(['4711923', '00012345']);
  });

  it('medications and journal notes by time_created', () => {
    expect(read('medications', 'medications.xml')[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250112154405', '20250303101522']);
    expect(read('journalnotes', 'journalnotes.xml')[0]?.JournalNoteEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20241027023000', '20250303103012']);
  });
});
