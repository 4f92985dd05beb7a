/**
 * What the FHIR client refuses (docs/upstream-fhir.md#7-faults), against the real development server,
 * with a proxy of the transport's side where the fault must be injected: the page cap, a next link
 * elsewhere, an unknown or ambiguous identity, a record of another patient, refusals, not FHIR JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fhirReads } from '../../../../src/adapters/ehr-fhir/client/fhir-reads.js';
import type { FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { EhrError, type EhrFailure } from '../../../../src/domain/ehr-error.js';
import { changed, demoResources, TOLVAN, type RawResource } from '../support/demo-bundle.js';
import { changedBody, clientFor, readsOf, readsOptions, recordingExchange, registryOf, startDemoSim, type Proxy } from '../support/fhir-sim.js';

const YEAR_2025 = { from: '20250101000000', to: '20251231235959' };
const ALL = { from: '19000101000000', to: '21001231235959' };

let sim: FhirSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function failureOf(promise: Promise<unknown> | undefined): Promise<EhrFailure> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EhrError) return err.failure;
    throw err;
  }
  throw new Error('no failure');
}

async function reads(resources?: RawResource[], proxy: Proxy = {}, options: { pageSize?: number; maxPages?: number } = {}) {
  sim = await startDemoSim(resources);
  const exchange = recordingExchange(proxy);
  return { reads: readsOf(clientFor(sim, { exchange, ...options })), exchange };
}

describe('paging', () => {
  it('never fetches a page beyond FHIR_MAX_PAGES: the read fails instead of answering a cut list', async () => {
    const { reads: r, exchange } = await reads(undefined, {}, { pageSize: 1, maxPages: 1 });
    expect(await failureOf(r.getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('bad-response');
    expect(exchange.urls.filter((u) => u.includes('/Composition?'))).toHaveLength(1);
  });

  it('never follows a next link to another origin', async () => {
    const elsewhere = (answer: Parameters<NonNullable<Proxy['answer']>>[0], url: string) => (!url.includes('/Composition?') ? answer
      : changedBody(answer, (b) => { b.link = [{ relation: 'next', url: 'http://127.0.0.2:9/fhir/Composition?_offset=1' }]; }));
    const { reads: r, exchange } = await reads(undefined, { answer: elsewhere });
    expect(await failureOf(r.getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('bad-response');
    expect(exchange.urls.join()).not.toContain('127.0.0.2');
  });
});

describe('the patient lookup', () => {
  it('answers an unknown number as an unknown patient', async () => {
    const { reads: r } = await reads();
    expect(await failureOf(r.getPatient?.('195507142478', {}))).toBe('patient-not-found');
  });

  it('refuses two registrations of one number as an ambiguous identity', async () => {
    const { reads: r } = await reads([...demoResources(), { resourceType: 'Patient', id: 'pat-tolvan-2', identifier: [{ system: 'urn:oid:1.2.752.129.2.1.3.1', value: TOLVAN }] }]);
    expect(await failureOf(r.getPatient?.(TOLVAN, {}))).toBe('bad-response');
  });

  it('leaves out a record merged into another (replaced-by), and answers from the one that remains', async () => {
    const merged = { resourceType: 'Patient', id: 'pat-tolvan-old', identifier: [{ system: 'urn:oid:1.2.752.129.2.1.3.1', value: TOLVAN }],
      link: [{ other: { reference: 'Patient/pat-tolvan' }, type: 'replaced-by' }] };
    const { reads: r } = await reads([...demoResources(), merged]);
    expect((await r.getPatient?.(TOLVAN, {}))?.[0]?.PatientEHRExtract[0]?.Patient?.PatientInternalID).toBe('pat-tolvan');
  });

  it('marks the patient with skyddad folkbokföring protected in the answer', async () => {
    const { reads: r } = await reads();
    expect((await r.getPatientV2?.('200404122384', {}))?.[0]?.patientEHRExtract[0]?.patient?.patientProtectedId).toBe(true);
  });
});

describe('the patient\'s own data only', () => {
  it('refuses a note whose entry is a result of another patient', async () => {
    const resources = changed('Observation/obs-crp-poc', (r) => { r.subject = { reference: 'Patient/pat-tolve' }; });
    const { reads: r } = await reads(resources);
    expect(await failureOf(r.getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('bad-response');
  });

  it('refuses the answer of a server that ignores the patient parameter', async () => {
    const other = { resourceType: 'Encounter', id: 'enc-tolve', status: 'finished', class: { code: 'AMB' }, subject: { reference: 'Patient/pat-tolve' },
      period: { start: '2025-05-05T10:00:00+02:00' } };
    const { reads: r } = await reads([...demoResources(), other], { url: (url) => url.replace(/([?&])patient=[^&]*&?/, '$1') });
    expect(await failureOf(r.getContacts?.(TOLVAN, ALL))).toBe('bad-response');
  });

  it('refuses a registry answer holding another RelatedPerson under the id of one it holds', async () => {
    const twice = (answer: Parameters<NonNullable<Proxy['answer']>>[0], url: string) => (!url.includes('/RelatedPerson?') ? answer : changedBody(answer, (b) => {
      const entries = b.entry as { resource: Record<string, unknown> }[];
      const first = entries[0] as { resource: Record<string, unknown> };
      entries.push({ ...first, resource: { ...first.resource, period: { start: '1990-01-01' } } });
    }));
    sim = await startDemoSim();
    expect((await registryOf(clientFor(sim))(TOLVAN)).length).toBeGreaterThan(0);
    expect(await failureOf(registryOf(clientFor(sim, { exchange: recordingExchange({ answer: twice }) }))(TOLVAN))).toBe('bad-response');
  });

  it('answers an include that a server repeats, as it was, on each page whose matches name it (once)', async () => {
    const doris = demoResources().find((r) => r.id === 'prac-doris') as RawResource;
    const withDoris = (answer: Parameters<NonNullable<Proxy['answer']>>[0], url: string) => (!url.includes('/Composition?') ? answer : changedBody(answer, (b) => {
      (b.entry as unknown[]).push({ fullUrl: `${sim?.baseUrl ?? ''}/Practitioner/prac-doris`, resource: doris, search: { mode: 'include' } });
    }));
    const plain = await reads(undefined, {}, { pageSize: 1 });
    const expected = await plain.reads.getJournalNotes?.(TOLVAN, YEAR_2025);
    await sim?.close();
    const { reads: r, exchange } = await reads(undefined, { answer: withDoris }, { pageSize: 1 });
    expect(await r.getJournalNotes?.(TOLVAN, YEAR_2025)).toEqual(expected);
    expect(exchange.urls.filter((u) => u.includes('/Composition?'))).toHaveLength(2);
    // Doris was at hand (twice): never fetched.
    expect(exchange.urls.filter((u) => u.includes('/Practitioner?') && u.includes('prac-doris'))).toEqual([]);
  });

  it('refuses an include of another Patient', async () => {
    const resources = changed('Appointment/appt-0001', (r) => { (r.participant as unknown[]).push({ actor: { reference: 'Patient/pat-tolve' }, status: 'accepted' }); });
    const { reads: r } = await reads(resources);
    expect(await failureOf(r.getAppointments?.(TOLVAN, ALL))).toBe('bad-response');
  });
});

describe('answers that are not what was asked for', () => {
  it('refuses a refusal of the server (a 4xx) and tells only its status and issue codes', async () => {
    sim = await startDemoSim();
    const told: [number, string | undefined][] = [];
    // Medplum refuses an unreadable date with a 400 whose text echoes the value: none of it may be told.
    const exchange = recordingExchange({ url: (url) => url.replace(/date=ge[^&]*/, 'date=ge19121212-1212') });
    const client = clientFor(sim, { exchange, onRefusal: (status, issues) => told.push([status, issues]) });
    expect(await failureOf(readsOf(client).getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('bad-response');
    expect(told).toHaveLength(1);
    expect(told[0]?.[0]).toBeGreaterThanOrEqual(400);
    expect(told[0]?.[1]).toBe('error/invalid');
  });

  it.each([
    ['an HTML page', (a: Parameters<NonNullable<Proxy['answer']>>[0]) => ({ ...a, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html></html>') })],
    ['JSON that is not FHIR', (a: Parameters<NonNullable<Proxy['answer']>>[0]) => ({ ...a, body: Buffer.from('{"hello": "world"}') })],
    ['another resource type', (a: Parameters<NonNullable<Proxy['answer']>>[0]) => ({ ...a, body: Buffer.from('{"resourceType": "Patient", "id": "x"}') })],
    ['a truncated body', (a: Parameters<NonNullable<Proxy['answer']>>[0]) => ({ ...a, body: a.body?.slice(0, 40) })],
  ])('refuses %s as a bad response', async (_, answer) => {
    const { reads: r } = await reads(undefined, { answer: (a, url) => (url.includes('/Composition?') ? answer(a) : a) });
    expect(await failureOf(r.getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('bad-response');
  });

  it('gives up a call past its deadline as a timeout', async () => {
    sim = await startDemoSim();
    const slow = recordingExchange();
    const client = clientFor(sim, { exchange: async (url, init) => { await new Promise((done) => setTimeout(done, 50)); return slow(url, init); } });
    const r = fhirReads({ ...readsOptions(client), callTimeoutMs: 30 });
    expect(await failureOf(r.getJournalNotes?.(TOLVAN, YEAR_2025))).toBe('timeout');
  });
});
