/**
 * `EHR_ADAPTER=fhir-r4` through the HTTP API: the README's reads for Tolvan over the FHIR adapter
 * (the shared transport, the development FHIR server in this process) answer 200 and validate as
 * every read does (test/support/read-validators.ts); readiness follows the CapabilityStatement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_VALIDATORS } from '../../support/read-validators.js';
import { startFhirTestApp, type FhirTestApp } from '../../support/fhir-test-app.js';
import { MID_2025, TOLVAN } from './support/demo-bundle.js';
import { fhirReply, type FhirProxy } from './support/fhir-proxy.js';

describe('the fhir-r4 adapter behind the HTTP API', () => {
  let t: FhirTestApp;
  beforeAll(async () => {
    t = await startFhirTestApp({ now: MID_2025 });
  });
  afterAll(() => t.close());

  it('answers every read of Tolvan with 200, valid against its layout, and lab results and diagnoses with data', async () => {
    const token = await t.personToken(TOLVAN);
    for (const { url, validate } of READ_VALIDATORS) {
      const res = await t.call({ method: 'GET', url, token });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect([url, validate(res.json()) ? [] : validate.errors]).toEqual([url, []]);
    }
    const labs = (await t.call({ method: 'GET', url: '/patients/labresults/?fromDateTime=2025-01-01T00:00:00', token })).json() as { chemistryReportEHRExtract: unknown[] }[];
    expect(labs.flatMap((r) => r.chemistryReportEHRExtract)).toHaveLength(1);
  });

  it('is ready when the server lists every search parameter, and names the type and parameter when one is missing', async () => {
    expect(await t.ehr.ping()).toBe(true);
    expect(t.events.filter((e) => e.type === 'capability-missing')).toEqual([]);
  });

  it('answers an unknown person with the one refusal, never a 5xx', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken('195010102381') });
    expect(res.statusCode).toBe(403);
  });
});

describe('readiness of the fhir-r4 adapter', () => {
  it('stays ready, naming the type, the parameter and the read, when the CapabilityStatement lacks a search parameter one read sends (issue 57 item 4)', async () => {
    const t = await startFhirTestApp({ proxied: true });
    try {
      const proxy = t.proxy as FhirProxy;
      proxy.hook = async (seen, forward) => {
        const reply = await forward();
        if (!seen.url.endsWith('/metadata')) return reply;
        const statement = JSON.parse(reply.body.toString()) as { rest: { resource: { type: string; searchParam?: { name: string }[] }[] }[] };
        const condition = statement.rest[0]?.resource.find((r) => r.type === 'Condition');
        if (condition) condition.searchParam = condition.searchParam?.filter((p) => p.name !== 'recorded-date');
        return fhirReply(200, statement);
      };
      expect(await t.ehr.ping()).toBe(true);
      expect(t.events).toContainEqual({ type: 'capability-missing', resource: 'Condition', param: 'recorded-date' });
      expect(t.events).toContainEqual({ type: 'reads-unavailable', reads: ['getDiagnoses'] });
      const res = await t.call({ method: 'GET', url: '/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ unavailableReads: { getDiagnoses: "the region's EHR does not offer the searches it needs" } });
      // The read is refused before anything is sent: a server that lacks the parameter may answer nothing for it.
      const before = proxy.seen.filter((seen) => seen.url.includes('/Condition')).length;
      const diagnoses = await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(TOLVAN) });
      expect(diagnoses.statusCode).toBe(501);
      expect(proxy.seen.filter((seen) => seen.url.includes('/Condition')).length).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('reads the statement again only when it is 10 minutes old, but asks the server on every probe', async () => {
    const t = await startFhirTestApp({ proxied: true, now: MID_2025 });
    try {
      const proxy = t.proxy as FhirProxy;
      const reads = () => proxy.seen.filter((s) => s.url.endsWith('/metadata')).length;
      expect(await t.ehr.ping()).toBe(true);
      const first = reads();
      expect(await t.ehr.ping()).toBe(true);
      expect(reads()).toBe(first + 1);
      t.clock.advance(10 * 60_000);
      expect(await t.ehr.ping()).toBe(true);
      expect(reads()).toBe(first + 3);
      proxy.hook = async () => 'reset';
      expect(await t.ehr.ping()).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('paging of the fhir-r4 adapter', () => {
  it('follows next links up to FHIR_MAX_PAGES, and answers 502 rather than a cut answer when more pages are needed', async () => {
    const url = '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00';
    const paged = await startFhirTestApp({ now: MID_2025, adapter: { pageSize: 1, maxPages: 2 } });
    const capped = await startFhirTestApp({ now: MID_2025, adapter: { pageSize: 1, maxPages: 1 } });
    try {
      const whole = await paged.call({ method: 'GET', url, token: await paged.personToken(TOLVAN) });
      expect(whole.statusCode).toBe(200);
      expect((whole.json() as { JournalNoteEHRExtract: unknown[] }[])[0]?.JournalNoteEHRExtract).toHaveLength(2);
      const cut = await capped.call({ method: 'GET', url, token: await capped.personToken(TOLVAN) });
      expect(cut.statusCode).toBe(502);
      expect(cut.body).not.toContain('Composition');
    } finally {
      await Promise.all([paged.close(), capped.close()]);
    }
  });
});
