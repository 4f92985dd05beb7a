/**
 * Which PaymentNotice says an appointment is paid (docs/upstream-fhir.md §5), against servers that match
 * more than they were asked (re-review helper-172): only one of this appointment's own, by the payment
 * identifier exactly and its `request`, and not voided. Failed before: R1, another appointment's notice
 * (a server ignoring `identifier`, or matching its token in any letter case) answered ALREADY_PAID with
 * nothing paid; R2, a match whose status the search left out was paid again; R3, a server without
 * `status` among PaymentNotice's search parameters had every payment "may have been made"; R4, a fee
 * written with an exponent (2.5E+2) was shown and never payable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { startFhirTestApp, type FhirTestApp } from '../../support/fhir-test-app.js';
import { demoResources, TOLVAN, type RawResource } from './support/demo-bundle.js';
import { fhirReply, type FhirProxy } from './support/fhir-proxy.js';

const APPOINTMENT = 'appt-0001';
const BEFORE_START = Date.parse('2026-12-14T08:00:00Z');
const SYSTEM = 'http://example.org/fhir/pdas/identifier/appointment-payment';
const PAID = { resultCode: 'INFO', reasonCode: 'ALREADY_PAID' };
const REGISTERED = { resultCode: 'OK', reasonCode: 'PAYMENT_REGISTERED' };

type Hook = NonNullable<FhirProxy['hook']>;
type Json = Record<string, unknown>;

let t: FhirTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The demo resources with appt-0001 arrived (changed by `change`), and `more`. */
const arrived = (more: RawResource[] = [], change: (appointment: RawResource) => void = () => undefined): RawResource[] => [
  ...demoResources().map((r) => {
    if (r.resourceType !== 'Appointment' || r.id !== APPOINTMENT) return r;
    const appointment = structuredClone(r);
    appointment.status = 'arrived';
    change(appointment);
    return appointment;
  }),
  ...more,
];

/** A PaymentNotice of this service's form for appointment `of`, its identifier's value written `value`. */
const notice = (id: string, of: string, status: string, value = of): RawResource => ({
  resourceType: 'PaymentNotice', id, status, created: '2026-12-14T07:10:00Z', identifier: [{ system: SYSTEM, value }],
  request: { reference: `Appointment/${of}` }, payment: { display: 'Patientavgift' }, recipient: { reference: 'Organization/org-vc-tolvstad' },
  amount: { value: 0, currency: 'SEK' },
});

const notices = async (app: FhirTestApp): Promise<Json[]> =>
  (((await (await fetch(`${app.sim.baseUrl}/PaymentNotice`)).json()) as { entry?: { resource: Json }[] }).entry ?? []).map((e) => e.resource);

/** The CapabilityStatement's PaymentNotice changed by `change`; every other request to `inner`. */
function statementSays(proxy: FhirProxy, change: (paymentNotice: Json) => void, inner: Hook = async (_seen, forward) => forward()): void {
  proxy.hook = async (seen, forward) => {
    if (!seen.url.endsWith('/metadata')) return inner(seen, forward);
    const reply = await forward();
    const statement = JSON.parse(reply.body.toString()) as { rest: { resource: Json[] }[] };
    for (const resource of statement.rest[0]?.resource ?? []) if (resource.type === 'PaymentNotice') change(resource);
    return { ...reply, body: Buffer.from(JSON.stringify(statement)) };
  };
}
const withoutConditionalCreate = (resource: Json): void => {
  resource.conditionalCreate = false;
};

