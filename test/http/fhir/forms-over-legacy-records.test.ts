/**
 * The reads' FHIR forms over the legacy EHR's records (the embedded EHR's demo documents), which the
 * round-trip proofs in each read's folder do not see: there a legacy `ehrId` names the patient's
 * whole record, the same for every extract, so a form that took its ids from it answered one
 * Encounter for eighteen care contacts. Each extract must give resources of its own, and one
 * Type/id never stands for two different resources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { READ_NAMES, type ReadItem, type ReadName } from '../../../src/domain/operations/table.js';
import type { FhirForm, FhirResource } from '../../../src/reads/as-fhir.js';
import { fhirForms } from '../../../src/start/fhir-api.js';
import { asFhirContext } from '../../support/as-fhir-round-trip.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const NOW = Date.parse('2026-11-21T08:00:00Z');
/** One Patient however many extracts: the patient reads answer the person, whose older versions are not resources of their own. */
const ONE_RESOURCE_PER_ANSWER: ReadonlySet<ReadName> = new Set(['getPatient', 'getPatientV2']);

type Item = Record<string, unknown>;
const keyOf = (r: FhirResource): string => `${r.resourceType}/${r.id}`;

/** An item's array of records (`contactEHRExtract` …, a booking source's `Booking`), where the item holds its records so. */
const extractsOf = (item: Item): [string, unknown[]] | undefined =>
  Object.entries(item).find((e): e is [string, unknown[]] => /extract$|^Booking$/i.test(e[0]) && Array.isArray(e[1]) && e[1].length > 0)
  ?? Object.entries(item).find((e): e is [string, unknown[]] => /^RegisteredBooking$/.test(e[0]) && Array.isArray(e[1]));

/** The items less one record: the extract at `skip` of item `itemIndex`, or that whole item where it is the record. */
function without(items: readonly Item[], itemIndex: number, skip: number): Item[] {
  const item = items[itemIndex] as Item;
  const extracts = extractsOf(item);
  if (extracts === undefined) return items.filter((_, i) => i !== itemIndex);
  const [name, list] = extracts;
  return items.map((it, i) => (i === itemIndex ? { ...it, [name]: list.filter((_, j) => j !== skip) } : it));
}

/** How many records each item holds: its extracts, or itself. */
const recordCounts = (items: readonly Item[]): number[] => items.map((item) => extractsOf(item)?.[1].length ?? 1);

describe('the FHIR forms over the legacy EHR\'s records', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  const forms = fhirForms();
  for (const read of READ_NAMES.filter((r) => forms[r] !== undefined)) {
    it(`${read}: one Type/id is one resource, and every extract gives resources of its own`, async () => {
      const form = forms[read] as FhirForm<ReadName>;
      let extracts = 0;
      for (const person of DEMO_PEOPLE) {
        const items = await (t.ehr.reads[read] as (n: string, r: object) => Promise<ReadItem<ReadName>[]>)(person.id, {}) as unknown as Item[];
        const ctx = asFhirContext(person);
        const all = form.resources(items as never, ctx);
        const seen = new Map<string, string>();
        for (const r of all) {
          const json = JSON.stringify(r);
          expect(seen.get(keyOf(r)) ?? json, `${person.id}: ${keyOf(r)} stands for two resources`).toBe(json);
          seen.set(keyOf(r), json);
        }
        if (ONE_RESOURCE_PER_ANSWER.has(read)) continue;
        const recordKeys = new Set(all.filter((r) => form.types.includes(r.resourceType)).map(keyOf));
        recordCounts(items).forEach((count, i) => {
          for (let skip = 0; skip < count; skip++) {
            extracts++;
            const fewer = new Set(form.resources(without(items, i, skip) as never, ctx).filter((r) => form.types.includes(r.resourceType)).map(keyOf));
            expect(fewer.size, `${person.id}: record ${skip} of item ${i} has no resource of its own`).toBeLessThan(recordKeys.size);
          }
        });
      }
      if (!ONE_RESOURCE_PER_ANSWER.has(read)) expect(extracts, 'not a proof over nothing').toBeGreaterThan(0);
    }, 60_000);
  }
});
