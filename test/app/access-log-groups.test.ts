/**
 * Issue 55 item 5: an access log that fits a phone (app/src/log-groups.ts). It grew by a dozen rows
 * each time the app was opened (after three sign-ins Lilla's log was 9,214 px tall), its entries of
 * one second in whatever order they came. Now: by day and by who through which app, newest first,
 * in one order whatever the server's, paged by those groups.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../app/src/fhir-types.js';
import { dataRead } from '../../app/src/event-reads.js';
import { dayKey } from '../../app/src/format.js';
import { OPERATION_NAMES } from '../../app/src/i18n.js';
import { actorKey, groupLog, pageOf } from '../../app/src/log-groups.js';

let serial = 0;
/** An event as the FHIR API writes one (src/http/access-log/fhir-audit-event.ts). */
function event(recorded: string, basis: string, person: string | undefined, app: string, operation: string, outcome = '0'): AuditEvent {
  serial += 1;
  return {
    resourceType: 'AuditEvent', id: `${Date.parse(recorded).toString(36)}-${String(serial).padStart(4, '0')}`, recorded, outcome,
    subtype: [{ system: 'urn:patient-data-access:operation', code: operation }],
    agent: [
      { type: { text: basis }, requestor: true, who: person === undefined ? { display: basis } : { identifier: { value: person } } },
      { who: { display: app, identifier: { value: app } }, requestor: false },
    ],
  };
}
const READS = ['pickAppPatient', 'grantAppAccess', 'issueAppToken', 'getPatientV2', 'getLabResults', 'getJournalNotes', 'getMedications', 'getAppointments', 'getPatientSummary', 'getDiagnoses', 'getAccessLog'];
/** One opening of the app by Märta as Lilla's guardian: a dozen events within a second. */
const opening = (second: string) => READS.map((op, i) => event(`2026-11-26T14:09:${second}.${String(100 + i * 50).padStart(3, '0')}Z`, 'Guardian', '198112189876', 'patient-app', op));

describe('issue 55 item 5: the log by day and by who, paged, in one order', () => {
  it('folds three openings of the app on one day into one group, so the log does not grow by a dozen lines an opening', () => {
    const three = [...opening('47'), ...opening('49'), ...opening('50')];
    const days = groupLog(three, dayKey);
    expect(days.map((d) => [d.day, d.groups.length, d.groups[0]?.events.length])).toEqual([['2026-11-26', 1, 33]]);
    const one = groupLog(opening('47'), dayKey);
    expect(one.flatMap((d) => d.groups).length).toBe(days.flatMap((d) => d.groups).length);
  });

  it('keeps apart another person, another basis, another app, and another day (Swedish time: 23:30 UTC is the next day)', () => {
    const events = [
      ...opening('47'),
      event('2026-11-26T15:00:00Z', 'Guardian', '197709239286', 'patient-app', 'getLabResults'),
      event('2026-11-26T15:01:00Z', 'The patient', '201701012393', 'patient-app', 'getLabResults'),
      event('2026-11-26T15:02:00Z', 'Guardian', '198112189876', 'other-app', 'getLabResults', '4'),
      event('2026-11-26T23:30:00Z', 'Guardian', '198112189876', 'patient-app', 'getLabResults'),
      event('2026-11-20T09:00:00Z', 'Guardian', '198112189876', 'patient-app', 'getLabResults'),
    ];
    const days = groupLog(events, dayKey);
    expect(days.map((d) => d.day)).toEqual(['2026-11-27', '2026-11-26', '2026-11-20']);
    const today = days[1]?.groups ?? [];
    expect(today.map((g) => [g.events.length, JSON.parse(actorKey(g.events[0] as AuditEvent))])).toEqual([
      [1, ['Guardian', '198112189876', 'other-app']], [1, ['The patient', '201701012393', 'patient-app']],
      [1, ['Guardian', '197709239286', 'patient-app']], [11, ['Guardian', '198112189876', 'patient-app']],
    ]);
  });

  it('answers one order whatever order the server answered in, events of one millisecond by id', () => {
    const events = [...opening('47'), ...opening('49'), event('2026-11-26T14:09:47.100Z', 'Guardian', '198112189876', 'patient-app', 'getDiagnoses')];
    const order = (list: readonly AuditEvent[]) => groupLog(list, dayKey).flatMap((d) => d.groups.flatMap((g) => g.events.map((e) => e.id)));
    const expected = order(events);
    expect(order([...events].reverse())).toEqual(expected);
    expect(order([...events.slice(7), ...events.slice(0, 7)])).toEqual(expected);
    const times = expected.map((id) => events.find((e) => e.id === id)?.recorded ?? '');
    expect(times).toEqual([...times].sort().reverse());
  });

  it('pages by groups, newest first, naming a day split by a page break on both pages, and keeps a page within those there are', () => {
    const events = Array.from({ length: 11 }, (_, i) => event(`2026-11-${String(26 - Math.floor(i / 4)).padStart(2, '0')}T1${i % 4}:00:00Z`, 'Guardian', `19811218987${i % 4}`, 'patient-app', 'getLabResults'));
    const days = groupLog(events, dayKey);
    const first = pageOf(days, 0, 5);
    expect([first.page, first.pages, first.days.map((d) => [d.day, d.groups.length])]).toEqual([0, 3, [['2026-11-26', 4], ['2026-11-25', 1]]]);
    const second = pageOf(days, 1, 5);
    expect(second.days.map((d) => [d.day, d.groups.length])).toEqual([['2026-11-25', 3], ['2026-11-24', 2]]);
    expect(pageOf(days, 9, 5).page).toBe(2);
    expect(pageOf(days, -1, 5).page).toBe(0);
    expect(pageOf([], 0, 5)).toEqual({ days: [], page: 0, pages: 1 });
  });

  // Hostile review helper-90, F2: a search of care contacts that included the journal notes showed as "Vårdkontakter" alone.
  it('names every kind of data an event read, the one it is named for first, in the page\'s language', () => {
    const search = event('2026-11-26T15:00:00Z', 'Guardian', '198112189876', 'patient-app', 'getContacts');
    search.subtype?.push({ system: 'urn:patient-data-access:operation', code: 'getJournalNotes' }, { system: 'http://hl7.org/fhir/restful-interaction', code: 'search' });
    for (const lang of ['sv', 'en'] as const) {
      expect(dataRead(search, lang)).toEqual([OPERATION_NAMES.getContacts?.[lang], OPERATION_NAMES.getJournalNotes?.[lang]]);
      expect(dataRead(event('2026-11-26T15:00:00Z', 'Guardian', '198112189876', 'patient-app', 'getLabResults'), lang)).toEqual([OPERATION_NAMES.getLabResults?.[lang]]);
    }
  });
});
