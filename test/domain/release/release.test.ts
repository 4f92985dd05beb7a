import { describe, expect, it } from 'vitest';
import type { AccessBasis } from '../../../src/domain/access/relationship.js';
import type { JournalNoteRecord } from '../../../src/domain/records/index.js';
import { releaseToCaller, type ReleaseContext } from '../../../src/domain/use-cases/read-patient-data.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import type { ReadItem, ReadName } from '../../../src/domain/operations/table.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';
import { deepFreeze } from '../records/builders.js';
import {
  BARNAHUS, BARNAHUS_ZONE, careContact, careContacts, journal, keyword, note, prescription, prescriptions, secret, signal, signals, VC, ZONE,
} from './release-builders.js';

const ADULT = '191212121212';
/** Born 15 November 2013. */
const CHILD = '201311152381';
const NOW = compactToEpochMs('20261120120000', ZONE);

const context = (basis: AccessBasis = 'self', patientId = ADULT, now = NOW): ReleaseContext => ({ basis, patientId, now, zone: ZONE });

function release<R extends ReadName>(read: R, data: ReadItem<R>[], policy: ReleasePolicy | undefined, ctx = context()) {
  return releaseToCaller(read, deepFreeze(data), policy, ctx);
}

const noteIds = (records: JournalNoteRecord[]): string[] =>
  records.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.ehr_id.extension));

describe('release policy rules on journal notes (issue 14 item 2)', () => {
  it('issue 14 item 2: withholds nothing and answers the very records without a policy', () => {
    const notes = journal(note('n1', '20261101100000', { signed: undefined, levels: ['Sekretess'] }));
    const released = release('getJournalNotes', notes, undefined);
    expect(released).toEqual({ records: notes, withheld: 0 });
    expect(released.records).toBe(notes);
  });

  it('issue 14 item 2: withholds notes with a listed NoteSecrecyLevel, compared trimmed and without case', () => {
    const notes = journal(note('n1', '20261101100000', { levels: ['Normal'] }), note('n2', '20261102100000', { levels: ['SEKRETESS '] }));
    const released = release('getJournalNotes', notes, { noteSecrecyLevels: { levels: ['Sekretess'] } });
    expect(noteIds(released.records)).toEqual(['n1']);
    expect(released.withheld).toBe(1);
  });

  it('issue 14 item 2: withholds unsigned notes when the rule says so, and keeps them when it says false', () => {
    const notes = journal(note('signed', '20261101100000'), note('unsigned', '20261102100000', { signed: undefined }));
    expect(noteIds(release('getJournalNotes', notes, { unsignedNotes: { withhold: true } }).records)).toEqual(['signed']);
    expect(release('getJournalNotes', notes, { unsignedNotes: { withhold: false } }).withheld).toBe(0);
  });

  it('issue 14 item 2: withholds notes signed fewer than the set days ago, and unsigned ones, with the injected clock', () => {
    const notes = journal(
      note('old', '20261101100000', { signed: '20261106120000' }),
      note('edge', '20261106120000', { signed: '20261106120001' }),
      note('unsigned', '20261119100000', { signed: undefined }),
    );
    const policy: ReleasePolicy = { signingDelay: { days: 14 } };
    // 20 November 12:00 is 14 days after 6 November 12:00 to the second.
    expect(noteIds(release('getJournalNotes', notes, policy).records)).toEqual(['old']);
    const later = release('getJournalNotes', notes, policy, context('self', ADULT, NOW + 1000));
    expect(noteIds(later.records)).toEqual(['old', 'edge']);
    expect(later.withheld).toBe(1);
  });

  it('issue 14 item 2: withholds notes of a listed care unit, by UnitID or by AccessZoneID', () => {
    const notes = journal(
      note('vc', '20261101100000'),
      note('barnahus', '20261102100000', { careUnit: BARNAHUS }),
      note('zone', '20261103100000', { zones: [BARNAHUS_ZONE] }),
    );
    expect(noteIds(release('getJournalNotes', notes, { careUnits: { unitIds: [BARNAHUS] } }).records)).toEqual(['vc', 'zone']);
    expect(noteIds(release('getJournalNotes', notes, { careUnits: { accessZoneIds: [BARNAHUS_ZONE] } }).records)).toEqual(['vc', 'barnahus']);
    // Both parts of the identifier must match: the same extension under another root is another unit.
    expect(release('getJournalNotes', notes, { careUnits: { unitIds: [{ root: '1.2.3', extension: BARNAHUS.extension }] } }).withheld).toBe(0);
  });

  it('issue 14 item 2: withholds a whole note with a listed keyword name, however deep the keyword is nested', () => {
    const deep = keyword('Bedömning', 'b', { Record: keyword('Åtgärd', 'a', { Record: keyword('orosanmälan', 'Anmälan gjord.') }) });
    const notes = journal(note('plain', '20261101100000'), note('concern', '20261102100000', { records: [keyword('Anamnes', 'x'), deep] }));
    const released = release('getJournalNotes', notes, { keywords: { names: ['Orosanmälan'] } });
    expect(noteIds(released.records)).toEqual(['plain']);
    expect(released.withheld).toBe(1);
  });

  it('issue 14 item 2: withholds a keyword with a listed KeywordSecrecyLevel whole, with what is nested in it, and keeps the rest of the note', () => {
    const nestedSecret = keyword('Bedömning', 'shown', { Record: keyword('Socialt', 'HIDDEN-2', { ...secret('Känslig uppgift'), Record: keyword('Åtgärd', 'HIDDEN-3') }) });
    const notes = journal(note('n1', '20261101100000', {
      records: [keyword('Samtal', 'HIDDEN-1', { ...secret('Känslig uppgift'), Record: keyword('Plan', 'HIDDEN-4') }), keyword('Planering', 'kept'), nestedSecret],
    }));
    const released = release('getJournalNotes', notes, { keywordSecrecyLevels: { levels: ['känslig uppgift'] } });
    const records = released.records[0]?.JournalNoteEHRExtract[0]?.Note?.Records.Record ?? [];
    expect(records.map((r) => r.Keyword)).toEqual(['Planering', 'Bedömning']);
    expect(records[1]).toEqual(keyword('Bedömning', 'shown'));
    expect(released.withheld).toBe(2);
    expect(JSON.stringify(released.records)).not.toMatch(/HIDDEN|Socialt|Samtal/);
  });

  it('issue 14 item 2: withholds a note whose every keyword was withheld, counted once', () => {
    const notes = journal(note('n1', '20261101100000', { records: [keyword('Samtal', 'HIDDEN', secret('S')), keyword('Plan', 'HIDDEN', secret('S'))] }));
    expect(release('getJournalNotes', notes, { keywordSecrecyLevels: { levels: ['S'] } })).toEqual({
      records: [{ XSDVersion: { version: 3.1 }, JournalNoteEHRExtract: [] }], withheld: 1,
    });
  });

  it('issue 14 item 2: a client token is held to a rule unless the rule says applyToClientTokens false; the patient always is', () => {
    const notes = journal(note('n1', '20261101100000', { signed: undefined }));
    const held: ReleasePolicy = { unsignedNotes: { withhold: true } };
    const exempt: ReleasePolicy = { unsignedNotes: { withhold: true, applyToClientTokens: false } };
    expect(release('getJournalNotes', notes, held, context('client')).withheld).toBe(1);
    expect(release('getJournalNotes', notes, exempt, context('client')).withheld).toBe(0);
    for (const basis of ['self', 'guardian', 'partner', 'power-of-attorney'] as const) {
      expect(release('getJournalNotes', notes, exempt, context(basis)).withheld).toBe(1);
    }
  });
});

