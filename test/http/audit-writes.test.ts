import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EhrError } from '../../src/domain/ehr-error.js';
import type { AuditRecord } from '../../src/ports/audit-trail.port.js';
import { bookingInWindow } from '../support/bookings.js';
import { DEFAULT_PROXY_SETTINGS } from '../support/proxy-wiring.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const CHILD = '201701012393';

describe('writes are audited before the EHR is asked (docs/contract.md#what-never-happens, threat 36 of docs/threat-model.md#found-by-independent-review)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.audit.mode = 'ok';
    t.audit.refuse = undefined;
  });

  const arrive = async (id: string, token: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'PUT', url: `/patients/appointments/?id=${encodeURIComponent(id)}`, token, payload: { status: 'arrived' }, headers });
  const pay = async (contactId: string, token: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId, paymentType: 'CARD' }, headers });
  const since = (before: number): AuditRecord[] => t.audit.records.slice(before);

  it('issue 12 item 2: with the audit store down, an arrival answers 503 in shape 1 and changes nothing; the same arrival afterwards is OK, not INFO', async () => {
    const token = await t.personToken(ADULT);
    const booking = await bookingInWindow(t, ADULT);
    t.audit.mode = 'fail';
    const down = await arrive(booking.ContactId, token);
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/cannot record/) });
    t.audit.mode = 'ok';
    expect((await arrive(booking.ContactId, token)).json()).toMatchObject({ ResultCode: 'OK', Any: [{ ReasonCode: 'ARRIVAL_REGISTERED' }] });
  });

  it('issue 12 item 2: with the audit store down, a payment answers 503 in shape 1 and changes nothing; the same payment afterwards is OK, not INFO', async () => {
    const kiosk = await t.clientToken();
    const booking = await bookingInWindow(t, CHILD);
    expect((await arrive(booking.ContactId, kiosk, { patient: CHILD })).json()).toMatchObject({ ResultCode: 'OK' });
    t.audit.mode = 'fail';
    const down = await pay(booking.ContactId, kiosk, { patient: CHILD });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/cannot record/) });
    t.audit.mode = 'ok';
    expect((await pay(booking.ContactId, kiosk, { patient: CHILD })).json()).toMatchObject([{ ResultCode: 'OK', Any: [{ ReasonCode: 'PAYMENT_REGISTERED' }] }]);
  });

  it('a write the EHR made whose outcome cannot be recorded says it may have been made and how to find out (helper-127, F2)', async () => {
    const fresh = await startTestApp();
    try {
      const kiosk = await fresh.clientToken();
      const booking = await bookingInWindow(fresh, CHILD);
      const call = () => fresh.call({ method: 'PUT', url: `/patients/appointments/?id=${encodeURIComponent(booking.ContactId)}`, token: kiosk, payload: { status: 'arrived' }, headers: { patient: CHILD } });
      fresh.audit.refuse = (r) => r.phase !== 'attempt';
      const down = await call();
      expect([down.statusCode, down.headers['retry-after']]).toEqual([503, '5']);
      expect(down.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/^The service could not record this registration, so it may have been made: send the same request again.*INFO/) });
      fresh.audit.refuse = undefined;
      const before = fresh.audit.records.length;
      expect((await call()).json()).toMatchObject({ ResultCode: 'INFO' });
      expect(fresh.audit.records.slice(before)).toEqual([expect.objectContaining({ phase: 'attempt' }), expect.objectContaining({ writeResult: 'INFO ALREADY_ARRIVED' })]);
    } finally {
      await fresh.close();
    }
  });

  // Hostile reviews helper-130 F3 and helper-131 F3: a write refused (an unknown booking, the service's own ERROR)
  // was said to be answered by the EHR, then to have maybe been made: it made nothing, and is told so.
  it('a write refused, whose outcome cannot be recorded, is not said to be made', async () => {
    const kiosk = await t.clientToken();
    t.audit.refuse = (r) => r.phase !== 'attempt';
    const down = await arrive('00261130199', kiosk, { patient: CHILD });
    expect(down.statusCode).toBe(503);
    expect(down.json<{ message: string }>().message).toBe('The service cannot record this access right now. Try again later.');
  });

  // Hostile review helper-130, F1: a grant made, or revoked, whose outcome record failed was answered "try again
  // later" (with the new grant's Location), though it was made: a repeat then answered 409.
  it('a sharing grant made whose outcome cannot be recorded says it may have been made, and carries no Location', async () => {
    const proxied = await startTestApp({ proxies: DEFAULT_PROXY_SETTINGS });
    try {
      const token = await proxied.personToken(ADULT);
      proxied.audit.refuse = (r) => r.phase !== 'attempt';
      const down = await proxied.call({ method: 'POST', url: '/patients/proxies/', token, payload: { grantee: '194608632396', categories: ['LabResult'] } });
      expect([down.statusCode, down.headers.location, down.headers['retry-after']]).toEqual([503, undefined, '5']);
      expect(down.json()).toEqual({ statusCode: 503, message: 'The service could not record this change, so it may have been made: look (GET) before you send it again.' });
      proxied.audit.refuse = undefined;
      const listed = await proxied.call({ method: 'GET', url: '/patients/proxies/', token });
      expect([listed.statusCode, listed.body]).toEqual([200, expect.stringContaining("194608632396")]);
    } finally {
      await proxied.close();
    }
  });

  it('issue 12 item 2: an attempt record that cannot be stored means no EHR call, 503, and one outcome record saying so', async () => {
    const fresh = await startTestApp();
    try {
      const token = await fresh.personToken(ADULT);
      const booking = await bookingInWindow(fresh, ADULT);
      fresh.audit.refuse = (r) => r.phase === 'attempt';
      const before = fresh.audit.records.length;
      const refused = await fresh.call({
        method: 'PUT', url: `/patients/appointments/?id=${booking.ContactId}`, token, payload: { status: 'arrived' }, headers: { 'x-request-id': 'w-1' },
      });
      expect(refused.statusCode).toBe(503);
      expect(fresh.audit.records.slice(before)).toEqual([expect.objectContaining({ requestId: refused.headers['x-request-id'], callerRequestId: 'w-1', outcome: 'failed', status: 503, patientId: ADULT })]);
      fresh.audit.refuse = undefined;
      const again = await fresh.call({ method: 'PUT', url: `/patients/appointments/?id=${booking.ContactId}`, token, payload: { status: 'arrived' } });
      expect(again.json()).toMatchObject({ ResultCode: 'OK' });
    } finally {
      await fresh.close();
    }
  });

  it('issue 12 item 2: a write leaves an attempt record, then exactly one outcome record, both naming the same request', async () => {
    const token = await t.personToken(ADULT);
    const booking = await bookingInWindow(t, ADULT);
    for (const write of [() => arrive(booking.ContactId, token, { 'x-request-id': 'pair-1' }), () => pay(booking.ContactId, token, { 'x-request-id': 'pair-2' })]) {
      const before = t.audit.records.length;
      const res = await write();
      expect(res.statusCode).toBe(200);
      const [attempt, outcome, ...more] = since(before);
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({
        phase: 'attempt', outcome: 'allowed', patientId: ADULT, delegation: 'self', actor: { personId: ADULT }, subscription: 'test', sourceAddress: '127.0.0.1',
      });
      expect(attempt).not.toHaveProperty('status');
      expect(outcome).toMatchObject({ outcome: 'allowed', status: 200, patientId: ADULT, delegation: 'self' });
      expect(outcome).not.toHaveProperty('phase');
      expect([attempt?.requestId, attempt?.serviceRequestId, attempt?.callerRequestId, attempt?.operation])
        .toEqual([outcome?.requestId, outcome?.serviceRequestId, outcome?.callerRequestId, outcome?.operation]);
      expect(outcome?.requestId).toBe(res.headers['x-request-id']);
      expect(outcome?.serviceRequestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  // Hostile review (helper-85, F1): every write that reached the EHR was stored `allowed, 200`, whatever
  // it answered, so the trail could not tell the check-in or the payment that was made from its repeats
  // or its refusals. The outcome record now says what the EHR answered.
  it('the outcome record of a write names what the EHR answered: OK, INFO or ERROR with its reason', async () => {
    const token = await t.personToken(ADULT);
    const booking = await bookingInWindow(t, ADULT);
    const answered = async (write: () => Promise<unknown>): Promise<string | undefined> => {
      const before = t.audit.records.length;
      await write();
      const outcome = since(before).find((r) => r.phase === undefined);
      return outcome?.phase === undefined ? outcome?.writeResult : undefined;
    };
    expect([await answered(() => arrive('99999999999', token)), await answered(() => pay('99999999999', token))])
      .toEqual(['ERROR CONTACT_NOT_FOUND', expect.stringMatching(/^ERROR [A-Z_]+$/)]);
    const arrivedBefore = await answered(() => arrive(booking.ContactId, token));
    expect([arrivedBefore === 'OK ARRIVAL_REGISTERED' || arrivedBefore === 'INFO ALREADY_ARRIVED', await answered(() => arrive(booking.ContactId, token))])
      .toEqual([true, 'INFO ALREADY_ARRIVED']);
    const paidBefore = await answered(() => pay(booking.ContactId, token));
    expect([paidBefore === 'OK PAYMENT_REGISTERED' || paidBefore === 'INFO ALREADY_PAID', await answered(() => pay(booking.ContactId, token))])
      .toEqual([true, 'INFO ALREADY_PAID']);
    // A read's record has none.
    const before = t.audit.records.length;
    await t.call({ method: 'GET', url: '/patients/appointments/', token });
    expect(since(before).map((r) => (r.phase === undefined ? r.writeResult : 'attempt'))).toEqual([undefined]);
  });

  // Hostile review helper-127, F3: the outcome of a write did not say which booking was checked in or paid, nor
  // how. It names them once the answer shows the booking is the patient's, and never a caller's text about
  // nobody's, or another patient's booking: not for a booking not found, a refusal or an attempt.
  it('the outcome record of a write names its booking once it is known to be the patient\'s, and a payment its type where it paid', async () => {
    const token = await t.personToken(ADULT);
    const kiosk = await t.clientToken();
    const own = await bookingInWindow(t, ADULT);
    const childs = await bookingInWindow(t, CHILD);
    const recorded = async (write: () => Promise<unknown>): Promise<unknown[]> => {
      const before = t.audit.records.length;
      await write();
      return since(before).map((r) => [r.phase ?? r.status, r.phase === undefined ? r.contactId : 'none', r.phase === undefined ? r.paymentType : 'none']);
    };
    const payAs = (contactId: string, paymentType: string) => () => t.call({
      method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId, paymentType },
    });
    // Not found, the patient's own and another patient's: a caller's text, never named.
    expect(await recorded(() => arrive('191212121212', token))).toEqual([['attempt', 'none', 'none'], [200, undefined, undefined]]);
    expect(await recorded(() => arrive(childs.ContactId, token))).toEqual([['attempt', 'none', 'none'], [200, undefined, undefined]]);
    expect(await recorded(payAs(childs.ContactId, 'CASH'))).toEqual([['attempt', 'none', 'none'], [200, undefined, undefined]]);
    // Refused before the EHR was asked: no attempt, and nothing named.
    expect(await recorded(() => arrive(own.ContactId, token, { patient: CHILD }))).toEqual([[403, undefined, undefined]]);
    // The patient's own booking: named whatever the EHR answered of it; a payment's type only where this request paid
    // (hostile review helper-170, F4: ALREADY_PAID recorded the type asked, not the one the EHR keeps). Failed before:
    // INVOICE on NOT_PAYABLE, CASH on ALREADY_PAID.
    expect(await recorded(payAs(own.ContactId, 'INVOICE'))).toEqual([['attempt', 'none', 'none'], [200, own.ContactId, undefined]]);
    expect(await recorded(() => arrive(own.ContactId, token))).toEqual([['attempt', 'none', 'none'], [200, own.ContactId, undefined]]);
    expect(await recorded(() => arrive(own.ContactId, token))).toEqual([['attempt', 'none', 'none'], [200, own.ContactId, undefined]]);
    // Paid by this request (an earlier test of the file may have paid the booking: the EHR's answer is made OK here).
    const paying = vi.spyOn(t.ehr, 'registerPayment').mockResolvedValueOnce({ resultCode: 'OK', reasonCode: 'PAYMENT_REGISTERED' });
    try {
      expect(await recorded(payAs(own.ContactId, 'CARD'))).toEqual([['attempt', 'none', 'none'], [200, own.ContactId, 'CARD']]);
    } finally {
      paying.mockRestore();
    }
    expect(await recorded(payAs(own.ContactId, 'CASH'))).toEqual([['attempt', 'none', 'none'], [200, own.ContactId, undefined]]);
    // A kiosk's, for the child.
    expect(await recorded(() => arrive(childs.ContactId, kiosk, { patient: CHILD }))).toEqual([['attempt', 'none', 'none'], [200, childs.ContactId, undefined]]);
    // Failed after the attempt (the EHR did not answer in time): no answer showed the booking, so none is named.
    const failing = vi.spyOn(t.ehr, 'registerPayment').mockRejectedValueOnce(new EhrError('timeout', 'the EHR did not answer', undefined, true));
    try {
      expect(await recorded(payAs(own.ContactId, 'CARD'))).toEqual([['attempt', 'none', 'none'], [504, undefined, undefined]]);
    } finally {
      failing.mockRestore();
    }
  });

  // Hostile review helper-133, F4: a check-in refused outside its window, a repeat and a not-found one were each
  // "allowed" (Genomförd / Done, AuditEvent outcome 0) in the patient's log, as the one made was.
  it('the patient\'s access log says what came of each write, on both doors', async () => {
    const token = await t.personToken(ADULT);
    const own = await bookingInWindow(t, ADULT);
    const requestIds: string[] = [];
    for (const id of [own.ContactId, own.ContactId, '99999999999']) requestIds.push(String((await arrive(id, token)).headers['x-request-id']));
    const log = (await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token }))
      .json<Array<{ requestId: string; operation: string; outcome: string; result?: { code: string } }>>();
    const entries = requestIds.map((id) => log.find((e) => e.requestId === id));
    expect(entries.map((e) => [e?.outcome, e?.result?.code.split(' ')[0]])).toEqual([['allowed', expect.stringMatching(/^(OK|INFO)$/)], ['allowed', 'INFO'], ['allowed', 'ERROR']]);
    expect(entries[2]?.result).toEqual({ code: 'ERROR CONTACT_NOT_FOUND', displayName: { sv: 'Ej registrerad: besöket hittades inte', en: 'Not registered: the appointment was not found' } });
    const fhir = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token, headers: { accept: 'application/fhir+json' } });
    const events = fhir.json<{ entry: Array<{ resource: { outcome: string; outcomeDesc: string; entity: Array<{ what: { identifier?: { value: string } } }> } }> }>().entry.map((e) => e.resource);
    const notFound = events.find((e) => e.entity.some((x) => x.what.identifier?.value === requestIds[2]));
    expect([notFound?.outcome, notFound?.outcomeDesc]).toEqual(['4', 'Not registered: the appointment was not found']);
    const repeat = events.find((e) => e.entity.some((x) => x.what.identifier?.value === requestIds[1]));
    expect([repeat?.outcome, repeat?.outcomeDesc]).toEqual(['0', 'Arrival was already registered']);
    // A read's entry has none.
    const reads = log.filter((e) => e.operation !== 'changeAppointment' && e.operation !== 'registerPayment');
    expect([reads.length > 0, reads.every((e) => e.result === undefined)]).toEqual([true, true]);
  });

  // Left by the session of 2026-11-30 and taken up the next: a payment the EHR did not confirm in time (it may have been
  // registered) was "Misslyckades av tekniska skäl / Failed for technical reasons" in the patient's log and nothing more,
  // as a payment the EHR never saw is; a patient reading it would take it as not paid. Its entry says the outcome is unknown.
  it('a write the EHR did not confirm says in the patient\'s log that its outcome is not known, on both doors; one never sent does not', async () => {
    const token = await t.personToken(ADULT);
    const own = await bookingInWindow(t, ADULT);
    const failWith = async (err: EhrError): Promise<string> => {
      const failing = vi.spyOn(t.ehr, 'registerPayment').mockRejectedValueOnce(err);
      try {
        return String((await pay(own.ContactId, token)).headers['x-request-id']);
      } finally {
        failing.mockRestore();
      }
    };
    const before = t.audit.records.length;
    const unconfirmed = [await failWith(new EhrError('timeout', 'the EHR did not answer', undefined, true)), await failWith(new EhrError('bad-response', 'cut off', undefined, true))];
    const neverSent = await failWith(new EhrError('unreachable', 'refused'));
    expect(since(before).filter((r) => r.phase === undefined).map((r) => [r.status, r.phase === undefined ? r.writeResult : 'attempt', r.phase === undefined ? r.contactId : 'attempt']))
      .toEqual([[504, 'UNKNOWN', undefined], [502, 'UNKNOWN', undefined], [502, undefined, undefined]]);
    // An arrival is sent only for a booking the service found among the patient's (MarkArrived), so its record names that
    // booking even so: which check-in is in doubt (helper-138, F4). A payment is sent unchecked, and names none (above).
    const arriving = vi.spyOn(t.ehr, 'registerArrival').mockRejectedValueOnce(new EhrError('timeout', 'the EHR did not answer', undefined, true));
    const beforeArrival = t.audit.records.length;
    try {
      expect((await arrive(own.ContactId, token)).statusCode).toBe(504);
    } finally {
      arriving.mockRestore();
    }
    expect(since(beforeArrival).map((r) => (r.phase === undefined ? [r.status, r.writeResult, r.contactId, r.paymentType] : 'attempt')))
      .toEqual(['attempt', [504, 'UNKNOWN', own.ContactId, undefined]]);
    const log = (await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token }))
      .json<Array<{ requestId: string; outcome: string; result?: { code: string; displayName: { sv: string; en: string } } }>>();
    const entryOf = (id: string) => log.find((e) => e.requestId === id);
    const unknown = {
      code: 'UNKNOWN', displayName: {
        sv: 'Okänt om den registrerades: journalsystemet bekräftade den inte', en: 'Not known whether it was registered: the EHR did not confirm it',
      },
    };
    expect(unconfirmed.map((id) => [entryOf(id)?.outcome, entryOf(id)?.result])).toEqual([['failed', unknown], ['failed', unknown]]);
    expect([entryOf(neverSent)?.outcome, entryOf(neverSent)?.result]).toEqual(['failed', undefined]);
    const fhir = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token, headers: { accept: 'application/fhir+json' } });
    type Translated = { extension: Array<{ url: string; extension: Array<{ url: string; valueCode?: string; valueString?: string }> }> };
    const events = fhir.json<{ entry: Array<{ resource: { outcome: string; outcomeDesc: string; _outcomeDesc?: Translated; entity: Array<{ what: { identifier?: { value: string } } }> } }> }>()
      .entry.map((e) => e.resource);
    const eventOf = (id: string) => events.find((e) => e.entity.some((x) => x.what.identifier?.value === id));
    expect([eventOf(unconfirmed[0] ?? '')?.outcome, eventOf(unconfirmed[0] ?? '')?.outcomeDesc]).toEqual(['8', unknown.displayName.en]);
    expect([eventOf(neverSent)?.outcome, eventOf(neverSent)?.outcomeDesc]).toEqual(['8', 'Failed for technical reasons']);
    // In both languages, as FHIR's translation extension, so that a Swedish page (the patient app's) says it in Swedish (helper-138, F1).
    const inLanguages = (t: Translated | undefined) => t?.extension.filter((x) => x.url === 'http://hl7.org/fhir/StructureDefinition/translation')
      .map((x) => [x.extension.find((p) => p.url === 'lang')?.valueCode, x.extension.find((p) => p.url === 'content')?.valueString]);
    expect(inLanguages(eventOf(unconfirmed[0] ?? '')?._outcomeDesc)).toEqual([['sv', unknown.displayName.sv], ['en', unknown.displayName.en]]);
    expect(inLanguages(eventOf(neverSent)?._outcomeDesc)).toEqual([['sv', 'Misslyckades av tekniska skäl'], ['en', 'Failed for technical reasons']]);
  });

  it('issue 12 item 2: a write refused before the EHR could be asked (403, 400) leaves no attempt record, only its outcome', async () => {
    const before = t.audit.records.length;
    expect((await arrive('1', await t.personToken(ADULT), { patient: CHILD })).statusCode).toBe(403);
    expect((await arrive('1', await t.personToken(ADULT, { scope: 'user/Appointment-read' }))).statusCode).toBe(403);
    expect((await t.call({ method: 'PUT', url: '/patients/appointments/?id=1', token: await t.personToken(ADULT), payload: { status: 'x' } })).statusCode).toBe(400);
    expect(since(before).map((r) => [r.phase, r.status])).toEqual([[undefined, 403], [undefined, 403], [undefined, 400]]);
  });
});