describe('R1: another appointment\'s notice is no payment of this one', () => {
  it('a server that ignores `identifier` in a search: this appointment is paid', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('other-1', 'appt-0002', 'active')]), proxied: true });
    const sim = t.sim.baseUrl;
    statementSays(t.proxy as FhirProxy, withoutConditionalCreate, async (seen, forward) => {
      if (!(seen.method === 'GET' && seen.url.includes('/PaymentNotice?'))) return forward();
      return fhirReply(200, await (await fetch(`${sim}/PaymentNotice`)).json());
    });
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(REGISTERED);
    expect((await notices(t)).map((n) => (n.request as { reference: string }).reference).sort()).toEqual(['Appointment/appt-0001', 'Appointment/appt-0002']);
  });

  it('a server that drops `identifier` from If-None-Exist: no false ALREADY_PAID, nothing written', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('other-1', 'appt-0002', 'active')]), proxied: true });
    const sim = t.sim.baseUrl;
    (t.proxy as FhirProxy).hook = async (seen, forward) => {
      if (seen.method !== 'POST') return forward();
      const criteria = String(seen.headers['if-none-exist']).split('&').filter((p) => !p.startsWith('identifier=')).join('&');
      const answer = await fetch(`${sim}/PaymentNotice`, { method: 'POST', body: seen.body, headers: { 'content-type': 'application/fhir+json', 'if-none-exist': criteria } });
      return fhirReply(answer.status, await answer.json());
    };
    await expect(t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).rejects.toBeInstanceOf(EhrError);
    expect(await notices(t)).toHaveLength(1);
  });

  it('a notice whose identifier differs in letter case (the development server matches tokens so) is no payment', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('o1', 'appt-0002', 'active', 'APPT-0001')]) });
    await expect(t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).rejects.toBeInstanceOf(EhrError);
    expect(await notices(t)).toHaveLength(1);
  });
});

describe('R2: on a server without conditional create, only a voided or draft notice is unpaid', () => {
  it.each([[undefined], ['a code of no status (issued)']])('a notice of this appointment whose status the search answers as %s is paid', async (status) => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('paid-1', APPOINTMENT, 'active')]), proxied: true });
    statementSays(t.proxy as FhirProxy, withoutConditionalCreate, async (seen, forward) => {
      const reply = await forward();
      if (!(seen.method === 'GET' && seen.url.includes('/PaymentNotice?'))) return reply;
      const bundle = JSON.parse(reply.body.toString()) as { entry?: { resource: Json }[] };
      for (const entry of bundle.entry ?? []) {
        if (status === undefined) delete entry.resource.status;
        else entry.resource.status = 'issued';
      }
      return { ...reply, body: Buffer.from(JSON.stringify(bundle)) };
    });
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(PAID);
    expect(await notices(t)).toHaveLength(1);
  });
});

describe('re-review helper-174: what cannot be told paid or not, and a draft', () => {
  // F1: a draft counted as paid on the search path and as unpaid by If-None-Exist's `status=active`. Failed before: ALREADY_PAID.
  it('a draft notice of this appointment is no payment, on either path', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('draft-1', APPOINTMENT, 'draft')]), proxied: true });
    statementSays(t.proxy as FhirProxy, withoutConditionalCreate);
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(REGISTERED);
    expect((await notices(t)).map((n) => n.status).sort()).toEqual(['active', 'draft']);
  });

  // F3: a 412 (or 200) is followed by a search; its failure was a plain fault, said "not made" in effect, while a payment
  // of the appointment may exist. Failed before: not an unconfirmed write.
  it('a search that fails after the server matched a notice says the payment may have been made', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived(), proxied: true });
    (t.proxy as FhirProxy).hook = async (seen, forward) => {
      if (seen.method === 'POST') return fhirReply(412, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'duplicate' }] });
      if (seen.url.includes('/PaymentNotice?')) return fhirReply(500, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'exception' }] });
      return forward();
    };
    const refused = await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD').then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(EhrError);
    expect((refused as EhrError).unconfirmedWrite).toBe(true);
  });

  // Re-review helper-176, F2: after a 200 or 412, a notice naming the appointment whose `request` is under another host name
  // was "may have been made: send again", which every repeat answered the same, each holding the turn. It is the EHR's
  // data that cannot be read: a fault, nothing made by this request. Failed before: an unconfirmed write.
  it('a notice matched that names the appointment but cannot be read as this server\'s is a fault, never "send again"', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([{ ...notice('odd-1', APPOINTMENT, 'active'), request: { reference: 'https://fhir.region.example/R4/Appointment/appt-0001' } }]) });
    const refused = await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD').then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(EhrError);
    expect((refused as EhrError).unconfirmedWrite).toBe(false);
    expect(await notices(t)).toHaveLength(1);
  });

  // F5: on the search path a notice naming the appointment by the identifier exactly, whose `request` this service cannot
  // read as this server's (another host name), or an answer the server says it cut, was taken as unpaid, and paid again.
  it.each([
    ['its request under another name of the server', (n: Json) => { n.request = { reference: 'http://localhost:1/fhir/Appointment/appt-0001' }; }, false],
    ['the answer cut (SUBSETTED)', () => undefined, true],
  ])('a notice of this appointment that cannot be read as paid or not (%s) pays nothing again', async (_what, change, subsetted) => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([notice('odd-1', APPOINTMENT, 'active')]), proxied: true });
    statementSays(t.proxy as FhirProxy, withoutConditionalCreate, async (seen, forward) => {
      const reply = await forward();
      if (!(seen.method === 'GET' && seen.url.includes('/PaymentNotice?'))) return reply;
      const bundle = JSON.parse(reply.body.toString()) as { entry?: { resource: Json }[]; meta?: unknown };
      for (const entry of bundle.entry ?? []) change(entry.resource);
      if (subsetted) {
        bundle.meta = { tag: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' }] };
        bundle.entry = [];
      }
      return { ...reply, body: Buffer.from(JSON.stringify(bundle)) };
    });
    await expect(t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).rejects.toBeInstanceOf(EhrError);
    expect(await notices(t)).toHaveLength(1);
  });
});

