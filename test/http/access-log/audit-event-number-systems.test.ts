// An AuditEvent names each person by their number under that number's own system: a samordningsnummer
// (coordination number, 60 added to the day of birth) is not a personnummer, and an app that reads the
// system to tell them apart (or to look the person up) was told otherwise for every coordination number.
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../../src/domain/access-log/access-log-entry.js';
import { auditEvent } from '../../../src/http/access-log/fhir-audit-event.js';

const TOLVAN = '191212121212';
const GOSTA = '194608632396';
const PERSONNUMMER = 'urn:oid:1.2.752.129.2.1.3.1';
const SAMORDNINGSNUMMER = 'urn:oid:1.2.752.129.2.1.3.3';

const entry = (change: Partial<AccessLogEntry>): AccessLogEntry => ({
  time: '20261128100000', timeInUnix: Date.UTC(2026, 10, 28, 9), operation: 'grantProxy',
  operationDisplayName: { sv: 'Delning', en: 'Sharing' }, outcome: 'allowed', basis: 'self',
  clientApplication: { displayName: 'Patient app' }, requestId: '', ...change,
});

interface Named { identifier?: { system: string; value: string } }
const systemsOf = (event: Record<string, unknown>): [string | undefined, string | undefined][] => [
  ...(event.agent as { who: Named }[]).map((a) => a.who),
  ...(event.entity as { what: Named }[]).map((e) => e.what),
].filter((n) => n.identifier?.system !== undefined).map((n) => [n.identifier?.value, n.identifier?.system]);

describe('AuditEvent: each number under its own system', () => {
  it('a coordination number is a samordningsnummer, as the patient, the actor and the grantee', () => {
    expect(systemsOf(auditEvent(entry({ grantee: { identityNumber: TOLVAN } }), GOSTA))).toEqual([
      [GOSTA, SAMORDNINGSNUMMER], [GOSTA, SAMORDNINGSNUMMER], [TOLVAN, PERSONNUMMER],
    ]);
    expect(systemsOf(auditEvent(entry({ basis: 'proxy', actorPersonId: GOSTA, grantee: { identityNumber: GOSTA } }), TOLVAN))).toEqual([
      [GOSTA, SAMORDNINGSNUMMER], [TOLVAN, PERSONNUMMER], [GOSTA, SAMORDNINGSNUMMER],
    ]);
  });
});
