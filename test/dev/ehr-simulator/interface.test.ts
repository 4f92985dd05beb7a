import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEhrSimulator, type EhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { ACTOR, ADULT, UNKNOWN, ZONE, startSimulatedEhr, type SimulatedEhr } from '../../adapters/ehr-xml-http/simulated-ehr.js';

const XML = 'application/xml; charset=utf-8';
const KINDS = ['patient', 'patient-v2', 'medications', 'journalnotes', 'bookings', 'videomeetings', 'contacts', 'attentionsignals'];
const PAYMENT = (type: string, status = 'PAID') =>
  `<Payment xmlns="urn:example:ehr:payment:1"><Status>${status}</Status><PaymentType>${type}</PaymentType></Payment>`;

async function call(sim: EhrSimulator, method: string, url: string, body?: string, contentType = XML) {
  const res = await request(`${sim.url}${url}`, {
    method: method as 'GET', headers: body === undefined ? {} : { 'content-type': contentType }, body: body ?? null,
  });
  return { status: res.statusCode, type: res.headers['content-type'], text: await res.body.text() };
}

const faultCode = (text: string): string | undefined => /<Code>([A-Z_]+)<\/Code>/.exec(text)?.[1];
const reason = (text: string): string => `${/<ResultCode>(\w+)</.exec(text)?.[1]} ${/<ReasonCode>(\w+)</.exec(text)?.[1]}`;

