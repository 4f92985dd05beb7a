/**
 * Issue 44 item 3 (docs/fhir-api.md#the-same-rules-as-the-cos-api, the audit): a request's records
 * name exactly the people it read. A Patient listing (`_id`, or everyone the token reaches) leaves one
 * record per person read, a listing of one too; a person left out (guardianship ended, a protected
 * identity, out of a `patient/` scope's reach) is named by none, and a listing that read nobody, or a
 * request naming a Patient id this service never made, leaves one record naming nobody: not the person
 * refused, and not the caller instead. So a patient's access log (COS and AuditEvent alike) shows
 * exactly the requests that read their record or were refused it by name.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { DEMO_PEOPLE, personMayAct } from '../../security/support/oracles.js';
import { FHIR_READ_ROUTES, FHIR_SEARCH_ROUTES, fhirRequest, flipped, MADE_UP_ID } from '../../security/support/fhir-routes.js';
import { ANTON, bundleOf, get, LILLA, MARTA, matchesOf, NOW, pid, SARA, smartToken, TOLVAN, type Resource } from './fhir-calls.js';

const requestIdOf = (res: LightMyRequestResponse): string => String(res.headers['x-request-id']);
const PATIENT_SEARCHES = FHIR_SEARCH_ROUTES.filter((r) => r.type === 'Patient');

describe('issue 44 item 3: a request\'s audit records name the people it read, and nobody else', () => {
  let t: TestApp;
  let userWide: string;
  let launchOnly: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    userWide = await smartToken(t, MARTA, 'user/*.rs');
    launchOnly = await smartToken(t, MARTA, 'patient/*.read');
  }, 60_000);
  afterAll(async () => t.close());

  /** The answer of a call and the records it left, as [patientId, outcome, delegation]. */
  async function recordsOf(token: string, options: ReturnType<typeof fhirRequest>): Promise<{ res: LightMyRequestResponse; rows: unknown[][]; records: AuditRecord[] }> {
    const before = t.audit.records.length;
    const res = await t.call({ ...options, token, key: null });
    const records = t.audit.records.slice(before);
    expect(records.map((r) => r.requestId)).toEqual(records.map(() => requestIdOf(res)));
    return { res, records, rows: records.map((r) => [r.patientId, r.outcome, r.delegation]) };
  }

  /** Whether a person's own access log, read as AuditEvents with their own token, shows the request. */
  async function inLogOf(person: string, requestId: string): Promise<boolean> {
    const log = bundleOf(await get(t, '/fhir/AuditEvent?_count=500', await smartToken(t, person, 'patient/*.read')));
    return JSON.stringify(matchesOf(log)).includes(requestId);
  }

  it('records a Patient?_id of someone left out as a request that read nobody, in nobody\'s access log, under user/ and patient/ scopes', async () => {
    for (const route of PATIENT_SEARCHES) {
      for (const [token, who] of [[userWide, ANTON], [userWide, SARA], [launchOnly, ANTON], [launchOnly, LILLA], [launchOnly, TOLVAN]] as const) {
        const label = `${route.label} _id=<${who}> ${token === userWide ? 'user/' : 'patient/'}`;
        const { res, rows } = await recordsOf(token, fhirRequest(route, { params: [['_id', pid(who)]] }));
        expect([label, res.statusCode, matchesOf(bundleOf(res))]).toEqual([label, 200, []]);
        expect([label, rows]).toEqual([label, [[undefined, 'allowed', undefined]]]);
        for (const person of [who, MARTA]) expect([label, person, await inLogOf(person, requestIdOf(res))]).toEqual([label, person, false]);
      }
    }
  });

  it('records a listing of one person read as that person\'s, and of several as one record each, naming none left out', async () => {
    for (const route of PATIENT_SEARCHES) {
      const one = await recordsOf(userWide, fhirRequest(route, { params: [['_id', pid(LILLA)]] }));
      expect([route.label, one.rows]).toEqual([route.label, [[LILLA, 'allowed', 'guardian']]]);
      expect(await inLogOf(LILLA, requestIdOf(one.res))).toBe(true);
      const own = await recordsOf(launchOnly, fhirRequest(route, { params: [['_id', pid(MARTA)]] }));
      expect([route.label, own.rows]).toEqual([route.label, [[MARTA, 'allowed', 'self']]]);
      const mixed = await recordsOf(userWide, fhirRequest(route, { params: [['_id', [pid(ANTON), pid(LILLA), pid(SARA), MADE_UP_ID].join(',')]] }));
      expect([route.label, mixed.rows, matchesOf(bundleOf(mixed.res)).map((r: Resource) => r.id)]).toEqual([route.label, [[LILLA, 'allowed', 'guardian']], [pid(LILLA)]]);
      for (const person of [ANTON, SARA]) expect(await inLogOf(person, requestIdOf(mixed.res))).toBe(false);
    }
  });

  it('records a search or a read naming a Patient id this service never made as about nobody, on every type, not as the caller\'s', async () => {
    for (const route of FHIR_SEARCH_ROUTES) {
      const params: Array<[string, string]> = route.type === 'Patient' ? [['_id', flipped(pid(MARTA))]] : [['patient', flipped(pid(MARTA))]];
      for (const token of [userWide, launchOnly]) {
        const { res, rows } = await recordsOf(token, fhirRequest(route, { params }));
        expect([route.label, res.statusCode]).toEqual([route.label, route.type === 'Patient' ? 200 : 403]);
        expect([route.label, rows]).toEqual([route.label, [[undefined, route.type === 'Patient' ? 'allowed' : 'denied', undefined]]]);
        expect(await inLogOf(MARTA, requestIdOf(res))).toBe(false);
      }
    }
    for (const route of FHIR_READ_ROUTES) {
      const options = route.type === 'Patient' ? { id: flipped(pid(MARTA)) } : { id: MADE_UP_ID, query: [['patient', flipped(pid(MARTA))]] as Array<[string, string]> };
      const { res, rows } = await recordsOf(userWide, fhirRequest(route, options));
      expect([route.label, res.statusCode, rows]).toEqual([route.label, 404, [[undefined, 'denied', undefined]]]);
    }
  });

  it('still names the person a search by their id was refused for, and the caller\'s own listing', async () => {
    const refused = await recordsOf(userWide, fhirRequest(FHIR_SEARCH_ROUTES.find((r) => r.type === 'Condition') as (typeof FHIR_SEARCH_ROUTES)[number], { params: [['patient', pid(ANTON)]] }));
    expect([refused.res.statusCode, refused.rows.map((r) => r.slice(0, 2))]).toEqual([403, [[ANTON, 'denied']]]);
    const everyone = await recordsOf(userWide, fhirRequest(PATIENT_SEARCHES[0] as (typeof FHIR_SEARCH_ROUTES)[number]));
    expect(everyone.rows.map((r) => r[0]).sort()).toEqual(DEMO_PEOPLE.filter((p) => personMayAct(MARTA, p)).sort());
  });
});