describe('R3: a server that names no `status` search on PaymentNotice', () => {
  it('is asked by identifier alone, and the payment is made', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived(), proxied: true });
    statementSays(t.proxy as FhirProxy, (resource) => {
      resource.searchParam = (resource.searchParam as { name: string }[] | undefined ?? []).filter((p) => p.name !== 'status');
    }, async (seen, forward) => (seen.method === 'POST' && String(seen.headers['if-none-exist']).includes('status')
      ? fhirReply(400, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-supported', diagnostics: 'Unknown search parameter "status"' }] })
      : forward()));
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(REGISTERED);
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CASH')).toEqual(PAID);
  });
});

describe('R4: a fee written with an exponent', () => {
  it('is paid as the number it writes, as the booking shows it', async () => {
    const fee = (appointment: RawResource): void => {
      appointment.extension = [{ url: 'http://example.org/fhir/pdas/StructureDefinition/patient-fee', extension: [{ url: 'price', valueMoney: { value: 777777, currency: 'SEK' } }] }];
    };
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived([], fee), proxied: true });
    (t.proxy as FhirProxy).hook = async (_seen, forward) => {
      const reply = await forward();
      return { ...reply, body: Buffer.from(reply.body.toString().replace('777777', '2.5E+2')) };
    };
    expect(JSON.stringify(await t.ehr.reads.getAppointments(TOLVAN, {}))).toContain('"Price":250');
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(REGISTERED);
    expect((await notices(t))[0]?.amount).toEqual({ value: 250, currency: 'SEK' });
  });
});

describe('re-review helper-185: the search that decides a payment, past a cache', () => {
  // F3: the "already paid?" search of a server without conditional create went without cache control, and a cache in
  // between answered the second payment with the first search's empty answer: the visit was paid twice. Failed before: two notices.
  it('asks the server itself, not a cache: a second payment of the visit is ALREADY_PAID, one notice', async () => {
    t = await startFhirTestApp({ now: BEFORE_START, resources: arrived(), proxied: true });
    const cached = new Map<string, Awaited<ReturnType<Parameters<Hook>[1]>>>();
    // A cache that keeps each search's answer and honours `Cache-Control: no-cache`, as HTTP caches do.
    statementSays(t.proxy as FhirProxy, withoutConditionalCreate, async (seen, forward) => {
      if (seen.method !== 'GET' || !seen.url.includes('/PaymentNotice?')) return forward();
      const kept = cached.get(seen.url);
      if (kept !== undefined && seen.headers['cache-control'] !== 'no-cache') return kept;
      const reply = await forward();
      cached.set(seen.url, reply);
      return reply;
    });
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CARD')).toEqual(REGISTERED);
    expect(await t.ehr.registerPayment(TOLVAN, APPOINTMENT, 'CASH')).toEqual(PAID);
    expect(await notices(t)).toHaveLength(1);
  });
});
