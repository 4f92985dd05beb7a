/**
 * Issue 57 item 4: one read never takes the others down. A FHIR EHR whose server lacks one read's
 * search (the development FHIR server, src/dev/fhir-sim, without Condition's `recorded-date`) made
 * the whole service not ready, and every read stopped; now the service stays ready, readiness names
 * the read, the read answers 501 in the documented shapes on both doors (COS error shape,
 * OperationOutcome `not-supported`), and every other read serves. READS_OFF turns a read off per
 * region the same way, and the CapabilityStatement leaves out what only it served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { loadConfig } from '../../src/start/config.js';
import { startTestApp, startTestAppOn, type AnyTestApp, type TestApp } from '../support/test-app.js';
import { bundleOf, get, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN } from './fhir/fhir-calls.js';

/** A demo person with no relationship to Tolvan (Gösta Partnersson). */
const STRANGER = '194608632396';

const NO_SEARCH = /^getDiagnoses is not available in this region: the region's EHR does not offer the searches it needs\. Every other read is served\.$/;
const TURNED_OFF = /^getDiagnoses is not available in this region: the region has turned it off \(READS_OFF\)\. Every other read is served\.$/;

type App = TestApp | AnyTestApp;

/** The values of `pdas_read_unavailable` that are 1, as `read reason`. */
async function unavailableSeries(metrics: PrometheusMetrics): Promise<string[]> {
  const lines = (await metrics.render()).split('\n').filter((l) => l.startsWith('pdas_read_unavailable{') && l.endsWith(' 1'));
  return lines.map((l) => `${/read="([^"]+)"/.exec(l)?.[1] ?? ''} ${/reason="([^"]+)"/.exec(l)?.[1] ?? ''}`);
}

/** What both cases show: ready, the read named, 501 on both doors, and the other reads served. */
function oneReadDown(app: () => App, metrics: PrometheusMetrics, message: RegExp, named: string, reason: string) {
  it('stays ready, and readiness names the read and why, as the metrics do', async () => {
    const ready = await app().call({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', unavailableReads: { getDiagnoses: named } });
    expect(Object.keys((ready.json() as { unavailableReads: object }).unavailableReads)).toEqual(['getDiagnoses']);
    expect(await unavailableSeries(metrics)).toEqual([`getDiagnoses ${reason}`]);
  });

  it('answers the read 501 in its COS error shape, with no Retry-After, audited', async () => {
    const t = app();
    const res = await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(TOLVAN) });
    expect(res.statusCode).toBe(501);
    expect(res.headers['retry-after']).toBeUndefined();
    // Diagnoses (the vendor's operation 12) answers errors in shape 2.
    expect(res.json()).toEqual({ error: expect.stringMatching(message), path: '/patients/diagnoses/', status: 501, timestamp: expect.any(Number) });
  });

  it('answers the read\'s FHIR type 501 as an OperationOutcome not-supported', async () => {
    const t = app();
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    const issue = outcomeOf(await get(t, `/fhir/Condition?patient=${pid(TOLVAN)}`, token), 501);
    expect(issue.code).toBe('not-supported');
    expect(issue.diagnostics).toMatch(message);
  });

  it('is 501 only to a caller that may read the patient: no token is 401, a patient one may not read is 403, on both doors', async () => {
    const t = app();
    expect((await t.call({ method: 'GET', url: '/patients/diagnoses/' })).statusCode).toBe(401);
    expect((await get(t, `/fhir/Condition?patient=${pid(TOLVAN)}`)).statusCode).toBe(401);
    // Someone with no relationship to Tolvan asks for his diagnoses.
    const stranger = await t.personToken(STRANGER);
    expect((await t.call({ method: 'GET', url: '/patients/diagnoses/', token: stranger, headers: { patient: TOLVAN } })).statusCode).toBe(403);
    const theirs = await smartToken(t, STRANGER, 'user/*.read');
    expect((await get(t, `/fhir/Condition?patient=${pid(TOLVAN)}`, theirs)).statusCode).toBe(403);
  });

  it('serves every other read, on both doors', async () => {
    const t = app();
    const person = await t.personToken(TOLVAN);
    for (const url of ['/patients/journalnotes/', '/patients/appointments/', '/patients/labresults/?fromDateTime=2025-01-01T00:00:00']) {
      const res = await t.call({ method: 'GET', url, token: person });
      expect([url, res.statusCode]).toEqual([url, 200]);
    }
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    expect(matchesOf(bundleOf(await get(t, `/fhir/Observation?patient=${pid(TOLVAN)}`, token))).length).toBeGreaterThan(0);
    // The patient summary leaves the read's section out, and the document is made.
    const summary = await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, token);
    expect(summary.statusCode, summary.body.slice(0, 300)).toBe(200);
  });
}

