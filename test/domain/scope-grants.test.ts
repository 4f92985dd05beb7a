/**
 * What a token's scopes grant, one meaning for both doors (src/domain/access/scope-grants.ts), without
 * HTTP: the COS door answers a read where the grants show every record it answers, of each of its
 * types, or where a spelling counts as its scope; the FHIR door's grants are the same list.
 */
import { describe, expect, it } from 'vitest';
import { ScopeGrants } from '../../src/domain/access/scope-grants.js';
import type { OperationName } from '../../src/domain/operations/table.js';

/** The types as the reads' forms write them (two reads of Appointment, one read of two types). */
const TYPES: Partial<Record<OperationName, readonly string[]>> = {
  getAppointments: ['Appointment'], getVideoMeetings: ['Appointment'], getLabResults: ['DiagnosticReport', 'Observation'],
  getJournalNotes: ['Composition'], getAttentionSignals: ['AllergyIntolerance', 'Flag'], getAccessLog: ['AuditEvent'],
};
const grants = new ScopeGrants((op) => TYPES[op] ?? []);
const PERSON = { personId: '191212121212' };
const CLIENT = {};
const contexts = (scopes: string, op: OperationName, holder: { personId?: string } = PERSON): string[] =>
  [...grants.operationContexts(scopes.split(' '), op, holder)].sort();

describe('ScopeGrants.operationContexts: the COS door', () => {
  it('opens a read where the grants search every type it writes, in the context the scope names', () => {
    expect(contexts('patient/DiagnosticReport.rs patient/Observation.s', 'getLabResults')).toEqual(['patient']);
    expect(contexts('user/DiagnosticReport.s user/Observation.read', 'getLabResults')).toEqual(['user']);
    expect(contexts('patient/AllergyIntolerance.rs user/Flag.rs', 'getAttentionSignals')).toEqual([]);
    expect(contexts('patient/AllergyIntolerance.rs', 'getAttentionSignals')).toEqual([]);
    expect(contexts('patient/*.rs', 'getAccessLog')).toEqual(['patient']);
    expect(contexts('system/*.s', 'getJournalNotes', CLIENT)).toEqual(['system']);
  });

  it('does not open a read with a scope that cannot search, restricts a category or reads another type', () => {
    for (const scopes of ['patient/Composition.r', 'patient/Composition.cud', 'patient/Composition.s?category=x|y', 'patient/Encounter.rs', 'patient/*.write']) {
      expect([scopes, contexts(scopes, 'getJournalNotes')]).toEqual([scopes, []]);
    }
  });

  it('reads a v2 form that searches as its v1 form, so a vendor\'s spelling counts in either', () => {
    expect(contexts('patient/Observation.rs', 'getLabResults')).toEqual(['patient']);
    expect(contexts('patient/Observation.s', 'getLabResults')).toEqual(['patient']);
    expect(contexts('patient/Observation.r', 'getLabResults')).toEqual([]);
    expect(contexts('patient/Observation.rs?category=a|b', 'getLabResults')).toEqual([]);
    // A v2 form counts in the context it names: user/ is a person's, so for a client token it reaches nobody (helper-142, F3).
    expect(contexts('user/Observation.rs', 'getLabResults', CLIENT)).toEqual(['user']);
    expect(contexts('user/Observation.read', 'getLabResults', CLIENT)).toEqual(['system']);
    expect(contexts('user/AuditEvent.rs', 'getAccessLog', CLIENT)).toEqual(['user']);
  });

  it('counts a COS scope\'s v2 spelling only where it searches: read by id alone answers no COS read', () => {
    expect(contexts('user/JournalNote.s', 'getJournalNotes')).toEqual(['user']);
    expect(contexts('user/JournalNote.r', 'getJournalNotes')).toEqual([]);
    expect(contexts('user/JournalNote.rs', 'getJournalNotes', CLIENT)).toEqual(['user']);
  });

  it('keeps a COS scope to its own read: the bookings\' scope never opens the video meetings, a SMART Appointment scope both', () => {
    expect(contexts('user/Appointment-read', 'getVideoMeetings')).toEqual([]);
    expect(contexts('user/Appointment-read', 'getAppointments')).toEqual(['user']);
    expect(contexts('patient/Appointment.rs', 'getVideoMeetings')).toEqual(['patient']);
  });

  it('leaves writes and sharing to their spellings: a v2 form of another letter, or a read\'s, never counts as a write', () => {
    expect(contexts('patient/Appointment.cruds', 'changeAppointment')).toEqual([]);
    expect(contexts('patient/*.cruds', 'registerPayment')).toEqual([]);
    expect(contexts('patient/Appointment.write', 'changeAppointment')).toEqual(['patient']);
    expect(contexts('patient/Consent.rs', 'listProxies')).toEqual(['patient']);
    expect(contexts('user/Consent.read', 'listProxies')).toEqual(['user']);
    // Sharing counts in the spellings its scopes list alone (hostile review helper-142, F1).
    for (const scopes of ['user/Consent.s', 'user/Consent.rs', 'user/Consent.cruds', 'user/Proxy.s', 'patient/Proxy.rs', 'user/Proxy.cruds']) {
      expect([scopes, contexts(scopes, 'listProxies'), contexts(scopes, 'grantProxy')]).toEqual([scopes, [], []]);
    }
  });
});

describe('ScopeGrants.grantsOf: the FHIR door', () => {
  const types = (scopes: string, holder: 'user' | 'system' = 'user') =>
    grants.grantsOf(scopes.split(' '), holder).map((g) => `${g.context}:${g.type}${g.read === undefined ? '' : `@${g.read}`}`).sort();

  it('gives a COS scope\'s SMART spelling the read\'s types, restricted to the read, in the spelling\'s context', () => {
    expect(types('patient/JournalNote.read')).toEqual(['patient:Composition@getJournalNotes', 'patient:JournalNote']);
    expect(types('user/JournalNote.rs')).toEqual(['user:Composition@getJournalNotes', 'user:JournalNote']);
    expect(types('user/JournalNote.read', 'system')).toEqual(['system:Composition@getJournalNotes', 'user:JournalNote']);
    expect(types('user/AccessLog-read')).toEqual(['user:AuditEvent']);
  });

  it('grants a v2 spelling of a COS scope what its letters say, and a user/ one in user/ for a client too', () => {
    const letters = (scope: string, holder: 'user' | 'system' = 'user') => grants.grantsOf([scope], holder)
      .filter((g) => g.type === 'Composition').map((g) => `${g.context}:${[...g.interactions].sort().join('+')}`);
    expect(letters('user/JournalNote.s')).toEqual(['user:search']);
    expect(letters('user/JournalNote.r')).toEqual(['user:read']);
    expect(letters('user/JournalNote.rs', 'system')).toEqual(['user:read+search']);
    expect(letters('user/JournalNote.read', 'system')).toEqual(['system:read+search']);
  });

  it('reads a SMART scope of a type a read writes as that type alone, the vendor\'s spellings too', () => {
    expect(types('patient/Observation.read')).toEqual(['patient:Observation']);
    expect(types('patient/AuditEvent.rs')).toEqual(['patient:AuditEvent']);
    expect(types('patient/Appointment.read')).toEqual(['patient:Appointment']);
  });
});
