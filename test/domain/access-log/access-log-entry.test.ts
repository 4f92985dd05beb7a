import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryOf } from '../../../src/domain/access-log/access-log-entry.js';
import { canonicalScope, scopesFromClaims } from '../../../src/domain/access/scopes.js';
import { epochMsToCompact } from '../../../src/domain/time/local-time.js';
import type { LoggedAccess } from '../../../src/ports/access-log.port.js';
import { assertProperty } from '../../support/seeds.js';

const ZONE = 'Europe/Stockholm';
const CHILD = '201701012393';
const GUARDIAN = '198112189876';
const OTHER_GUARDIAN = '197001012390';
const STRANGER = '191212121212';
const NAMES = new Map([['kiosk-1', 'Incheckningsterminal Vårdcentralen'], ['vardapp', 'Vårdappen']]);

const SERVICE_ID = '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42';
const access = (over: Partial<LoggedAccess> = {}): LoggedAccess => ({
  timeMs: Date.parse('2026-11-21T09:05:12.345Z'), requestId: SERVICE_ID, operation: 'getJournalNotes', outcome: 'allowed', status: 200,
  subscription: 'vardapp', ...over,
});

describe('issue 14 access log: one entry as each viewer may see it', () => {
  it('issue 14: time as 14-digit local time and timeInUnix, the operation id with its Swedish and English names, outcome and basis codes', () => {
    const e = entryOf(access({ actorPersonId: CHILD, delegation: 'self' }), CHILD, { personId: CHILD }, ZONE, NAMES);
    expect(e).toEqual({
      time: '20261121100512', timeInUnix: Date.parse('2026-11-21T09:05:12.345Z'),
      operation: 'getJournalNotes', operationDisplayName: { sv: 'Journalanteckningar', en: 'Journal notes' },
      outcome: 'allowed', basis: 'self',
      clientApplication: { displayName: 'Vårdappen' }, requestId: SERVICE_ID,
    });
  });

  it('issue 34 item 10: shows a request id only in the service\'s own form (a UUID): a caller\'s X-Request-Id an older version kept as the id is shown as empty', () => {
    for (const callers of ['Ring-1177.se-helpdesk-0701234567-nu', 'req-1', 'call-me-at-0701234567', '0b6f3c1e5d0a4a579d0e2f8f1c7a9b42', `${SERVICE_ID} `]) {
      const e = entryOf(access({ requestId: callers, delegation: 'delegation', actorPersonId: STRANGER, outcome: 'denied', status: 403 }), CHILD, { personId: CHILD }, ZONE, NAMES);
      expect([callers, e.requestId]).toEqual([callers, '']);
    }
    expect(entryOf(access(), CHILD, { personId: CHILD }, ZONE, NAMES).requestId).toBe(SERVICE_ID);
    expect(entryOf(access({ requestId: SERVICE_ID.toUpperCase() }), CHILD, {}, ZONE, NAMES).requestId).toBe('');
  });

  it('issue 14: the local time is the EHR zone\'s wall clock on both sides of each DST change', () => {
    for (const edge of [Date.parse('2026-03-29T01:00:00Z'), Date.parse('2026-10-25T01:00:00Z')]) {
      for (let ms = edge - 3_600_000; ms <= edge + 3_600_000; ms += 61_001) {
        const e = entryOf(access({ timeMs: ms }), CHILD, {}, ZONE, NAMES);
        expect(e.time).toBe(epochMsToCompact(ms, ZONE));
      }
    }
  });

  it('issue 14: the local time is the zone\'s wall clock at any instant from 1900 to 2200, in several zones (property)', async () => {
    await assertProperty(fc.property(
      fc.integer({ min: Date.parse('1900-01-01T00:00:00Z'), max: Date.parse('2200-01-01T00:00:00Z') }),
      fc.constantFrom(ZONE, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'),
      (ms, zone) => {
        expect(entryOf(access({ timeMs: ms }), CHILD, {}, zone, NAMES).time).toBe(epochMsToCompact(ms, zone));
      },
    ), { seeds: [4311, 4312, 4313], numRuns: 2000 });
  });

  it("issue 14: a delegate's identity number is shown to that delegate and to the patient, to nobody else", () => {
    const byGuardian = access({ actorPersonId: GUARDIAN, delegation: 'guardian' });
    expect(entryOf(byGuardian, CHILD, { personId: CHILD }, ZONE, NAMES).actorPersonId).toBe(GUARDIAN);
    expect(entryOf(byGuardian, CHILD, { personId: GUARDIAN }, ZONE, NAMES).actorPersonId).toBe(GUARDIAN);
    expect(entryOf(byGuardian, CHILD, { personId: OTHER_GUARDIAN }, ZONE, NAMES).actorPersonId).toBeUndefined();
    expect(entryOf(byGuardian, CHILD, {}, ZONE, NAMES).actorPersonId).toBeUndefined();
    expect(entryOf(byGuardian, CHILD, {}, ZONE, NAMES).basis).toBe('guardian');
    for (const type of ['power-of-attorney', 'partner'] as const) {
      expect(entryOf(access({ actorPersonId: GUARDIAN, delegation: type }), CHILD, { personId: CHILD }, ZONE, NAMES))
        .toMatchObject({ basis: type, actorPersonId: GUARDIAN });
    }
  });

  it('issue 14: a refused stranger is shown as refused, with no identity number, even to the patient', () => {
    for (const delegation of ['delegation', undefined]) {
      const refused = access({ actorPersonId: STRANGER, outcome: 'denied', status: 403, ...(delegation ? { delegation } : {}) });
      const e = entryOf(refused, CHILD, { personId: CHILD }, ZONE, NAMES);
      expect(e.basis).toBe('refused');
      expect(e.outcome).toBe('denied');
      expect(JSON.stringify(e)).not.toContain(STRANGER);
    }
    // Stopped by a fault before the relationship was decided: not called refused, and still no number.
    const failed = entryOf(access({ actorPersonId: STRANGER, delegation: 'delegation', outcome: 'failed', status: 503 }), CHILD, { personId: CHILD }, ZONE, NAMES);
    expect(failed.basis).toBe('unverified');
    expect(JSON.stringify(failed)).not.toContain(STRANGER);
  });

  it('issue 14: a client token is the care provider\'s system, named by CLIENT_NAMES, else by its client id', () => {
    const kiosk = entryOf(access({ clientId: 'kiosk-1', delegation: 'client', subscription: 'checkin' }), CHILD, { personId: CHILD }, ZONE, NAMES);
    expect(kiosk).toMatchObject({ basis: 'client', clientApplication: { displayName: 'Incheckningsterminal Vårdcentralen', clientId: 'kiosk-1' } });
    const unnamed = entryOf(access({ clientId: 'other', subscription: 'checkin' }), CHILD, {}, ZONE, new Map());
    expect(unnamed.clientApplication).toEqual({ displayName: 'other', clientId: 'other' });
    expect(entryOf(access({ subscription: 'checkin' }), CHILD, {}, ZONE, new Map()).clientApplication).toEqual({ displayName: 'checkin' });
  });

  it('issue 47 item 8: one app has one name, whether it sent a subscription key (the COS API) or none (the FHIR API)', () => {
    const withKey = entryOf(access({ clientId: 'demo-integration', subscription: 'demo' }), CHILD, {}, ZONE, new Map());
    const withoutKey = entryOf(access({ clientId: 'demo-integration' }), CHILD, {}, ZONE, new Map());
    expect(withKey.clientApplication).toEqual(withoutKey.clientApplication);
    // Nor do two apps sharing one key share a name.
    const docsPage = entryOf(access({ clientId: 'api-docs', subscription: 'demo' }), CHILD, {}, ZONE, new Map());
    expect(docsPage.clientApplication.displayName).not.toBe(withKey.clientApplication.displayName);
  });

  it('issue 14: an operation the log does not know is named so, never dropped', () => {
    expect(entryOf(access({ operation: 'unknown' }), CHILD, {}, ZONE, NAMES).operationDisplayName).toEqual({ sv: 'Okänd åtgärd', en: 'Unknown action' });
    expect(entryOf(access({ operation: 'toString' }), CHILD, {}, ZONE, NAMES).operationDisplayName.en).toBe('Unknown action');
  });

  it('issue 14: SMART user/ and patient/AuditEvent.read count as user/AccessLog-read', () => {
    expect(canonicalScope('user/AuditEvent.read')).toBe('user/AccessLog-read');
    expect(canonicalScope('patient/AuditEvent.read')).toBe('user/AccessLog-read');
    expect(scopesFromClaims('patient/AuditEvent.read', undefined).has('user/AccessLog-read')).toBe(true);
  });
});

// Hostile review helper-133, F4: twenty identical check-ins, one made and nineteen refused outside the arrival
// window, were each "Genomförd / Done" in the patient's log. An entry of a write says what came of it.
describe('an access log entry of a write says what the EHR answered', () => {
  const write = (writeResult: string | undefined) => entryOf(access({
    operation: 'changeAppointment', clientId: 'kiosk-1', ...(writeResult === undefined ? {} : { writeResult }),
  }), CHILD, { personId: CHILD }, ZONE, NAMES).result;

  it('names each answer in Swedish and English, by its reason, else by its result code', () => {
    expect([write('OK ARRIVAL_REGISTERED'), write('INFO ALREADY_ARRIVED'), write('ERROR OUTSIDE_ARRIVAL_WINDOW'), write('ERROR CONTACT_NOT_FOUND')]).toEqual([
      { code: 'OK ARRIVAL_REGISTERED', displayName: { sv: 'Ankomsten registrerades', en: 'Arrival registered' } },
      { code: 'INFO ALREADY_ARRIVED', displayName: { sv: 'Ankomsten var redan registrerad', en: 'Arrival was already registered' } },
      { code: 'ERROR OUTSIDE_ARRIVAL_WINDOW', displayName: { sv: 'Ej registrerad: utanför tiden för ankomstregistrering', en: 'Not registered: outside the time for arrival registration' } },
      { code: 'ERROR CONTACT_NOT_FOUND', displayName: { sv: 'Ej registrerad: besöket hittades inte', en: 'Not registered: the appointment was not found' } },
    ]);
    expect([write('OK'), write('INFO SOMETHING_NEW'), write('ERROR')].map((r) => r?.displayName.en)).toEqual(['Done', 'Already done', 'Not done']);
    expect(write(undefined)).toBeUndefined();
    // A form a later version may write is not "Not done" (hostile review helper-138, F2: a version before UNKNOWN showed it so).
    expect([write('PENDING'), write('PENDING ARRIVAL_REGISTERED')]).toEqual(['PENDING', 'PENDING ARRIVAL_REGISTERED'].map((code) => ({
      code, displayName: { sv: 'Utfallet kan inte visas i den här versionen', en: 'This version cannot show the outcome' },
    })));
    // A write sent and not confirmed (UNCONFIRMED_WRITE_RESULT): not "Not done", which would tell a patient it was not paid.
    expect(write('UNKNOWN')).toEqual({
      code: 'UNKNOWN', displayName: { sv: 'Okänt om den registrerades: journalsystemet bekräftade den inte', en: 'Not known whether it was registered: the EHR did not confirm it' },
    });
  });
});
