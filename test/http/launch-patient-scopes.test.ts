/**
 * Issue 52 item 2: on the COS door, as on /fhir, a `patient/` scope reaches the launch patient only
 * (docs/contract.md#scopes): the Patient id in the token's `smart_patient`, or without one the person
 * the token names. Tokens here come from a region's own SMART server (the test issuer): Märta's,
 * launched for Lilla, may check Lilla in and pay for her visit, never Tolvan's, whom Märta has power
 * of attorney for. A `user/` form of the same scope keeps everyone the person may act for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInWindow, type Booking } from '../support/bookings.js';
import { startTestApp, TEST_FHIR_IDS, type TestApp } from '../support/test-app.js';

const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN = '191212121212';
const REFUSED = { statusCode: 403, message: 'Access to the requested patient is not allowed.' };
const LAUNCHED_FOR_LILLA = { client_id: 'region-smart-app', smart_patient: TEST_FHIR_IDS.patientId(LILLA) };

describe('issue 52 item 2: patient/ scopes on the COS door reach the launch patient only', () => {
  let t: TestApp;
  let tolvans: Booking;
  let lillas: Booking;

  beforeAll(async () => {
    t = await startTestApp();
    tolvans = await bookingInWindow(t, TOLVAN);
    lillas = await bookingInWindow(t, LILLA);
  });
  afterAll(async () => {
    await t.close();
  });

  const arrive = (token: string, patient: string, id: string) =>
    t.call({ method: 'PUT', url: `/patients/appointments/?id=${id}`, token, patient, payload: { status: 'arrived' } });
  const pay = (token: string, patient: string, contactId: string) =>
    t.call({ method: 'POST', url: '/patients/paymentnotice/', token, patient, payload: { status: 'PAID', contactId, paymentType: 'CARD' } });

  it('refuses checking in and paying for Tolvan\'s booking with a token launched for Lilla, audited as refusals, and changes nothing', async () => {
    const token = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: 'patient/Appointment.write patient/PaymentNotice.write' });
    const before = t.audit.records.length;
    const arrival = await arrive(token, TOLVAN, tolvans.ContactId);
    const payment = await pay(token, TOLVAN, tolvans.ContactId);
    expect([arrival.statusCode, arrival.json()]).toEqual([403, REFUSED]);
    expect([payment.statusCode, payment.json()]).toEqual([403, REFUSED]);
    expect(t.audit.records.slice(before).map((r) => [r.operation, r.patientId, r.outcome, r.status]))
      .toEqual([['changeAppointment', TOLVAN, 'denied', 403], ['registerPayment', TOLVAN, 'denied', 403]]);
    // Tolvan's own check-in is the first: OK, not INFO (already arrived).
    expect((await arrive(await t.personToken(TOLVAN), TOLVAN, tolvans.ContactId)).json()).toMatchObject({ ResultCode: 'OK' });
  });

  it('checks Lilla in and pays for her visit with the same token', async () => {
    const token = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: 'patient/Appointment.write patient/PaymentNotice.write' });
    const arrival = await arrive(token, LILLA, lillas.ContactId);
    expect([arrival.statusCode, arrival.json()]).toEqual([200, expect.objectContaining({ ResultCode: 'OK' })]);
    const payment = await pay(token, LILLA, lillas.ContactId);
    expect([payment.statusCode, payment.json()]).toEqual([200, [expect.objectContaining({ ResultCode: 'OK' })]]);
  });

  it('refuses the person herself and every other patient on reads and the access log, Lilla allowed', async () => {
    const token = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: 'patient/Patient.read patient/AuditEvent.read patient/Appointment.read' });
    for (const url of ['/patients/patient/', '/patients/accesslog/', '/patients/appointments/']) {
      for (const patient of [TOLVAN, MARTA]) {
        const res = await t.call({ method: 'GET', url, token, patient });
        expect([url, patient, res.statusCode, res.json()]).toEqual([url, patient, 403, REFUSED]);
      }
      const own = await t.call({ method: 'GET', url, token });
      expect([url, 'no header', own.statusCode]).toEqual([url, 'no header', 403]);
      expect([url, (await t.call({ method: 'GET', url, token, patient: LILLA })).statusCode]).toEqual([url, 200]);
    }
  });

  it('keeps user/ reach when the token has both a user/ and a patient/ form of the operation\'s scope', async () => {
    for (const userForm of ['user/Appointment.write', 'user/Appointment-write']) {
      const token = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: `patient/Appointment.write ${userForm}` });
      const res = await arrive(token, TOLVAN, tolvans.ContactId);
      // INFO: Tolvan checked in himself in the first test of this file; the write was allowed and found it so.
      expect([userForm, res.statusCode, res.json()]).toEqual([userForm, 200, expect.objectContaining({ ResultCode: 'INFO' })]);
    }
    const reads = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: 'patient/Appointment.read user/Appointment.read' });
    for (const patient of [TOLVAN, MARTA, LILLA]) {
      expect([patient, (await t.call({ method: 'GET', url: '/patients/appointments/', token: reads, patient })).statusCode]).toEqual([patient, 200]);
    }
  });

  it('reaches the person only when the token has patient/ forms and no smart_patient', async () => {
    const token = await t.personToken(MARTA, { client_id: 'region-smart-app', scope: 'patient/Appointment.read' });
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', token })).statusCode).toBe(200);
    for (const patient of [LILLA, TOLVAN]) {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token, patient });
      expect([patient, res.statusCode, res.json()]).toEqual([patient, 403, REFUSED]);
    }
  });

  it('reaches nobody when smart_patient is not a Patient id of this service', async () => {
    const token = await t.personToken(MARTA, { client_id: 'region-smart-app', smart_patient: 'not-an-id-of-ours', scope: 'patient/Appointment.read' });
    for (const patient of [undefined, MARTA, LILLA]) {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token, ...(patient === undefined ? {} : { patient }) });
      expect([patient, res.statusCode, res.json()]).toEqual([patient, 403, REFUSED]);
    }
  });

  it('grants a client token nothing with patient/ forms alone: the scope is insufficient, as on /fhir', async () => {
    const kiosk = await t.clientToken({ scope: 'patient/Appointment.read patient/Appointment.write' });
    const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: kiosk, patient: LILLA });
    expect([res.statusCode, res.json()]).toEqual([403, { statusCode: 403, message: 'Insufficient scope.' }]);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="user/Appointment-read"');
    const write = await arrive(kiosk, LILLA, lillas.ContactId);
    expect([write.statusCode, write.json()]).toEqual([403, { statusCode: 403, message: 'Insufficient scope.' }]);
    // The user/ form still serves a client token, as before.
    const kioskUser = await t.clientToken({ scope: 'user/Appointment.read' });
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', token: kioskUser, patient: TOLVAN })).statusCode).toBe(200);
  });
});

describe('issue 52 item 2: without the FHIR API no smart_patient can be read, so patient/ scopes then reach nobody', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ fhirApiOff: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses even the launch patient, and keeps the person-only reach of a token without smart_patient', async () => {
    const launched = await t.personToken(MARTA, { ...LAUNCHED_FOR_LILLA, scope: 'patient/Appointment.read' });
    for (const patient of [LILLA, MARTA]) {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: launched, patient });
      expect([patient, res.statusCode, res.json()]).toEqual([patient, 403, REFUSED]);
    }
    const own = await t.personToken(MARTA, { scope: 'patient/Appointment.read' });
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', token: own })).statusCode).toBe(200);
  });
});
