/**
 * Equivalence (docs/upstream-fhir.md#equivalence): the service started twice for one moment, over
 * the embedded XML EHR and over `fhir-r4` with the development FHIR server serving the same demo
 * people (both forms written from one description), answers every read of the operation table the
 * same for every demo person through the HTTP API, member by member, except where the FHIR interface
 * description makes a difference. Those are the `differences` each read's folder states by hand (its
 * oracles.ts, written with the rules of support/differences.ts), each with its section of
 * docs/upstream-fhir.md (and of the FHIR description it follows), held to the values its
 * rule gives where the rule can be checked value by value; a member it leaves absent must be absent
 * over FHIR. Its `alignments` hold the few rules that change a whole answer rather than a member.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { isXmlRead } from '../../../src/adapters/ehr-xml/documents.js';
import { READ_PLANS } from '../../../src/adapters/ehr-fhir/client/read-plans.js';
import { READ_NAMES, type ReadName } from '../../../src/domain/operations/table.js';
import { routeByOperation, urlOf } from '../../security/support/routes.js';
import { startTestApp, startTestAppOn, type AnyTestApp, type TestApp } from '../../support/test-app.js';
import { recipe, statedBy, statedOf } from '../../support/read-oracles.js';
import { alignments, unexplained, type Difference, type Json } from './support/differences.js';

const NOW = Date.parse('2026-11-21T08:00:00Z');
const ALL_TIME: [string, string][] = [['fromDateTime', '1900-01-01T00:00:00'], ['toDateTime', '2100-12-31T23:59:59']];

const ALIGN = alignments(NOW);
/**
 * The reads compared: those both EHRs have data for; a read declared NOT_SERVED by either (its
 * folder's sources.ts) answers [] there and has nothing to compare. The first test holds to it.
 */
const SERVED_BY_BOTH = READ_NAMES.filter((read) => isXmlRead(read) && READ_PLANS[read] !== undefined);
const COMPARED = SERVED_BY_BOTH;

describe('the same answers through fhir-r4 and through the embedded XML EHR', () => {
  let xml: TestApp;
  let fhir: AnyTestApp;
  beforeAll(async () => {
    xml = await startTestApp({ now: NOW });
    fhir = await startTestAppOn('fhir-r4', { now: NOW });
  }, 60_000);
  afterAll(async () => {
    await xml.close();
    await fhir.close();
  });

  const answers = async (read: ReadName, person: string): Promise<{ status: [number, number]; xml: Json[]; fhir: Json[] }> => {
    const route = routeByOperation(read);
    const url = urlOf(route, route.declaredQuery.includes('fromDateTime') ? ALL_TIME : []);
    const overXml = await xml.call({ method: 'GET', url, token: await xml.personToken(person) });
    const overFhir = await fhir.call({ method: 'GET', url, token: await fhir.personToken(person) });
    const align = ALIGN[read] ?? ((items: unknown[]) => items);
    return {
      status: [overXml.statusCode, overFhir.statusCode],
      xml: overXml.statusCode === 200 ? align(overXml.json() as unknown[]) as Json[] : [],
      fhir: overFhir.statusCode === 200 ? align(overFhir.json() as unknown[]) as Json[] : [],
    };
  };

  it('compares every read both EHRs serve, and lists differences only of those', () => {
    const declared = READ_NAMES.filter((read) => !SERVED_BY_BOTH.includes(read));
    const listedButNotCompared = [...statedBy('differences').keys()].filter((read) => !COMPARED.includes(read));
    expect(listedButNotCompared, `${recipe('differences')}: a read one EHR declares not served`).toEqual([]);
    expect([...COMPARED, ...declared].sort()).toEqual([...READ_NAMES].sort());
  });

  for (const read of COMPARED) {
    it(`${read}: every member equal for every demo person, but the differences the FHIR description makes`, async () => {
      const allowed = statedOf(read, 'differences');
      const used = new Set<Difference>();
      let compared = 0;
      for (const person of DEMO_PEOPLE) {
        const { status, xml: a, fhir: b } = await answers(read, person.id);
        expect(status, `${person.id} ${read}`).toEqual([200, 200]);
        expect(b.length, `${person.id} ${read}: items`).toBe(a.length);
        expect(unexplained(a, b, allowed, used), `${person.id} ${read}: differences not in the ${recipe('differences', read)}`).toEqual([]);
        compared += JSON.stringify(a).length;
      }
      // Not a comparison of nothing, and no difference listed that the data never shows.
      expect(compared).toBeGreaterThan(1000);
      expect(allowed.filter((d) => !used.has(d)).map((d) => d.member), `listed in the ${recipe('differences', read)}, never shown`).toEqual([]);
    }, 60_000);
  }

});
