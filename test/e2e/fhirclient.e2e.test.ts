/**
 * A real SMART client against the FHIR API (docs/fhir-api.md): fhirclient's Node entry, given a
 * person's token and the API's base URL and nothing else (no subscription key: SMART apps send no
 * custom headers), reads every demo person's Patient, finds the patient search parameter of
 * Observation in the CapabilityStatement (`client.patient.request`), and follows every page of a
 * search (`pageLimit: 0`, one match a page) to the same matches, and as many, as the Bundle's total.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../support/fhirclient-storage.js';
import { DEMO_PEOPLE } from '../../src/dev/demo-data/people.js';
import { startTestApp, TEST_FHIR_IDS, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-21T08:00:00Z');

interface Res { resourceType: string; id: string }
interface SearchSet { resourceType: 'Bundle'; total: number; link: { relation: string; url: string }[]; entry?: { resource: Res }[] }

/**
 * The part of fhirclient this test drives. Loaded by require, not imported: fhirclient's type
 * declarations pull in the DOM library, whose fetch types would change the whole project's.
 */
interface SmartClient {
  patient: { read(): Promise<unknown>; request(type: string, options: { flat: boolean; pageLimit: number }): Promise<unknown> };
  request<T = unknown>(url: string, options?: { flat: boolean; pageLimit: number }): Promise<T>;
}
type Smart = (request: object, response: object, storage: object) => { client(state: object): SmartClient };
const smart = createRequire(import.meta.url)('fhirclient/lib/entry/node') as Smart;

describe('fhirclient (Node) against the FHIR API', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // As the service does once listening without PUBLIC_BASE_URL: links name the bound address.
    if (t.fhir !== undefined) t.fhir.publicBaseUrl = address;
    base = `${address}/fhir`;
  }, 60_000);
  afterAll(async () => t.close());

  const clientFor = async (person: string) => {
    const token = await t.personToken(person, { client_id: 'smart-app-1', scope: 'patient/*.read' });
    return smart({ headers: {}, url: '/' }, {}, memoryStorage()).client({
      serverUrl: base, tokenResponse: { access_token: token, token_type: 'bearer', patient: TEST_FHIR_IDS.patientId(person) },
    });
  };

  it('reads each demo person, their Observations through the CapabilityStatement, and every page of a search', async () => {
    let observations = 0;
    let pagedPeople = 0;
    for (const person of DEMO_PEOPLE) {
      const client = await clientFor(person.id);
      const patient = await client.patient.read() as Res & { identifier?: { value: string }[] };
      expect([patient.resourceType, patient.id]).toEqual(['Patient', TEST_FHIR_IDS.patientId(person.id)]);
      expect(patient.identifier?.map((i) => i.value)).toContain(person.id);

      // fhirclient finds Observation's patient parameter in the CapabilityStatement, then follows every page.
      const viaPatient = await client.patient.request('Observation', { flat: true, pageLimit: 0 }) as Res[];
      const all = await client.request<SearchSet>(`Observation?patient=${patient.id}&_count=500`);
      expect(viaPatient.map((r) => r.id)).toEqual((all.entry ?? []).map((e) => e.resource.id));
      expect([person.id, viaPatient.length]).toEqual([person.id, all.total]);
      observations += viaPatient.length;

      // One match a page: fhirclient follows the `next` links to the end, flat (the resources) and not (the Bundles).
      const paged = await client.request(`Condition?patient=${patient.id}&_count=1`, { flat: true, pageLimit: 0 }) as Res[];
      const pages = await client.request(`Condition?patient=${patient.id}&_count=1`, { flat: false, pageLimit: 0 }) as SearchSet[];
      const conditions = await client.request<SearchSet>(`Condition?patient=${patient.id}&_count=500`);
      expect(paged.map((r) => r.id)).toEqual((conditions.entry ?? []).map((e) => e.resource.id));
      expect([person.id, paged.length]).toEqual([person.id, conditions.total]);
      // Every page says the same total; an empty search is one page of none.
      expect(pages.map((p) => p.total)).toEqual(pages.map(() => conditions.total));
      expect(pages.length).toBe(Math.max(1, conditions.total));
      // The links fhirclient followed name the Patient by its id, never by the identity number.
      expect(pages.flatMap((p) => p.link.map((l) => l.url)).filter((u) => u.includes(person.id))).toEqual([]);
      if (pages.length > 1) pagedPeople++;
    }
    // Not a proof over nothing: Observations were read, and several people's Conditions took more than one page.
    expect(observations).toBeGreaterThan(5);
    expect(pagedPeople).toBeGreaterThan(1);
  }, 60_000);
});
