/**
 * Every read of a remote EHR is its answer of that moment (docs/upstream-ehr.md, docs/upstream-fhir.md): each GET asks
 * `Cache-Control: no-cache`, so a cache between the service and the EHR asks the EHR again before it answers. The
 * service keeps documents only through validators the EHR itself confirms (a conditional GET answered 304).
 * Hostile review helper-192, F1/F2: over xml-http no read said so, and a shared cache in front of the legacy EHR kept
 * answering a power of attorney the EHR had ended (the delegate paid for the patient, 200) and a booking staff had moved
 * (the arrival registered outside its window). Failed before: no `cache-control` on any xml-http GET, nor on the FHIR
 * adapter's reads but those of a write.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { on, type FhirProxy } from '../adapters/ehr-fhir/support/fhir-proxy.js';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { startRemoteTestApp, type RemoteTestApp } from '../support/remote-test-app.js';

const TOLVAN = '191212121212';
/** Märta holds a power of attorney for Tolvan in the demo registry. */
const MARTA = '198112189876';
/** In the FHIR demo bundle, Tolvan is Tolve's guardian. */
const TOLVE = '201212121212';

interface Asked { method: string; url: string; headers: IncomingHttpHeaders }

const withoutNoCache = (asked: Asked[]): string[] =>
  asked.filter((a) => a.method === 'GET' && a.headers['cache-control'] !== 'no-cache').map((a) => a.url);

describe('reads of a remote EHR, past any cache in between', () => {
  let remote: RemoteTestApp | undefined;
  let fhir: FhirTestApp | undefined;
  afterEach(async () => {
    await remote?.close();
    await fhir?.close();
    remote = undefined;
    fhir = undefined;
  });

  it('asks no-cache on every xml-http GET, a delegate\'s relationships and patient documents first, and keeps the validators', async () => {
    const asked: Asked[] = [];
    remote = await startRemoteTestApp({ onEhrRequest: (req) => asked.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }) });
    const token = await remote.personToken(MARTA);
    for (let i = 0; i < 2; i++) {
      for (const url of ['/patients/journalnotes/', '/patients/appointments/', '/patients/patient/?api-version=v2']) {
        expect((await remote.call({ method: 'GET', url, token, patient: TOLVAN })).statusCode).toBe(200);
      }
    }
    const payment = await remote.call({
      method: 'POST', url: '/patients/paymentnotice/', token, patient: TOLVAN, payload: { status: 'PAID', contactId: '00000000000', paymentType: 'CARD' },
    });
    expect(payment.statusCode).toBe(200);
    const gets = asked.filter((a) => a.method === 'GET');
    expect(gets.some((a) => a.url.includes('/relationships/'))).toBe(true);
    expect(withoutNoCache(asked)).toEqual([]);
    // The second round's document reads are still conditional: the EHR, not a cache, answers them 304.
    expect(gets.some((a) => a.headers['if-none-match'] !== undefined || a.headers['if-modified-since'] !== undefined)).toBe(true);
  });

  it('asks no-cache on every FHIR GET, the delegation\'s search and the patient\'s read among them', async () => {
    fhir = await startFhirTestApp({ proxied: true });
    const proxy = fhir.proxy as FhirProxy;
    const token = await fhir.personToken(TOLVAN);
    for (const url of ['/patients/journalnotes/', '/patients/appointments/', '/patients/patient/?api-version=v2']) {
      expect((await fhir.call({ method: 'GET', url, token, patient: TOLVE })).statusCode).toBe(200);
    }
    expect(proxy.seen.some((s) => s.url.includes('RelatedPerson'))).toBe(true);
    expect(withoutNoCache(proxy.seen)).toEqual([]);
    expect(proxy.seen.every((s) => s.method !== 'GET' || s.headers.pragma === 'no-cache')).toBe(true);
  });

  // Re-review helper-194, F1: a cache may still answer from its copy when it cannot reach the EHR (RFC 9111 §4.2.4,
  // §5.2.1.4: a request's no-cache is a preference), and an ended power of attorney read on. Such an answer carries an
  // `Age` (RFC 9111 §5.1: not made or validated by the origin for this request): it is refused, as an answer not the EHR's.
  it('refuses an answer a cache made itself (an Age over 0): the delegation is never decided on it', async () => {
    fhir = await startFhirTestApp({ proxied: true });
    const proxy = fhir.proxy as FhirProxy;
    const token = await fhir.personToken(TOLVAN);
    const read = () => fhir?.call({ method: 'GET', url: '/patients/appointments/', token, patient: TOLVE });
    expect((await read())?.statusCode).toBe(200);
    proxy.hook = on('RelatedPerson', (reply) => ({ ...reply, headers: { ...reply.headers, age: '120' } }));
    const stale = await read();
    expect([stale?.statusCode, stale?.body.includes('Booking')]).toEqual([502, false]);
    // A cache that passed the EHR's own answer on says so with Age 0: taken.
    proxy.hook = on('RelatedPerson', (reply) => ({ ...reply, headers: { ...reply.headers, age: '0' } }));
    expect((await read())?.statusCode).toBe(200);
  });
});
