/**
 * Issue 12 item 3: a fault in one patient's document is that request's 502, never a reason to stop
 * serving everyone. Through the service as `npm start` composes it (EHR_ADAPTER=xml-http, breaker
 * threshold 5): ten bad answers in a row for one patient, each its own 502, and another patient is
 * served right after.
 */
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, MIB, ROUTES } from './support/expectations.js';
import { ADULT, startHostileApp, type HostileApp } from './support/hostile-app.js';

const XML = 'application/xml; charset=utf-8';
const OTHER = '198112189876';
const ROUTE = ROUTES[0] as (typeof ROUTES)[number];
const TIMES = 10;

describe('issue 12 item 3: one patient\'s document never trips the breaker for everyone', () => {
  let app: HostileApp;
  beforeAll(async () => {
    app = await startHostileApp();
  });
  afterEach(() => {
    app.sim.faults.clear();
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * `bad` ten times in a row gets 502 each time (an open breaker would answer 503 from the sixth on),
   * and then `good` is served: nothing in between resets the breaker's count of consecutive failures.
   */
  async function expectContained(bad: string, good: string, label: string): Promise<void> {
    const logFrom = app.logLines.length;
    for (let i = 0; i < TIMES; i++) expectRefusal(ROUTE, 502, await app.getAs(bad, ROUTE.url), `${label}, ${i + 1}. time in a row`);
    const served = await app.getAs(good, ROUTE.url);
    expect([label, served.status], served.body.slice(0, 200)).toEqual([label, 200]);
    expect(app.logLines.slice(logFrom).filter((line) => line.includes('breaker-open')), label).toEqual([]);
  }

  // Every route reads the patient's own patient document first (a success that would reset the
  // breaker's count), so the faulty document here is that one.
  const PATIENT_DOCUMENT = (id: string): RegExp => new RegExp(`/patients/${id}/patient$`);

  it('issue 12 item 3: one patient\'s malformed document ten times in a row: that patient 502 each time, another patient 200, breaker closed', async () => {
    const malformed = '<?xml version="1.0"?><PatientRecords xmlns="urn:example:ehr:patient:3"><PatientRecord><unclosed></PatientRecord></PatientRecords>';
    app.sim.faults.status(200, malformed, XML, { path: PATIENT_DOCUMENT(ADULT) });
    await expectContained(ADULT, OTHER, 'malformed document');
  });

  it('issue 12 item 3: another patient\'s record in one patient\'s answer, ten times in a row: 502 for that patient alone, breaker closed', async () => {
    const adults = await request(`${app.sim.url}/ehr/v1/patients/${ADULT}/patient`, { signal: AbortSignal.timeout(5000) });
    app.sim.faults.status(200, await adults.body.text(), XML, { path: PATIENT_DOCUMENT(OTHER) });
    await expectContained(OTHER, ADULT, 'record of another patient');
  });

  it('issue 12 item 3: a body over the cap for one patient, ten times in a row: 502 for that patient alone, breaker closed', async () => {
    app.sim.faults.oversized(11 * MIB, { declareLength: true, path: PATIENT_DOCUMENT(ADULT) });
    await expectContained(ADULT, OTHER, 'body over the cap');
  });
});
