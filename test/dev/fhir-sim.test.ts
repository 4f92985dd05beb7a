/** The FHIR development server: Medplum's router with what the contract's tests need added (paging links, metadata, ETags). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirSim } from '../../src/dev/fhir-sim/fhir-sim.js';
import { startDemoSim } from '../adapters/ehr-fhir/support/demo-sim.js';

let sim: FhirSim;
beforeAll(async () => {
  sim = await startDemoSim();
});
afterAll(() => sim.close());

const get = async (path: string) => {
  const res = await fetch(`${sim.baseUrl}/${path}`);
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
};

describe('the FHIR development server', () => {
  it('serves the resources it was given, with their versions, on loopback under /fhir', async () => {
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fhir$/);
    const { status, headers, json } = await get('Appointment/appt-0001');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(headers.get('etag')).toBe('W/"1"');
    expect(json).toMatchObject({ id: 'appt-0001', meta: { versionId: '1', lastUpdated: '2026-11-02T10:11:12Z' } });
  });

  it('writes self and next links and full URLs into a search\'s pages', async () => {
    const first = await get('Appointment?patient=Patient/pat-tolvan&_sort=date&_count=3');
    const next = (first.json.link as { relation: string; url: string }[]).find((l) => l.relation === 'next')?.url;
    expect(next).toBe(`${sim.baseUrl}/Appointment?patient=Patient%2Fpat-tolvan&_sort=date&_count=3&_offset=3`);
    expect((first.json.entry as { fullUrl: string }[])[0]?.fullUrl).toBe(`${sim.baseUrl}/Appointment/appt-0003`);
    const last = await (await fetch(next as string)).json() as { entry: unknown[]; link: { relation: string }[] };
    expect(last.entry).toHaveLength(1);
    expect(last.link.map((l) => l.relation)).toEqual(['self']);
  });

  it('answers metadata with a CapabilityStatement of FHIR 4.0.1', async () => {
    const { json } = await get('metadata');
    expect(json).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1' });
  });

  it('keeps the versioned update it offers: an update with a stale If-Match is refused (412), a current one accepted', async () => {
    const { json } = await get('Appointment/appt-0003');
    const put = (version: string) => fetch(`${sim.baseUrl}/Appointment/appt-0003`, {
      method: 'PUT', headers: { 'content-type': 'application/fhir+json', 'if-match': `W/"${version}"` }, body: JSON.stringify({ ...json, status: 'booked' }),
    });
    expect((await put('0')).status).toBe(412);
    const accepted = await put('1');
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('etag')).not.toBe('W/"1"');
  });

  it('answers a read and a search asked again after an update with what the update wrote (its kept answers, kept-answers.ts)', async () => {
    const search = 'Appointment?patient=Patient/pat-tolvan&_sort=date&_count=50';
    const statusIn = (bundle: Record<string, unknown>): unknown =>
      (bundle.entry as { resource: { id: string; status: string } }[]).find((e) => e.resource.id === 'appt-0002')?.resource.status;
    const before = await get('Appointment/appt-0002');
    expect((await get(search)).json).toEqual((await get(search)).json);
    const status = before.json.status === 'cancelled' ? 'booked' : 'cancelled';
    const put = await fetch(`${sim.baseUrl}/Appointment/appt-0002`, {
      method: 'PUT', headers: { 'content-type': 'application/fhir+json' }, body: JSON.stringify({ ...before.json, status }),
    });
    expect(put.status).toBe(200);
    const after = await get('Appointment/appt-0002');
    expect([after.json.status, after.headers.get('etag')]).toEqual([status, put.headers.get('etag')]);
    expect(statusIn((await get(search)).json)).toBe(status);
  });

  it('answers an OperationOutcome, never a stack trace, to what it cannot read', async () => {
    const res = await fetch(`${sim.baseUrl}/Patient`, { method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body: '{not json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await fetch(sim.baseUrl.replace('/fhir', '/other'))).status).toBe(404);
  });
});
