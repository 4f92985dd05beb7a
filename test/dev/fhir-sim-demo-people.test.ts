/**
 * The development FHIR server serving the demo people (what `npm run fhir-sim` loads by default):
 * each person is found by the identity lookup, every read the FHIR client offers answers them, and
 * the answers name the same records as the embedded EHR's XML documents generated for the same
 * moment (the two forms come from one description and must not drift).
 */
import { describe, expect, it } from 'vitest';
import { READ_PLANS } from '../../src/adapters/ehr-fhir/client/read-plans.js';
import { DEMO_ACTOR_ID, DEMO_PEOPLE, UNKNOWN_PATIENT_ID } from '../../src/dev/demo-data/people.js';
import { isCoordinationNumber } from '../../src/domain/identity/person-number-systems.js';
import type { ReadName } from '../../src/domain/operations/table.js';
import { clientFor, readsOf, registryOf } from '../adapters/ehr-fhir/support/fhir-sim.js';
import { demoBothFormsForTests } from '../support/demo-both-forms.js';
import { recipe, statedOf } from '../support/read-oracles.js';

const ZONE = 'Europe/Stockholm';
const NOW = Date.parse('2026-11-21T08:00:00Z');
const ALL = { from: '19000101000000', to: '21001231235959' };

const demo = demoBothFormsForTests(NOW, ZONE);

describe('the development FHIR server with the demo people', () => {
  it('answers Patient?identifier=… with exactly one Patient for each demo person, none for the unknown one', async () => {
    const lookup = async (id: string) => {
      const system = isCoordinationNumber(id) ? 'samordningsnummer' : 'personnummer';
      const res = await fetch(`${demo.sim.baseUrl}/Patient?identifier=http://electronichealth.se/identifier/${system}%7C${id}`);
      return ((await res.json()) as { entry?: { resource: { identifier: { value: string }[] } }[] }).entry ?? [];
    };
    for (const person of DEMO_PEOPLE) {
      const found = await lookup(person.id);
      expect(found.map((e) => e.resource.identifier[0]?.value), person.id).toEqual([person.id]);
    }
    expect(await lookup(UNKNOWN_PATIENT_ID)).toEqual([]);
  });

  it('every read of the FHIR client names the same records as the embedded EHR, for every demo person', async () => {
    const reads = readsOf(clientFor(demo.sim));
    const compared: string[] = [];
    for (const person of DEMO_PEOPLE) {
      for (const read of Object.keys(READ_PLANS) as ReadName[]) {
        // What names a record in the read's answer, the same in both forms whatever else differs: as the
        // read's folder states it by hand (`keys` of its oracles.ts).
        const keys = (answer: unknown[]): string[] => statedOf(read, 'keys')(answer, NOW);
        const overFhir = await (reads[read] as (id: string, r: typeof ALL) => Promise<unknown[]>)(person.id, ALL);
        const overXml = await (demo.embedded.reads[read] as (id: string, r: typeof ALL) => Promise<unknown[]>)(person.id, ALL);
        expect(keys(overFhir).sort(), `${person.id} ${read}, by the ${recipe('keys', read)}`).toEqual(keys(overXml).sort());
        compared.push(...keys(overFhir));
      }
    }
    // Not a comparison of nothing: the demo people have records in every read.
    expect(compared.length).toBeGreaterThan(100);
  }, 90_000);

  it('gives the demo actor the same registry rows as the XML registry', async () => {
    const rows = await registryOf(clientFor(demo.sim))(DEMO_ACTOR_ID);
    expect(rows).toHaveLength(5);
    expect(rows).toEqual(expect.arrayContaining(await demo.embedded.relationshipsOf(DEMO_ACTOR_ID)));
  });
});