describe('release policy rules on the other journal reads (issue 14 item 2)', () => {
  it('issue 14 item 2: withholds care contacts with a listed contact secrecy level or unit, and actions with a listed level', () => {
    const data = careContacts(
      careContact('c1', { actions: [['a1', ['Normal']], ['a2', ['Sekretess']]] }),
      careContact('c2', { levels: ['Sekretess'] }),
      careContact('c3', { unit: BARNAHUS }),
    );
    const released = release('getContacts', data, { contactSecrecyLevels: { levels: ['Sekretess'] }, careUnits: { unitIds: [BARNAHUS] } });
    const kept = released.records[0]?.contactEHRExtract ?? [];
    expect(kept.map((c) => c.contact?.contactInternalID)).toEqual(['c1']);
    expect(kept[0]?.contact?.actions.action.map((a) => a.actionID)).toEqual(['a1']);
    expect(released.withheld).toBe(3);
  });

  it('issue 14 item 2: answers no empty element when every contact or signal was withheld, as the time selection does', () => {
    const policy: ReleasePolicy = { careUnits: { unitIds: [BARNAHUS] } };
    expect(release('getContacts', careContacts(careContact('c1', { unit: BARNAHUS })), policy)).toEqual({ records: [], withheld: 1 });
    expect(release('getAttentionSignals', signals(signal('s1', BARNAHUS)), policy)).toEqual({ records: [], withheld: 1 });
  });

  it('issue 14 item 2: withholds attention signals and prescriptions of a listed unit or access zone', () => {
    const released = release('getAttentionSignals', signals(signal('s1'), signal('s2', VC, BARNAHUS_ZONE)), { careUnits: { accessZoneIds: [BARNAHUS_ZONE] } });
    expect(released.records[0]?.AttentionSignalEHRExtract.map((s) => s.AttentionSignal?.RcId?.extension)).toEqual(['s1']);
    const drugs = release('getMedications', prescriptions(prescription('r1'), prescription('r2', BARNAHUS)), { careUnits: { unitIds: [BARNAHUS] } });
    expect(drugs.records[0]?.PrescriptionEHRExtract.map((p) => p.ehr_id.extension)).toEqual(['r1']);
    expect(drugs.withheld).toBe(1);
  });

  it('issue 14 item 2: from the age limit, a guardian gets none of that read\'s items, counted; other reads are untouched', () => {
    const policy: ReleasePolicy = { guardianAgeLimit: { operations: { getJournalNotes: 13, getMedications: 13 } } };
    const notes = journal(note('n1', '20261101100000'), note('n2', '20261102100000'));
    const guardian = context('guardian', CHILD);
    expect(release('getJournalNotes', notes, policy, guardian)).toEqual({ records: [{ XSDVersion: { version: 3.1 }, JournalNoteEHRExtract: [] }], withheld: 2 });
    expect(release('getMedications', prescriptions(prescription('r1')), policy, guardian).withheld).toBe(1);
    expect(release('getAttentionSignals', signals(signal('s1')), policy, guardian).withheld).toBe(0);
    expect(release('getJournalNotes', notes, policy, context('guardian', CHILD, compactToEpochMs('20261114235959', ZONE))).withheld).toBe(0);
    expect(release('getJournalNotes', notes, policy, context('self', CHILD)).withheld).toBe(0);
  });

  it('issue 14 item 2: reads without journal content pass unchanged whatever the policy', () => {
    const policy: ReleasePolicy = { careUnits: { unitIds: [VC] }, unsignedNotes: { withhold: true } };
    const bookings: ReadItem<'getAppointments'>[] = [{ Booking: [], RegisteredBooking: [], ResultCode: 'OK', Any: [] }];
    expect(release('getAppointments', bookings, policy).records).toBe(bookings);
  });
});

