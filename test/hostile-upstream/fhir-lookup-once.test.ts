/**
 * One identity lookup per API request over FHIR (docs/upstream-fhir.md#one-lookup-per-request): the
 * Patient the access check found is the one the read, and the protection mark, are about. A proxy in
 * front of the development FHIR server plays an EHR in the middle of a merge: the first lookup of
 * Tolve's number answers Tolve, every later one answers Nora (protected), who carries his number too.
 * Tolvan, Tolve's guardian, asks for Tolve's video meetings through the real app (EHR_ADAPTER=fhir-r4):
 * he never gets Nora's meeting link, and every request (a read, an arrival, a payment) looks the
 * patient up once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { demoResources, TOLVAN, type RawResource } from '../adapters/ehr-fhir/support/demo-bundle.js';
import { fhirReply, type FhirProxy, type Seen } from '../adapters/ehr-fhir/support/fhir-proxy.js';

const TOLVE = '201212121212';
/** Her meeting's link, and every other trace of her. */
const HER = /NORA-ONLY|pat-nora|200404122384|Skyddad uppgift/;
/** When appt-0001 (Tolvan's) is in its arrival window, and the demo's 2027 video meetings lie ahead. */
const BEFORE_START = Date.parse('2026-12-14T08:00:00Z');
const MEETINGS = '/patients/videomeetings/?fromDateTime=2027-01-01T00:00:00&toDateTime=2027-12-31T23:59:59';

/** The demo data with a video meeting of Nora's, her own link in it (a copy of Tolvan's appt-0002). */
function withHerMeeting(): RawResource[] {
  const resources = demoResources();
  const his = resources.find((r) => r.id === 'appt-0002') as RawResource;
  const hers = JSON.parse(JSON.stringify(his).replaceAll('Patient/pat-tolvan', 'Patient/pat-nora').replace(/https:\/\/video\.example\.se\/m\/[^"]+/, 'https://video.example.se/m/NORA-ONLY')) as RawResource;
  return [...resources, { ...hers, id: 'appt-nora-video' }];
}

const isLookup = (seen: Seen): boolean => seen.url.startsWith('/fhir/Patient?') && seen.url.includes('identifier=');

describe('one identity lookup per request (EHR_ADAPTER=fhir-r4, an EHR in the middle of a merge)', () => {
  let t: FhirTestApp;
  let proxy: FhirProxy;
  let tolvan: string;
  let nora: RawResource;

  beforeAll(async () => {
    const resources = withHerMeeting();
    nora = resources.find((r) => r.id === 'pat-nora') as RawResource;
    t = await startFhirTestApp({ proxied: true, now: BEFORE_START, resources });
    proxy = t.proxy as FhirProxy;
    const issuedAt = Math.floor(BEFORE_START / 1000);
    tolvan = await t.personToken(TOLVAN, { iat: issuedAt, exp: issuedAt + 3600 });
  });
  beforeEach(() => {
    proxy.hook = undefined;
    proxy.seen.length = 0;
  });
  afterAll(() => t.close());

  /** Lookups after the first of each request answer Nora, carrying the number asked for (`number`). */
  function mergingFrom(number: string): void {
    let lookups = 0;
    proxy.hook = async (seen, forward) => {
      if (!isLookup(seen) || lookups++ === 0) return forward();
      const carrying = { ...nora, identifier: [...(nora.identifier as object[]), { system: 'http://electronichealth.se/identifier/personnummer', value: number }] };
      return fhirReply(200, { resourceType: 'Bundle', type: 'searchset', entry: [{ fullUrl: `${new URL(proxy.url).origin}/fhir/Patient/pat-nora`, resource: carrying }] });
    };
  }

  const lookupsSeen = () => proxy.seen.filter(isLookup).length;

  it('shows a guardian his ward\'s video meetings, never the other person\'s the EHR answers a later lookup with, and looks up once', async () => {
    mergingFrom(TOLVE);
    const res = await t.call({ method: 'GET', url: MEETINGS, token: tolvan, patient: TOLVE });
    expect(res.body).not.toMatch(HER);
    expect(res.statusCode).toBe(200);
    expect(lookupsSeen()).toBe(1);
  });

  it('reads the patient\'s own records with one lookup, the access check\'s', async () => {
    mergingFrom(TOLVAN);
    const res = await t.call({ method: 'GET', url: MEETINGS, token: tolvan });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('https://video.example.se/m/');
    expect(res.body).not.toMatch(HER);
    expect(lookupsSeen()).toBe(1);
  });

  it('looks the patient up once for an arrival (the access check, the bookings and the write) and once for a payment', async () => {
    const arrival = await t.call({ method: 'PUT', url: '/patients/appointments/?id=appt-0001', token: tolvan, payload: { status: 'arrived' } });
    expect(JSON.stringify(arrival.json())).toContain('ARRIVAL_REGISTERED');
    expect(lookupsSeen()).toBe(1);
    proxy.seen.length = 0;
    const payment = await t.call({ method: 'POST', url: '/patients/paymentnotice/', token: tolvan, payload: { status: 'PAID', contactId: 'appt-0001', paymentType: 'CARD' } });
    expect(JSON.stringify(payment.json())).toContain('PAYMENT_REGISTERED');
    expect(lookupsSeen()).toBe(1);
  });

  it('looks up again for the next request: nothing found is kept past the request', async () => {
    await t.call({ method: 'GET', url: MEETINGS, token: tolvan });
    await t.call({ method: 'GET', url: MEETINGS, token: tolvan });
    expect(lookupsSeen()).toBe(2);
  });
});
