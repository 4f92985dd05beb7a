/**
 * A FHIR server that answers a client only within one patient's record, as this service's own FHIR API
 * does (docs/fhir-api.md#one-dialect-in-and-out): the adapter names the read's patient in its `_id`
 * reads of each type the server's CapabilityStatement declares `patient` on (and only of those, since
 * a server may answer nothing for a parameter it does not know), and an answer the server withheld
 * records from (a SUBSETTED Bundle of the read's own searches) is marked so, for Patient-Data-Filtered.
 * Each failed before: the `_id` reads were refused with 400 by the service's own API, and a SUBSETTED
 * Bundle was read as a complete answer (test/e2e/fhir-chain.e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCapabilities, typesTakingPatient } from '../../../../src/adapters/ehr-fhir/client/capabilities.js';
import { FhirClient } from '../../../../src/adapters/ehr-fhir/client/fhir-client.js';
import type { FhirExchange } from '../../../../src/adapters/ehr-fhir/client/fhir-exchange.js';
import { fhirReads } from '../../../../src/adapters/ehr-fhir/client/fhir-reads.js';
import { PATIENT_FOLLOWS } from '../../../../src/adapters/ehr-fhir/client/follow-rules.js';
import { resolveMissing } from '../../../../src/adapters/ehr-fhir/client/reference-resolution.js';
import { ResourceIndex } from '../../../../src/adapters/ehr-fhir/resource-index.js';
import { checkedResource } from '../../../../src/adapters/ehr-fhir/schemas/index.js';
import type { FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { filteredUpstream } from '../../../../src/domain/release/filtered-upstream.js';
import { expectedAnswer, TOLVAN } from '../support/demo-bundle.js';
import { changedBody, clientFor, readsOf, readsOptions, recordingExchange, startDemoSim } from '../support/fhir-sim.js';

const BASE = 'https://fhir.example/R4';
const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };
const YEAR_2025 = { from: '20250101000000', to: '20251231235959' };

/** A server that answers every search with the Organization asked for by `_id`, recording each URL. */
function organizationServer(): FhirExchange & { urls: string[] } {
  const urls: string[] = [];
  const exchange: FhirExchange = async (url) => {
    urls.push(url);
    const id = new URL(url).searchParams.get('_id') ?? '';
    const body = { resourceType: 'Bundle', type: 'searchset', entry: [{ fullUrl: `${BASE}/Organization/${id}`, resource: { resourceType: 'Organization', id, name: 'VC' } }] };
    return { status: 200, headers: { 'content-type': 'application/fhir+json' }, body: JSON.stringify(body) };
  };
  return Object.assign(exchange, { urls });
}

/** The Patient of a read, its managing unit by reference only (as a lookup without includes leaves it). */
const patient = checkedResource('Patient', { resourceType: 'Patient', id: 'pat-1', managingOrganization: { reference: 'Organization/org-1' } });

describe('what the adapter reads by _id names the patient where the server binds the type to one', () => {
  const resolve = async (types: ReadonlySet<string>) => {
    const exchange = organizationServer();
    const client = new FhirClient({ baseUrl: BASE, exchange, pageSize: 100, maxPages: 20 });
    const index = new ResourceIndex(BASE);
    index.add(patient);
    let asked = 0;
    await resolveMissing(client, index, [patient], PATIENT_FOLLOWS, undefined, { patientId: 'pat-1', types: async () => { asked++; return types; } });
    return { urls: exchange.urls, asked, found: index.get({ reference: 'Organization/org-1' }, 'Organization')?.id };
  };

  it('sends patient=Patient/<id> after _id for a type the CapabilityStatement declares patient on', async () => {
    expect(await resolve(new Set(['Organization']))).toEqual({ urls: [`${BASE}/Organization?_id=org-1&patient=Patient/pat-1&_count=100`], asked: 1, found: 'org-1' });
  });

  it('sends _id alone for a type it does not declare patient on', async () => {
    expect(await resolve(new Set(['Observation']))).toEqual({ urls: [`${BASE}/Organization?_id=org-1&_count=100`], asked: 1, found: 'org-1' });
  });

  it('asks for the types only when something is to be read', async () => {
    const index = new ResourceIndex(BASE);
    index.add(patient);
    index.add({ resourceType: 'Organization', id: 'org-1' });
    let asked = 0;
    const client = new FhirClient({ baseUrl: BASE, exchange: organizationServer(), pageSize: 100, maxPages: 20 });
    await resolveMissing(client, index, [patient], PATIENT_FOLLOWS, undefined, { patientId: 'pat-1', types: async () => { asked++; return new Set(); } });
    expect(asked).toBe(0);
  });

  it('reads the types from the statement: those whose searchParam (or the statement\'s common ones) name patient', () => {
    const statement = {
      resourceType: 'CapabilityStatement', fhirVersion: '4.0.1',
      rest: [{ mode: 'server', resource: [
        { type: 'Organization', searchParam: [{ name: '_id', type: 'token' }, { name: 'patient', type: 'reference' }] },
        { type: 'Practitioner', searchParam: [{ name: '_id', type: 'token' }] },
      ] }],
    };
    expect([...typesTakingPatient(readCapabilities(statement))]).toEqual(['Organization']);
    expect([...typesTakingPatient(undefined)]).toEqual([]);
  });
});

describe('an answer the server withheld records from', () => {
  let sim: FhirSim;
  beforeAll(async () => {
    sim = await startDemoSim();
  });
  afterAll(() => sim.close());

  /** Tolvan's journal notes of 2025, the answers to URLs containing `where` tagged SUBSETTED. */
  const notesTagging = (where: string) => {
    const exchange = recordingExchange({
      answer: (answer, url) => (url.includes(where) ? changedBody(answer, (json) => { json.meta = { tag: [SUBSETTED] }; }) : answer),
    });
    return readsOf(clientFor(sim, { exchange })).getJournalNotes?.(TOLVAN, YEAR_2025);
  };

  it('is marked when a search of the read is SUBSETTED, its records those the server gave', async () => {
    const notes = await notesTagging('/Composition?');
    expect(notes).toStrictEqual(expectedAnswer('journalnotes.json'));
    expect(filteredUpstream(notes ?? [])).toBe(true);
  });

  it('is not marked when nothing is, nor for a SUBSETTED read of a referenced resource by _id (the server may withhold from another read there)', async () => {
    expect(filteredUpstream(await notesTagging('/nothing?') ?? [])).toBe(false);
    expect(filteredUpstream(await notesTagging('/Organization?_id=') ?? [])).toBe(false);
  });

  it('never writes the mark into the answer', async () => {
    const notes = await notesTagging('/Composition?');
    expect(JSON.parse(JSON.stringify(notes))).toStrictEqual(expectedAnswer('journalnotes.json'));
    expect(Object.keys(notes ?? [])).toEqual(['0']);
  });

  it('names the patient in no _id read of a server whose statement could not be read (none declared)', async () => {
    const exchange = recordingExchange({ url: (url) => url.replace(/&_include(:iterate)?=[^&]*/g, '') });
    const reads = fhirReads({ ...readsOptions(clientFor(sim, { exchange })), patientBoundTypes: async () => typesTakingPatient(undefined) });
    await reads.getJournalNotes(TOLVAN, YEAR_2025);
    const fetched = exchange.urls.filter((u) => u.includes('?_id='));
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.filter((u) => u.includes('patient='))).toEqual([]);
  });
});