describe('a withheld item never leaks in part (issue 14 item 2)', () => {
  const MARK = 'WITHHELD-MARK';
  const everyRule: ReleasePolicy = {
    noteSecrecyLevels: { levels: ['Sekretess'] },
    keywordSecrecyLevels: { levels: ['Känslig uppgift'] },
    unsignedNotes: { withhold: true },
    signingDelay: { days: 14 },
    careUnits: { unitIds: [BARNAHUS], accessZoneIds: [BARNAHUS_ZONE] },
    keywords: { names: ['Orosanmälan'] },
  };
  const shown = note('shown', '20261001100000', { records: [keyword('Anamnes', 'visible'), keyword('Samtal', `${MARK}-k`, secret('Känslig uppgift'))] });
  const notes = journal(
    shown,
    note(`${MARK}-1`, '20261002100000', { levels: ['Sekretess'], records: [keyword('A', `${MARK}-t1`)] }),
    note(`${MARK}-2`, '20261003100000', { signed: undefined, records: [keyword('A', `${MARK}-t2`)] }),
    note(`${MARK}-3`, '20261119100000', { records: [keyword('A', `${MARK}-t3`)] }),
    note(`${MARK}-4`, '20261004100000', { careUnit: BARNAHUS, records: [keyword('A', `${MARK}-t4`)] }),
    note(`${MARK}-5`, '20261005100000', { zones: [BARNAHUS_ZONE], records: [keyword('A', `${MARK}-t5`)] }),
    note(`${MARK}-6`, '20261006100000', { records: [keyword('A', `${MARK}-t6`, { Record: keyword('Orosanmälan', 'x') })] }),
  );

  it('issue 14 item 2: no text, identifier or keyword of a withheld note or keyword appears anywhere in the answer, for any caller', () => {
    for (const basis of ['self', 'guardian', 'partner', 'power-of-attorney', 'client'] as const) {
      const released = release('getJournalNotes', notes, everyRule, context(basis));
      expect(JSON.stringify(released.records)).not.toContain(MARK);
      expect(released.withheld).toBe(7);
      expect(noteIds(released.records)).toEqual(['shown']);
    }
  });

  it('issue 14 item 2: what is kept is exactly what the EHR sent, less only the withheld keyword; the EHR\'s records are not changed', () => {
    const before = JSON.stringify(notes);
    const kept = release('getJournalNotes', notes, everyRule).records[0]?.JournalNoteEHRExtract[0];
    const { Note, ...rest } = shown;
    const { Note: keptNote, ...keptRest } = kept ?? {};
    expect(keptRest).toEqual(rest);
    expect(keptNote).toEqual({ ...Note, Records: { Record: [keyword('Anamnes', 'visible')] } });
    expect(JSON.stringify(notes)).toBe(before);
  });
});
