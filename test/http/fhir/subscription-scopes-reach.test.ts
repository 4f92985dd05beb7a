/**
 * docs/notifications.md#checked-at-sending: at sending, the scopes the app's grant holds then must
 * still allow making the subscription (its Subscription scope and its topic's read, for its patient),
 * as the FHIR door asked when it was made; a new consent may have narrowed them (hostile review,
 * helper-77: a narrowed app went on being told of a child's access log).
 */
import { describe, expect, it } from 'vitest';
import type { StoredSubscription } from '../../../src/domain/notifications/subscription.js';
import type { TopicName } from '../../../src/domain/notifications/topics.js';
import { scopesReachTopic } from '../../../src/http/fhir/subscription-caller.js';
import { testFhirApi } from '../../support/test-app.js';
import { LILLA, MARTA, pid, TOLVAN } from './fhir-calls.js';

const reach = scopesReachTopic(testFhirApi());
const made = (person: string, patient: string, topic: TopicName, smartPatient?: string): StoredSubscription => ({
  subscriber: { issuer: 'iss', subject: 'sub', personId: person, clientId: 'app', grantId: 'g', ...(smartPatient === undefined ? {} : { smartPatient }) },
  patient, topic,
} as StoredSubscription);
const scopes = (...s: string[]): ReadonlySet<string> => new Set(['openid', 'launch/patient', ...s]);

describe('the scopes a grant holds at sending, against what making the subscription took', () => {
  it('a person\'s own lab results: the Subscription scope and a read of DiagnosticReport, in either form', () => {
    const own = made(TOLVAN, TOLVAN, 'lab-result');
    expect(reach(own, scopes('patient/Subscription.c', 'patient/DiagnosticReport.rs'))).toBe(true);
    expect(reach(own, scopes('user/Subscription.write', 'user/*.rs'))).toBe(true);
    expect(reach(own, scopes('user/Subscription.write', 'user/LabResult-read'))).toBe(true);
    // Narrowed: the topic's read gone, or the Subscription scope gone (only reading them is no longer being told).
    expect(reach(own, scopes('patient/Subscription.c', 'patient/Observation.rs'))).toBe(false);
    expect(reach(own, scopes('patient/Subscription.rs', 'patient/DiagnosticReport.rs'))).toBe(false);
    // A category-restricted read does not reach a topic that names every record of its type.
    expect(reach(own, scopes('patient/Subscription.c', 'patient/DiagnosticReport.rs?category=LAB'))).toBe(false);
  });

  it('a guardian\'s subscription to her child: user/ scopes reach the child; patient/ ones only the launch patient', () => {
    const forChild = made(MARTA, LILLA, 'access');
    expect(reach(forChild, scopes('user/Subscription.write', 'user/AuditEvent.rs'))).toBe(true);
    // Consented again for herself with patient/ scopes: they reach her own record alone.
    expect(reach(forChild, scopes('patient/Subscription.c', 'patient/AuditEvent.rs'))).toBe(false);
    // Launched on the child, patient/ scopes reach her.
    expect(reach(made(MARTA, LILLA, 'access', pid(LILLA)), scopes('patient/Subscription.c', 'patient/AuditEvent.rs'))).toBe(true);
  });

  // Hostile review helper-90, 1: a read's API scope grants its own records of a type, so the bookings' scope
  // alone would follow the video meetings too (both are Appointment). Failed before: true for each alone.
  it('the appointments topic, which tells of bookings and video meetings alike, needs a scope of both', () => {
    const appointments = made(TOLVAN, TOLVAN, 'appointment');
    expect(reach(appointments, scopes('user/Subscription.write', 'user/Appointment-read'))).toBe(false);
    expect(reach(appointments, scopes('user/Subscription.write', 'user/VideoMeeting-read'))).toBe(false);
    expect(reach(appointments, scopes('user/Subscription.write', 'user/Appointment-read', 'user/VideoMeeting-read'))).toBe(true);
    expect(reach(appointments, scopes('patient/Subscription.c', 'patient/Appointment.rs'))).toBe(true);
  });

  // Hostile review helper-143, F5: being told of every new record of a type is a search: a scope that reads by id alone
  // (`.r`) let an app subscribe, and learn by its notifications what it could not search for.
  it('needs a search of the topic\'s type, never a read by id alone', () => {
    const own = made(TOLVAN, TOLVAN, 'lab-result');
    for (const read of ['patient/DiagnosticReport.r', 'user/LabResult.r', 'patient/*.r']) expect([read, reach(own, scopes('patient/Subscription.c', read))]).toEqual([read, false]);
    for (const search of ['patient/DiagnosticReport.s', 'user/LabResult.s', 'patient/*.s']) expect([search, reach(own, scopes('patient/Subscription.c', search))]).toEqual([search, true]);
    expect(reach(made(TOLVAN, TOLVAN, 'access'), scopes('patient/Subscription.c', 'patient/AuditEvent.r'))).toBe(false);
    expect(reach(made(TOLVAN, TOLVAN, 'proxy'), scopes('patient/Subscription.c', 'patient/Consent.r'))).toBe(false);
    expect(reach(made(TOLVAN, TOLVAN, 'proxy'), scopes('patient/Subscription.c', 'patient/Consent.s'))).toBe(true);
  });

  it('the sharing topic needs the Consent read still', () => {
    const sharing = made(TOLVAN, TOLVAN, 'proxy');
    expect(reach(sharing, scopes('patient/Subscription.c', 'user/Consent.read'))).toBe(true);
    expect(reach(sharing, scopes('patient/Subscription.c', 'patient/*.rs'))).toBe(false);
  });
});
