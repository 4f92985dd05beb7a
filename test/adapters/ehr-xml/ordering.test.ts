/** The examples come in no time order: mapped, then selected, they come out oldest first. */
import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { selectDocument } from '../../support/document-reads.js';
import { example, PATIENT, ZONE } from './fixtures.js';

const read = <K extends Parameters<typeof mapDocument>[0]>(kind: K, file: string, range = {}) =>
  selectDocument(kind, mapDocument(kind, example(file), { zone: ZONE, expectedPatientId: PATIENT }), range, ZONE);

describe('examples sorted by their time key', () => {
  it('issue 13: contacts by contact.contactBeginDateTime, the repeated autumn hour as its earlier instant', () => {
    expect(read('contacts', 'contacts.xml')[0]?.contactEHRExtract.map((c) => c.contact?.contactInternalID))
      .toEqual(['00769001', '00771190', '00771234', '00790417', '00801122']);
    // 2025-10-26 02:30 occurs twice: the contact and both bounds are the earlier (summer-time) instant, 00:30Z.
    expect(read('contacts', 'contacts.xml', { from: '20251026023000', to: '20251026023000' })[0]?.contactEHRExtract
      .map((c) => c.contact?.contactInternalID)).toEqual(['00790417']);
    expect(read('contacts', 'contacts.xml', { from: '20251027000000', to: '20261231235959' })[0]?.contactEHRExtract
      .map((c) => c.contact?.contactInternalID)).toEqual(['00801122']);
    expect(read('contacts', 'contacts.xml', { to: '20240101000000' })).toEqual([]);
  });

  it('video meetings by start, within the range of the example request', () => {
    expect(read('videomeetings', 'videomeetings.xml', { from: '20250301000000', to: '20250630235959' }).map((m) => m.actionId))
      .toEqual([4711000000098, 4711000000123, 4711000000140]);
    expect(read('videomeetings', 'videomeetings.xml', { from: '20250520131500', to: '20250520131500' }).map((m) => m.actionId))
      .toEqual([4711000000123]);
  });

  it('issue 13: attention signals by time_created', () => {
    expect(read('attentionsignals', 'attentionsignals.xml')[0]?.AttentionSignalEHRExtract.map((s) => s.AttentionSignal?.RcId?.extension?.slice(-6)))
      .toEqual(['000101', '000102', '000175', '000187', '000190']);
  });

  it('bookings by start inside each result', () => {
    const results = read('bookings', 'bookings.xml', { from: '20250101000000' });
    expect(results.map((r) => r.ResultCode)).toEqual(['OK', 'INFO']);
    expect(results[0]?.Booking.map((b) => b.ContactId)).toEqual(['4711923', '00012345']);
  });

  it('medications and journal notes by time_created', () => {
    expect(read('medications', 'medications.xml')[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value))
      .toEqual(['20250112154405', '20250303101522']);
    expect(read('journalnotes', 'journalnotes.xml').map((r) => r.JournalNoteEHRExtract.map((e) => e.time_created.value)))
      .toEqual([['20250303103012'], ['20241027023000']]);
    expect(read('journalnotes', 'journalnotes.xml', { from: '20250101000000' }).map((r) => r.JournalNoteEHRExtract.length)).toEqual([1, 0]);
  });
});
