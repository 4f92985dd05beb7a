/**
 * Issue 56 item 4: a search over kept records answers from what is remembered of them (the resources
 * gathered once, gathered-resources.ts; what a query selects and in which order, remembered-matches.ts;
 * the Bundle assembled from each entry's kept bytes, searchset-bytes.ts). Its answers must be the very
 * bytes of the answers made without any of it: one app over the embedded EHR (kept, frozen records),
 * one over the same EHR answering fresh copies of its records (test/support/copying-ehr.ts), where no
 * memo finds anything and every Bundle is built and stringified as before. Every demo person, every
 * type, several parameter combinations, every page of a paged search followed to the end; each search
 * asked twice of the remembering app (the first makes what the second finds).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { KeptEntries } from '../../../src/http/fhir/searchset-bytes.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { get, NOW, smartToken } from './fhir-calls.js';
import { DATE_PARAMS } from './search-support.js';

interface Statement { rest: { resource: { type: string; searchInclude?: string[]; searchRevInclude?: string[] }[] }[] }
interface Page { total?: number; entry?: { resource: { id: string } }[]; link: { relation: string; url: string }[] }

/** A cursor is sealed for its caller's issuer, and each app has its own: the one part of two answers that may differ. */
const withoutCursors = (body: string): string => body.replace(/_cursor=[A-Za-z0-9_-]+/g, '_cursor=…');
const nextOf = (body: string): string | undefined => (JSON.parse(body) as Page).link.find((l) => l.relation === 'next')?.url;
const local = (url: string): string => url.slice(url.indexOf('/fhir/'));

describe('searches answered from kept records: the same bytes as answers made anew', () => {
  let kept: TestApp;
  let copies: TestApp;
  beforeAll(async () => {
    kept = await startTestApp({ now: NOW });
    copies = await startTestApp({ now: NOW, ehrAnswersCopies: true });
  }, 60_000);
  afterAll(async () => {
    await kept?.close();
    await copies?.close();
  });

  it('every demo person, every type, with and without parameters, includes and paging', async () => {
    const statement = JSON.parse((await get(kept, '/fhir/metadata')).body) as Statement;
    const types = (statement.rest[0]?.resource ?? []).filter((r) => r.type !== 'Consent' && r.type !== 'Subscription' && r.type !== 'AuditEvent');
    expect(types.length).toBeGreaterThan(8);
    let compared = 0;
    // How many entries were written from kept bytes: by the remembering app alone, and by it indeed.
    const entries = vi.spyOn(KeptEntries.prototype, 'of');
    let keptEntries = 0;
    for (const person of DEMO_PEOPLE) {
      const [keptToken, copiesToken] = [await smartToken(kept, person.id, 'patient/*.read'), await smartToken(copies, person.id, 'patient/*.read')];
      const ask = async (url: string, maxPages = 30): Promise<void> => {
        let [atKept, atCopies]: (string | undefined)[] = [url, url];
        for (let page = 0; atKept !== undefined && atCopies !== undefined && page < maxPages; page++) {
          const before = entries.mock.calls.length;
          const made = await get(copies, atCopies, copiesToken);
          expect(entries.mock.calls.length, 'an app over copies found something kept').toBe(before);
          for (let round = 0; round < 2; round++) {
            const calls = entries.mock.calls.length;
            const answered = await get(kept, atKept, keptToken);
            keptEntries += entries.mock.calls.length - calls;
            expect([person.id, atKept, answered.statusCode, answered.headers['content-type'], withoutCursors(answered.body)])
              .toEqual([person.id, atKept, made.statusCode, made.headers['content-type'], withoutCursors(made.body)]);
            expect(answered.headers['content-length']).toBe(made.headers['content-length']);
            compared++;
          }
          if (made.statusCode !== 200) return;
          const [nextKept, nextCopies] = [nextOf((await get(kept, atKept, keptToken)).body), nextOf(made.body)];
          expect(nextKept === undefined).toBe(nextCopies === undefined);
          [atKept, atCopies] = [nextKept === undefined ? undefined : local(nextKept), nextCopies === undefined ? undefined : local(nextCopies)];
        }
      };
      for (const { type, searchInclude = [], searchRevInclude = [] } of types) {
        await ask(`/fhir/${type}`);
        await ask(`/fhir/${type}?_count=2`);
        await ask(`/fhir/${type}?_count=0`);
        const includes = [...searchInclude.map((i) => `_include=${i}`), ...searchRevInclude.map((i) => `_revinclude=${i}`)];
        if (includes.length > 0) await ask(`/fhir/${type}?_count=3&${includes.join('&')}`);
        const date = (DATE_PARAMS as Record<string, string>)[type];
        if (date !== undefined) {
          await ask(`/fhir/${type}?${date}=ge2024-01-01&_count=4`);
          await ask(`/fhir/${type}?${date}=lt2025-06-01&${date}=ge2020-01-01`);
        }
        // An id of the person's own, alone and beside one that is nobody's.
        const first = (JSON.parse((await get(copies, `/fhir/${type}?_count=1`, copiesToken)).body) as Page).entry?.[0]?.resource.id;
        if (first !== undefined) await ask(`/fhir/${type}?_id=${first},no-such-id`);
      }
      await ask('/fhir/Composition?status=final&_count=5');
      await ask('/fhir/Observation?category=laboratory&_count=5');
      await ask('/fhir/Encounter?_count=2&_revinclude=Composition:encounter');
    }
    expect(compared).toBeGreaterThan(DEMO_PEOPLE.length * types.length * 6);
    expect(keptEntries).toBeGreaterThan(DEMO_PEOPLE.length * types.length * 10);
    entries.mockRestore();
  }, 300_000);
});