describe('EHR simulator: the upstream HTTP interface over the embedded data folder', () => {
  let t: SimulatedEhr;
  let contacts: string[] = [];
  beforeAll(async () => {
    t = await startSimulatedEhr();
    const bookings = await readFile(path.join(t.dataDir, 'patients', ADULT, 'bookings.xml'), 'utf8');
    contacts = [...bookings.matchAll(/<ContactId>([^<]+)<\/ContactId>/g)].map((m) => m[1] ?? '');
  });
  afterAll(() => t.close());

  it('serves every document of a patient byte for byte when no filter is asked for', async () => {
    for (const kind of KINDS) {
      const res = await call(t.sim, 'GET', `/ehr/v1/patients/${ADULT}/${kind}`);
      expect([kind, res.status, res.type]).toEqual([kind, 200, XML]);
      expect(res.text).toBe(await readFile(path.join(t.dataDir, 'patients', ADULT, `${kind}.xml`), 'utf8'));
    }
  });

  it('filters by from/to when asked, and leaves the patient documents whole', async () => {
    const none = await call(t.sim, 'GET', `/ehr/v1/patients/${ADULT}/contacts?from=20990101000000`);
    expect(none.status).toBe(200);
    expect(none.text).toMatch(/<ContactEHRExtracts [^>]*>\s*<\/ContactEHRExtracts>/);
    const all = await call(t.sim, 'GET', `/ehr/v1/patients/${ADULT}/contacts?from=19000101000000&to=20991231235959`);
    const file = await readFile(path.join(t.dataDir, 'patients', ADULT, 'contacts.xml'), 'utf8');
    expect(all.text.match(/<contactBeginDateTime /g)).toHaveLength(file.match(/<contactBeginDateTime /g)?.length ?? -1);
    for (const kind of ['patient', 'patient-v2']) {
      const whole = await call(t.sim, 'GET', `/ehr/v1/patients/${ADULT}/${kind}?from=20990101000000`);
      expect(whole.text).toBe(await readFile(path.join(t.dataDir, 'patients', ADULT, `${kind}.xml`), 'utf8'));
    }
  });

  it('answers a missing document with an empty root in its namespace', async () => {
    await rm(path.join(t.dataDir, 'patients', ACTOR, 'videomeetings.xml'));
    const res = await call(t.sim, 'GET', `/ehr/v1/patients/${ACTOR}/videomeetings`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<VideoMeetings xmlns="urn:example:ehr:videomeeting:1"/>');
  });

  it('answers an unknown patient with 404 PATIENT_NOT_FOUND on any /patients/ path, reads and writes', async () => {
    for (const [method, url, body] of [
      ['GET', `/ehr/v1/patients/${UNKNOWN}/journalnotes`], ['GET', `/ehr/v1/patients/${UNKNOWN}/patient`],
      ['GET', `/ehr/v1/patients/${UNKNOWN}/no-such-thing`], ['PUT', `/ehr/v1/patients/${UNKNOWN}/bookings/x1/arrival`],
      ['POST', `/ehr/v1/patients/${UNKNOWN}/bookings/x1/payment`, PAYMENT('CARD')],
    ] as const) {
      const res = await call(t.sim, method, url, body);
      expect([url, res.status, faultCode(res.text), res.type]).toEqual([url, 404, 'PATIENT_NOT_FOUND', XML]);
    }
  });

  it('answers 400 BAD_REQUEST for a bad id, from, to, from after to, or a repeated bound', async () => {
    for (const url of [
      '/ehr/v1/patients/1912121212/contacts', '/ehr/v1/patients/19121212121a/contacts', `/ehr/v1/relationships/${ADULT}0`,
      `/ehr/v1/patients/${ADULT}/contacts?from=2026-01-01`, `/ehr/v1/patients/${ADULT}/contacts?to=20261301000000`,
      `/ehr/v1/patients/${ADULT}/contacts?from=20260201000000&to=20260101000000`,
      `/ehr/v1/patients/${ADULT}/contacts?from=20260101000000&from=20260102000000`,
      '/ehr/v1/patients/1912121212/bookings/x/arrival',
    ]) {
      const method = url.endsWith('arrival') ? 'PUT' : 'GET';
      const res = await call(t.sim, method, url);
      expect([url, res.status, faultCode(res.text)]).toEqual([url, 400, 'BAD_REQUEST']);
    }
  });

  it('serves an actor\'s relationships, or an empty registry naming the actor', async () => {
    const own = await call(t.sim, 'GET', `/ehr/v1/relationships/${ACTOR}`);
    expect(own.text).toBe(await readFile(path.join(t.dataDir, 'relationships', `${ACTOR}.xml`), 'utf8'));
    const none = await call(t.sim, 'GET', `/ehr/v1/relationships/${UNKNOWN}`);
    expect([none.status, none.type]).toEqual([200, XML]);
    expect(none.text).toContain(`<Relationships xmlns="urn:example:ehr:relationship:1" actor="${UNKNOWN}"/>`);
  });

  it('registers arrivals and payments by the embedded EHR\'s rules, with docs/upstream-ehr.md#2-requests-and-answers reason codes', async () => {
    const [first = '', second = ''] = contacts;
    const base = `/ehr/v1/patients/${ADULT}/bookings`;
    expect(reason((await call(t.sim, 'POST', `${base}/${first}/payment`, PAYMENT('CARD'))).text)).toBe('ERROR NOT_PAYABLE');
    expect(reason((await call(t.sim, 'PUT', `${base}/${first}/arrival`)).text)).toBe('OK ARRIVAL_REGISTERED');
    expect(reason((await call(t.sim, 'PUT', `${base}/${first}/arrival`)).text)).toBe('INFO ALREADY_ARRIVED');
    expect(reason((await call(t.sim, 'POST', `${base}/${first}/payment`, PAYMENT('CARD'))).text)).toBe('OK PAYMENT_REGISTERED');
    expect(reason((await call(t.sim, 'POST', `${base}/${first}/payment`, PAYMENT('CASH'))).text)).toBe('INFO ALREADY_PAID');
    expect(reason((await call(t.sim, 'PUT', `${base}/no-such-contact/arrival`)).text)).toBe('ERROR CONTACT_NOT_FOUND');
    // Another patient's booking is not this patient's.
    const foreign = await readFile(path.join(t.dataDir, 'patients', ACTOR, 'bookings.xml'), 'utf8');
    const theirs = /<ContactId>([^<]+)<\/ContactId>/.exec(foreign)?.[1] ?? '';
    expect(reason((await call(t.sim, 'PUT', `${base}/${encodeURIComponent(theirs)}/arrival`)).text)).toBe('ERROR CONTACT_NOT_FOUND');
    const state = JSON.parse(await readFile(path.join(t.dir, 'state.json'), 'utf8')) as { payments: Record<string, { paymentType: string }> };
    expect(state.payments[`${ADULT}/${first}`]?.paymentType).toBe('CARD');

    // The state outlives the simulator.
    const again = await startEhrSimulator({ dataDir: t.dataDir, stateFile: path.join(t.dir, 'state.json'), zone: ZONE });
    try {
      expect(reason((await call(again, 'PUT', `${base}/${first}/arrival`)).text)).toBe('INFO ALREADY_ARRIVED');
      expect(reason((await call(again, 'PUT', `${base}/${second}/arrival`)).text)).toBe('OK ARRIVAL_REGISTERED');
    } finally {
      await again.close();
    }
  });

  it('refuses a payment body that is not exactly a PAID Payment in XML', async () => {
    const url = `/ehr/v1/patients/${ADULT}/bookings/${contacts[2] ?? ''}/payment`;
    for (const [body, type] of [
      [PAYMENT('CARD'), 'application/json'], [PAYMENT('SWISH'), XML], [PAYMENT('CARD', 'REFUNDED'), XML],
      ['<!DOCTYPE p [<!ENTITY x "CARD">]><Payment><Status>PAID</Status><PaymentType>&x;</PaymentType></Payment>', XML],
      ['<Payment><Status>PAID</Status><PaymentType>CARD</PaymentType>', XML], ['', XML],
      [`${PAYMENT('CARD')}${PAYMENT('CASH')}`, XML],
    ] as const) {
      const res = await call(t.sim, 'POST', url, body, type);
      expect([body, res.status, faultCode(res.text)]).toEqual([body, 400, 'BAD_REQUEST']);
    }
    const ns = await call(t.sim, 'POST', url, '<p:Payment xmlns:p="urn:example:ehr:payment:1"><p:Status>PAID</p:Status><p:PaymentType>CASH</p:PaymentType></p:Payment>');
    expect(reason(ns.text)).toBe('ERROR NOT_PAYABLE');
  });

  it('answers other methods with 405 and other paths with 404, always in XML, and counts every request', async () => {
    const before = t.sim.requests;
    const wrong = await call(t.sim, 'POST', `/ehr/v1/patients/${ADULT}/contacts`, '<x/>');
    expect([wrong.status, faultCode(wrong.text), wrong.type]).toEqual([405, 'METHOD_NOT_ALLOWED', XML]);
    const get = await call(t.sim, 'GET', `/ehr/v1/patients/${ADULT}/bookings/x/arrival`);
    expect(get.status).toBe(405);
    for (const url of ['/', '/ehr/v2/patients', `/ehr/v1/patients/${ADULT}/secrets`, '/ehr/v1/relationships']) {
      const res = await call(t.sim, 'GET', url);
      expect([url, res.status, res.type]).toEqual([url, 404, XML]);
    }
    expect(t.sim.requests - before).toBe(6);
  });
});
