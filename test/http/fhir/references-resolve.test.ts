/**
 * Issue 45 items 9 and 10: every reference resolves with the same token (R4 references; what a patient app
 * does when it follows a link). For every demo person, with that person's `patient/*.read` token: every
 * record of every patient-compartment type, and every resource any of them names, read by id, and what
 * those name in turn, until nothing new is named. A contained resource (`#id`) must be in its container.
 *
 * Failed before: MedicationRequest.encounter named `Encounter/000241225155` where the Encounter search
 * serves the same contact as `00241225155` (404), and journal notes' `Composition.section.entry` named
 * `Observation/<digest>` ids that were neither readable nor among `Observation?patient=` (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { get, matchesOf, NOW, smartToken, type Resource } from './fhir-calls.js';
import { allPages, DATED_TYPES } from './search-support.js';

const SEARCHED = ['Patient', 'RelatedPerson', ...DATED_TYPES] as const;

/** Every `reference` in a resource, with the path it was found at (contained resources walked as part of it). */
function referencesOf(value: unknown, at = ''): { path: string; reference: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesOf(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'reference' && typeof v === 'string' ? [{ path: at, reference: v }] : referencesOf(v, `${at}.${k}`)));
}

describe('every reference of every demo person\'s resources resolves with the same token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it.each(DEMO_PEOPLE.map((p) => [p.id]))('%s: each one read by id answers 200, its contained ones in it', async (person) => {
    const token = await smartToken(t, person, 'patient/*.read');
    const known = new Map<string, Resource>();
    for (const type of SEARCHED) {
      for (const r of (await allPages(t, `/fhir/${type}?_count=500`, token)).flatMap(matchesOf)) known.set(`${r.resourceType}/${r.id}`, r);
    }
    expect(known.size, 'records to walk').toBeGreaterThan(2);
    const unresolved: string[] = [];
    let read = 0;
    for (let queue = [...known.values()]; queue.length > 0;) {
      const next: Resource[] = [];
      for (const resource of queue) {
        const contained = new Set(((resource.contained ?? []) as Resource[]).map((c) => `#${c.id}`));
        for (const { path, reference } of referencesOf(resource)) {
          const where = `${resource.resourceType}/${resource.id}${path} → ${reference}`;
          if (reference.startsWith('#')) {
            if (!contained.has(reference)) unresolved.push(`${where}: not contained`);
            continue;
          }
          if (!/^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.test(reference)) {
            unresolved.push(`${where}: not a relative Type/id`);
            continue;
          }
          if (known.has(reference)) continue;
          const res = await get(t, `/fhir/${reference}`, token);
          read++;
          if (res.statusCode !== 200) {
            unresolved.push(`${where}: ${res.statusCode}`);
            known.set(reference, { resourceType: 'unresolved', id: reference });
            continue;
          }
          const found = JSON.parse(res.body) as Resource;
          known.set(reference, found);
          next.push(found);
        }
      }
      queue = next;
    }
    expect(unresolved).toEqual([]);
    expect(read).toBeGreaterThan(0);
  }, 120_000);
});
