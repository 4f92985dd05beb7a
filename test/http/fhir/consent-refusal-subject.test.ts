/**
 * docs/fhir-api.md#scopes on the Consent routes: a refusal before the route named anyone is recorded under
 * the patient its one `patient` parameter names, and one about the launch patient, named by the token's own
 * id, carries the basis the caller would be let act for them on now, as the same person's refused read of
 * them does. Without a parameter a Consent request is about the caller's own grants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { isAttempt, type AuditRecord } from '../../../src/ports/audit-trail.port.js';
import type { TestApp } from '../../support/test-app.js';
import { activeGrant, ANTON, get, LILLA, MARTA, pid, smartToken, startWithSharing } from './fhir-calls.js';

describe('whose log a refused Consent request is in', () => {
  let t: TestApp;
  let grants: ProxyGrants;
  /** Märta's app opened for Anton, who shares his bookings with her. */
  let forAnton: string;
  beforeAll(async () => {
    ({ t, grants } = await startWithSharing());
    await activeGrant(grants, ANTON, MARTA, ['Appointment']);
    forAnton = await smartToken(t, MARTA, 'patient/Consent.crs patient/Composition.rs patient/Appointment.rs', { smart_patient: pid(ANTON) });
  }, 60_000);
  afterAll(async () => t.close());

  const recordOf = async (url: string): Promise<[number, unknown[]]> => {
    const from = t.audit.records.length;
    const { statusCode } = await get(t, url, forAnton);
    const outcomes = t.audit.records.slice(from).filter((r) => !isAttempt(r));
    expect(outcomes).toHaveLength(1);
    const r = outcomes[0] as AuditRecord;
    return [statusCode, [r.operation, r.actor?.personId, r.patientId, r.delegation, r.outcome]];
  };

  // Hostile review helper-206, F1: recorded in Märta's own log as `self`, where her refused read of Anton is in
  // his, as his proxy, and the COS door's refusal of the same list is too. Failed before: [MARTA, 'self'].
  it('names the launch patient its `patient` names, on the basis her refused read of him has', async () => {
    const [readStatus, read] = await recordOf(`/fhir/Composition?patient=${pid(ANTON)}`);
    expect([readStatus, read]).toEqual([403, ['getJournalNotes', MARTA, ANTON, 'proxy', 'denied']]);
    const [status, record] = await recordOf(`/fhir/Consent?patient=${pid(ANTON)}`);
    expect([status, record]).toEqual([403, ['listProxies', MARTA, ANTON, 'proxy', 'denied']]);
  });

  it('names the caller, as herself, where no parameter names anyone: her own grants', async () => {
    const [status, record] = await recordOf('/fhir/Consent');
    expect([status, record]).toEqual([403, ['listProxies', MARTA, MARTA, 'self', 'denied']]);
  });

  // Hostile review helper-207, F1: a creation serves no `patient` parameter, and makes a grant of the caller's whatever
  // one says; refused for its scope, it was recorded in the log of whomever `?patient=` named (Lilla, as a refused
  // stranger), and with the scope it made Märta's own. Failed before: [LILLA, undefined].
  it('names the caller of a refused creation, whatever a parameter the route does not serve names', async () => {
    const own = await smartToken(t, MARTA, 'patient/Consent.rs', { smart_patient: pid(MARTA) });
    for (const [token, url] of [[own, `/fhir/Consent?patient=${pid(LILLA)}`], [forAnton, `/fhir/Consent?patient=${pid(ANTON)}`]] as const) {
      const from = t.audit.records.length;
      const res = await t.call({ method: 'POST', url, key: null, token, headers: { 'content-type': 'application/fhir+json' }, payload: '{"resourceType":"Consent"}' });
      const records = t.audit.records.slice(from).map((r) => [r.operation, isAttempt(r), r.actor?.personId, r.patientId, r.delegation, r.outcome]);
      expect([url, res.statusCode, records]).toEqual([url, 403, [['grantProxy', false, MARTA, MARTA, 'self', 'denied']]]);
    }
  });

  // Hostile review helper-208, F1: refused before the route ran (the answer's format, the body's media type, size or
  // syntax), a creation's record followed `?patient=` into Lilla's, Anton's or a protected person's log as a refused
  // stranger's attempt to share their record; a Subscription's did too (helper-207, F2). Neither route serves `patient`.
  // Failed before: [LILLA, undefined] for each.
  it('names the caller of a creation or a Subscription refused before its route ran, whatever `patient` says', async () => {
    const own = await smartToken(t, MARTA, 'patient/Consent.crs patient/Consent.cud patient/Subscription.cd patient/Subscription.rs patient/*.rs', { smart_patient: pid(MARTA) });
    const asked = [
      ['POST', `/fhir/Consent?patient=${pid(LILLA)}`, { accept: 'text/html', 'content-type': 'application/fhir+json' }, '{"resourceType":"Consent"}', 406],
      ['POST', `/fhir/Consent?patient=${pid(LILLA)}`, { 'content-type': 'text/plain' }, 'a', 415],
      ['POST', `/fhir/Consent?patient=${pid(LILLA)}`, { 'content-type': 'application/fhir+json' }, '{"resourceType":', 400],
      ['POST', `/fhir/Subscription?patient=${pid(LILLA)}`, { accept: 'text/html', 'content-type': 'application/fhir+json' }, '{}', 406],
      ['GET', `/fhir/Subscription?patient=${pid(LILLA)}`, {}, undefined, 400],
    ] as const;
    for (const [method, url, headers, payload, expected] of asked) {
      const from = t.audit.records.length;
      const res = await t.call({ method, url, key: null, token: own, headers, ...(payload === undefined ? {} : { payload }) });
      const records = t.audit.records.slice(from).map((r) => [r.actor?.personId, r.patientId, r.delegation, r.outcome]);
      expect([method, url, res.statusCode, records]).toEqual([method, url, expected, [[MARTA, MARTA, 'self', 'denied']]]);
    }
  });

  // Hostile review helper-209, F1: naming the caller by her own id took her basis as `self` on every route, though an
  // app opened for Anton with patient/ scopes does not reach her (docs/fhir-api.md#scopes: none where the scopes do
  // not reach). Failed with 1d65362d: 'self'.
  it('gives a read naming the caller, from an app opened for someone else, no basis: its scopes do not reach her', async () => {
    const [status, record] = await recordOf(`/fhir/Composition?patient=${pid(MARTA)}`);
    expect([status, record]).toEqual([403, ['getJournalNotes', MARTA, MARTA, undefined, 'denied']]);
  });
});