describe('a FHIR server that lacks one read\'s search', () => {
  let t: AnyTestApp;
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  beforeAll(async () => {
    t = await startTestAppOn('fhir-r4', { now: NOW, metrics, fhirServerLacks: [{ type: 'Condition', param: 'recorded-date' }] });
  }, 60_000);
  afterAll(async () => t?.close());

  oneReadDown(() => t, metrics, NO_SEARCH, "the region's EHR does not offer the searches it needs", 'ehr-lacks-searches');
});

describe('READS_OFF', () => {
  let t: TestApp;
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, metrics, readsOff: ['getDiagnoses'] });
  }, 60_000);
  afterAll(async () => t?.close());

  oneReadDown(() => t, metrics, TURNED_OFF, 'the region has turned it off (READS_OFF)', 'turned-off');

  it('leaves out of the CapabilityStatement the types only the read served, and keeps the others', async () => {
    const res = await get(t, '/fhir/metadata');
    expect(res.statusCode).toBe(200);
    const types = (res.json() as { rest: { resource: { type: string }[] }[] }).rest[0]?.resource.map((r) => r.type) ?? [];
    expect(types).not.toContain('Condition');
    expect(types).not.toContain('Procedure');
    expect(types).toEqual(expect.arrayContaining(['Patient', 'Observation', 'Appointment', 'Encounter']));
  });

  it('is read at start: an unknown name stops the start naming it, and the patient read cannot be turned off', () => {
    expect(loadConfig({ READS_OFF: ' getDiagnoses , getVideoMeetings ' }).readsOff).toEqual(new Set(['getDiagnoses', 'getVideoMeetings']));
    expect(loadConfig({}).readsOff).toEqual(new Set());
    expect(() => loadConfig({ READS_OFF: 'getDiagnoses,getVaccinations' })).toThrow(/READS_OFF names no read "getVaccinations": the reads are .*getDiagnoses/);
    expect(() => loadConfig({ READS_OFF: 'diagnoses' })).toThrow(/READS_OFF names no read "diagnoses"/);
    expect(() => loadConfig({ READS_OFF: 'getPatient' })).toThrow(/READS_OFF cannot turn getPatient off/);
  });
});

describe('a read shared by a type', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, readsOff: ['getVideoMeetings'] });
  }, 60_000);
  afterAll(async () => t?.close());

  it('turned off, leaves the type served by the other read (an Appointment search answers the bookings)', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    const appointments = matchesOf(bundleOf(await get(t, `/fhir/Appointment?patient=${pid(TOLVAN)}`, token)));
    expect(appointments.length).toBeGreaterThan(0);
    const meetings = await t.call({ method: 'GET', url: '/patients/videomeetings/', token: await t.personToken(TOLVAN) });
    expect(meetings.statusCode).toBe(501);
  });
});

describe('a read that alone serves a referenced type', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, readsOff: ['getMedications'] });
  }, 60_000);
  afterAll(async () => t?.close());

  it('turned off, takes its Medication out of the CapabilityStatement and answers it 501, the parties served still', async () => {
    const types = ((await get(t, '/fhir/metadata')).json() as { rest: { resource: { type: string }[] }[] }).rest[0]?.resource.map((r) => r.type) ?? [];
    expect(types).not.toContain('MedicationRequest');
    expect(types).not.toContain('Medication');
    expect(types).toEqual(expect.arrayContaining(['Organization', 'Practitioner']));
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    expect(outcomeOf(await get(t, `/fhir/Medication?patient=${pid(TOLVAN)}`, token), 501).code).toBe('not-supported');
    expect(matchesOf(bundleOf(await get(t, `/fhir/Organization?patient=${pid(TOLVAN)}`, token))).length).toBeGreaterThan(0);
  });
});
