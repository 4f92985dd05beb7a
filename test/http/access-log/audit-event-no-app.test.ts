// Newcomer walk-through helper-214, F1: an entry that came through no app (support's revoke with `npm run proxies`,
// a grant's time running out) named its application "unknown", an English word the patient app showed in Swedish too.
import { describe, expect, it } from 'vitest';
import { entryOf } from '../../../src/domain/access-log/access-log-entry.js';
import { auditEvent } from '../../../src/http/access-log/fhir-audit-event.js';
import type { LoggedAccess } from '../../../src/ports/access-log.port.js';

const ZONE = 'Europe/Stockholm';
const MARTA = '198112189876';
const access = (over: Partial<LoggedAccess>): LoggedAccess => ({
  timeMs: Date.UTC(2026, 11, 2, 7), requestId: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42', operation: 'revokeProxy', outcome: 'allowed', status: 200, ...over,
});
const applicationOf = (a: LoggedAccess): unknown[] => {
  const e = entryOf(a, MARTA, { personId: MARTA }, ZONE, new Map());
  const agent = (auditEvent(e, MARTA) as { agent: { requestor?: boolean; who?: { display?: string; _display?: unknown } }[] }).agent.find((g) => g.requestor !== true);
  return [e.clientApplication, agent?.who?.display, agent?.who?._display];
};
const translated = (sv: string, en: string) => ({
  extension: [['sv', sv], ['en', en]].map(([lang, content]) => ({
    url: 'http://hl7.org/fhir/StructureDefinition/translation',
    extension: [{ url: 'lang', valueCode: lang }, { url: 'content', valueString: content }],
  })),
});

describe('an access that came through no app is named so, in both languages', () => {
  it('names support\'s tool and the service\'s own doing as the service\'s own tool', () => {
    for (const delegation of ['support', 'service']) {
      expect(applicationOf(access({ delegation }))).toEqual([
        { displayName: 'Tjänstens eget verktyg' }, 'Tjänstens eget verktyg', translated('Tjänstens eget verktyg', "The service's own tool"),
      ]);
    }
  });

  it('names an app it cannot name as an unknown app, never by an English word alone', () => {
    expect(applicationOf(access({ actorPersonId: MARTA, operation: 'getJournalNotes' }))).toEqual([
      { displayName: 'Okänd app' }, 'Okänd app', translated('Okänd app', 'Unknown app'),
    ]);
  });

  it('still names an app by its client id or subscription', () => {
    expect(applicationOf(access({ actorPersonId: MARTA, operation: 'getJournalNotes', clientId: 'patient-app' }))[0]).toEqual({ displayName: 'patient-app', clientId: 'patient-app' });
    expect(applicationOf(access({ actorPersonId: MARTA, operation: 'getJournalNotes', subscription: 'vardapp' }))[0]).toEqual({ displayName: 'vardapp' });
  });
});
