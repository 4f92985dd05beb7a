import { describe, expect, it } from 'vitest';
import { formatAccessJson, formatAccessTable, localTime } from '../../../src/adapters/audit-query/access-report.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { CHILD, fullRecord, minimalRecord } from '../audit-postgres/records.js';

/** Control characters other than the line feeds the report is made of. */
const controlCharacters = (text: string): number[] =>
  [...text].map((c) => c.charCodeAt(0)).filter((n) => (n < 0x20 && n !== 0x0a) || (n >= 0x7f && n <= 0x9f));

const heading = { patientId: CHILD, from: new Date('2026-06-30T22:00:00.000Z'), to: new Date('2026-07-01T21:59:59.999Z'), zone: 'Europe/Stockholm', source: 'test' };

describe('the access report', () => {
  it('shows Swedish local time, summer time included', () => {
    expect(localTime(new Date('2026-07-01T10:00:00.000Z'), 'Europe/Stockholm')).toBe('2026-07-01 12:00:00');
    expect(localTime(new Date('2026-11-21T10:00:00.000Z'), 'Europe/Stockholm')).toBe('2026-11-21 11:00:00');
    expect(formatAccessTable([], heading)).toBe(
      `Accesses to the data of patient ${CHILD}\nfrom 2026-07-01 00:00:00 to 2026-07-01 23:59:59 (Europe/Stockholm local time); source: test\n\n0 accesses recorded.\n`);
  });

  it('names who acted: the person, else the client, else the subject, else that no token was valid', () => {
    const records: AuditRecord[] = [
      fullRecord(1, { time: '2026-07-01T08:00:00.000Z' }),
      fullRecord(2, { time: '2026-07-01T08:00:01.000Z', actor: { issuer: 'https://idp', subject: 'kiosk' }, clientId: 'kiosk-1' }),
      fullRecord(3, { time: '2026-07-01T08:00:02.000Z', actor: { issuer: 'https://idp', subject: 'svc' }, clientId: undefined }),
      { ...minimalRecord(4), time: '2026-07-01T08:00:03.000Z', patientId: CHILD },
    ];
    const lines = formatAccessTable(records, heading).split('\n').slice(5, 9);
    expect(lines.map((l) => l.split(/ {2,}/)[1])).toEqual(['198112189876', 'client kiosk-1', 'svc (https://idp)', '(no valid token)']);
    expect(formatAccessTable(records, heading)).toMatch(/\n4 accesses recorded\.\n$/);
    expect(formatAccessTable(records.slice(0, 1), heading)).toMatch(/\n1 access recorded\.\n$/);
  });

  it('names every read of the patient\'s data a request made, besides the one it is named for (OutcomeRecord.alsoRead)', () => {
    const search = fullRecord(1, { time: '2026-07-01T08:00:00.000Z', operation: 'getContacts', alsoRead: ['getJournalNotes', 'getDiagnoses'] });
    const [line] = formatAccessTable([search, fullRecord(2, { time: '2026-07-01T08:00:01.000Z' })], heading).split('\n').slice(5, 7);
    expect(line?.split(/ {2,}/)[4]).toBe('getContacts + getJournalNotes + getDiagnoses');
    expect(formatAccessTable([fullRecord(2, { time: '2026-07-01T08:00:01.000Z' })], heading).split('\n')[5]?.split(/ {2,}/)[4]).toBe('getJournalNotes');
    expect((JSON.parse(formatAccessJson([search], heading)) as { records: AuditRecord[] }).records[0]).toMatchObject({ alsoRead: ['getJournalNotes', 'getDiagnoses'] });
  });

  it('cannot be made to drive the terminal by what a caller put in a token', () => {
    const evil = fullRecord(1, { time: '2026-07-01T08:00:00.000Z', clientId: 'x\u001b[2J\u009b31m\r\nforged line' });
    const table = formatAccessTable([evil], heading);
    expect(controlCharacters(table)).toEqual([]);
    expect(table).toContain('x\\u001b[2J\\u009b31m\\u000d\\u000aforged line');
    const json = formatAccessJson([evil], heading);
    expect(controlCharacters(json)).toEqual([]);
    expect((JSON.parse(json) as { records: AuditRecord[] }).records[0]?.clientId).toBe(evil.clientId);
  });
});
