/**
 * Booking ids made of dots never become a FHIR path (threat 28 of docs/threat-model.md#the-upstream-ehr-api10,
 * docs/upstream-fhir.md#5-the-two-writes): `.` and `..` match FHIR's id syntax, but as path segments
 * `GET Appointment/..` is `GET /fhir/` and `GET Appointment/.` an unfiltered search of every
 * appointment. Through the real app (EHR_ADAPTER=fhir-r4) and a proxy that records every request,
 * a payment with such an id, and an arrival on a booking the server itself lists under such an id,
 * answer as for an unknown booking (ERROR CONTACT_NOT_FOUND, the same text), and no request but
 * the access check's and the bookings' searches reaches the server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { TOLVAN } from '../adapters/ehr-fhir/support/demo-bundle.js';
import type { FhirProxy, Hook } from '../adapters/ehr-fhir/support/fhir-proxy.js';

/** Half an hour before appt-0001 starts (2026-12-14T09:30+01:00): its arrival window is open. */
const BEFORE_START = Date.parse('2026-12-14T08:00:00Z');
const DOTS = ['.', '..', '...'];
/** A search (`/fhir/<Type>?…`) or the CapabilityStatement: never a path built from a booking id. */
const SEARCH_OR_METADATA = /^\/fhir\/(?:[A-Z][A-Za-z]+\?|metadata$)/;

/** A server (or a proxy) that lists appt-0001 under the id `id`. */
const listedAs = (id: string): Hook => async (seen, forward) => {
  const reply = await forward();
  if (!seen.url.startsWith('/fhir/Appointment?')) return reply;
  return { ...reply, body: Buffer.from(reply.body.toString().replaceAll('Appointment/appt-0001"', `Appointment/${id}"`).replaceAll('"id":"appt-0001"', `"id":"${id}"`)) };
};

describe('booking ids of dots only over FHIR (through a proxy that records every request)', () => {
  let t: FhirTestApp;
  let proxy: FhirProxy;
  let token: string;

  beforeAll(async () => {
    t = await startFhirTestApp({ proxied: true, now: BEFORE_START });
    proxy = t.proxy as FhirProxy;
    token = await t.personToken(TOLVAN, { iat: Math.floor(BEFORE_START / 1000), exp: Math.floor(BEFORE_START / 1000) + 3600 });
  });
  beforeEach(() => {
    proxy.hook = undefined;
    proxy.seen.length = 0;
  });
  afterAll(() => t.close());

  const pay = (contactId: string) => t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId, paymentType: 'CARD' } });
  const arrive = (id: string) => t.call({ method: 'PUT', url: `/patients/appointments/?id=${encodeURIComponent(id)}`, token, payload: { status: 'arrived' } });

  it.each(DOTS)('answers a payment for booking "%s" as for an unknown booking, and asks the server nothing about it', async (id) => {
    const unknown = await pay('appt-9999');
    proxy.seen.length = 0;
    const res = await pay(id);
    expect([res.statusCode, res.json()]).toEqual([200, unknown.json()]);
    expect(JSON.stringify(res.json())).toContain('CONTACT_NOT_FOUND');
    expect(proxy.seen.map((s) => s.url).filter((url) => !SEARCH_OR_METADATA.test(url))).toEqual([]);
    // The patient's bookings are searched (which decides the payment's turn), and nothing is written.
    expect(proxy.seen.filter((s) => s.method !== 'GET' || /PaymentNotice/.test(s.url))).toEqual([]);
  });

  it.each(DOTS)('answers an arrival on a booking the server lists as "%s" as for an unknown booking, and never reads or writes it by that id', async (id) => {
    const unknown = await arrive('appt-9999');
    proxy.hook = listedAs(id);
    proxy.seen.length = 0;
    const res = await arrive(id);
    expect([res.statusCode, res.json()]).toEqual([200, unknown.json()]);
    expect(JSON.stringify(res.json())).toContain('CONTACT_NOT_FOUND');
    // The bookings were searched (the server listed the booking as `id`), and nothing else was asked of it by that id.
    expect(proxy.seen.some((s) => s.url.startsWith('/fhir/Appointment?'))).toBe(true);
    expect(proxy.seen.map((s) => `${s.method} ${s.url}`).filter((line) => !SEARCH_OR_METADATA.test(line.slice(line.indexOf(' ') + 1)))).toEqual([]);
    expect(proxy.seen.filter((s) => s.method !== 'GET')).toEqual([]);
  });

  it('still arrives a booking the server lists under an id with dots in it', async () => {
    proxy.hook = listedAs('appt.0001');
    const res = await arrive('appt.0001');
    // The server holds it as appt-0001: read by the id it was listed under, it is not found there.
    expect(proxy.seen.map((s) => s.url)).toContain('/fhir/Appointment/appt.0001');
    expect(JSON.stringify(res.json())).toContain('CONTACT_NOT_FOUND');
  });
});
