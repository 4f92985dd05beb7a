/**
 * docs/contract.md#the-patients-access-log on the FHIR door's Subscriptions: a refused Subscription is named in the
 * patient's log on the basis the same person's refused read of them is, so the patient learns who tried to
 * follow their record. `refused` (no basis) is kept for those whose right to act for the patient was not
 * established: a stranger, a delegate of a protected person.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAttempt, type AuditRecord } from '../../../src/ports/audit-trail.port.js';
import type { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import type { TestApp } from '../../support/test-app.js';
import { activeGrant, ANTON, get, MARTA, pid, revokeAllOf, smartToken, startWithSharing, TOLVAN } from './fhir-calls.js';
import { post, subscription, USER_SCOPES } from './subscription-calls.js';

const OPERATIONS: Readonly<Record<string, string>> = {
  'journal-note': 'subscribeJournalNote', access: 'subscribeAccess', proxy: 'subscribeProxy', appointment: 'subscribeAppointment',
};

describe('a refused Subscription is named as the same person\'s refused read is', () => {
  let t: TestApp;
  let grants: ProxyGrants;
  let anton: string;
  let marta: string;
  beforeAll(async () => {
    ({ t, grants } = await startWithSharing());
    anton = await smartToken(t, ANTON, `${USER_SCOPES} user/AuditEvent.rs`);
    marta = await smartToken(t, MARTA, `${USER_SCOPES} user/AuditEvent.rs user/Consent.rs`);
  }, 60_000);
  afterAll(async () => t.close());
  afterEach(async () => revokeAllOf(grants, TOLVAN));

  /** The one outcome record `call` left: who, for whom, on what basis, and the answer. */
  const recordOf = async (call: () => Promise<{ statusCode: number }>): Promise<[number, AuditRecord | undefined]> => {
    const from = t.audit.records.length;
    const { statusCode } = await call();
    const outcomes = t.audit.records.slice(from).filter((r) => !isAttempt(r));
    expect(outcomes).toHaveLength(1);
    return [statusCode, outcomes[0]];
  };
  const named = (r: AuditRecord | undefined) => [r?.actor?.personId, r?.patientId, r?.delegation, r?.outcome];

  // Hostile review helper-205, F1: the refused read named Anton as Tolvan's proxy, the refused Subscription
  // named nobody ("refused", no actor), so Tolvan never learnt his proxy had tried to follow his notes.
  // Failed before: the Subscription's records had no delegation.
  it('names a proxy whose grant does not reach the topic as the proxy, as his refused read of it is', async () => {
    await activeGrant(grants, TOLVAN, ANTON, ['Appointment']);
    const [readStatus, read] = await recordOf(() => get(t, `/fhir/Composition?patient=${pid(TOLVAN)}`, anton));
    expect([readStatus, ...named(read)]).toEqual([403, ANTON, TOLVAN, 'proxy', 'denied']);
    for (const topic of ['journal-note', 'access']) {
      const [status, record] = await recordOf(() => post(t, subscription({ topic, patient: TOLVAN }), anton));
      expect([topic, status, record?.operation, ...named(record)]).toEqual([topic, 403, OPERATIONS[topic], ...named(read)]);
    }
    // The grant's own topic is taken, on the same basis.
    const [status, record] = await recordOf(() => post(t, subscription({ topic: 'appointment', patient: TOLVAN }), anton));
    expect([status, ...named(record)]).toEqual([201, ANTON, TOLVAN, 'proxy', 'allowed']);
  });

  it('names a registry delegate refused a topic only the patient may follow on her relationship', async () => {
    const [readStatus, read] = await recordOf(() => get(t, `/fhir/Appointment?patient=${pid(TOLVAN)}`, marta));
    expect(readStatus).toBe(200);
    const basis = read?.delegation;
    expect(['self', 'proxy', undefined]).not.toContain(basis);
    const [status, record] = await recordOf(() => post(t, subscription({ topic: 'proxy', patient: TOLVAN }), marta));
    expect([status, record?.operation, ...named(record)]).toEqual([403, 'subscribeProxy', MARTA, TOLVAN, basis, 'denied']);
  });

  it('names no basis for one whose right to act for the patient was never established', async () => {
    // A read records the basis it was about to ask for (`delegation`), a Subscription none: either is shown as `refused`.
    const [readStatus, read] = await recordOf(() => get(t, `/fhir/Composition?patient=${pid(TOLVAN)}`, anton));
    expect([readStatus, read?.delegation]).toEqual([403, 'delegation']);
    for (const topic of ['journal-note', 'access', 'proxy']) {
      const [status, record] = await recordOf(() => post(t, subscription({ topic, patient: TOLVAN }), anton));
      expect([topic, status, record?.delegation, record?.outcome]).toEqual([topic, 403, undefined, 'denied']);
    }
  });
});
