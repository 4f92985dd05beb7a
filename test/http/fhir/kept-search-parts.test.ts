/**
 * The parts of a search answered from kept records (issue 56 item 4), each held to what it stands in
 * for: a searchset's bytes to `JSON.stringify(searchset(…))` (searchset-bytes.ts), the gathered
 * resources to gathering anew (gathered-resources.ts), a remembered selection and order to selecting
 * and sorting anew (remembered-matches.ts). kept-bundles.test.ts holds whole answers to answers made anew.
 */
import { describe, expect, it } from 'vitest';
import { searchset, type BundlePage } from '../../../src/http/fhir/bundle.js';
import { GatheredResources } from '../../../src/http/fhir/gathered-resources.js';
import { RememberedMatches, selectionKey } from '../../../src/http/fhir/remembered-matches.js';
import { KeptEntries, searchsetBody } from '../../../src/http/fhir/searchset-bytes.js';
import { JsonAnswer } from '../../../src/http/serialization/json-answer.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';

const BASE = 'https://fhir.example.se/region';
const frozenWhole = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozenWhole(inner);
  }
  return value;
};
const note = (id: string, date: string, text = 'Anteckning'): FhirResource => ({
  resourceType: 'Composition', id, date, title: text, section: [{ text: { div: `<div xmlns="http://www.w3.org/1999/xhtml">${text} "citat" \\ \u2028</div>` } }],
});

describe('searchsetBody', () => {
  const kept = [note('a', '2025-01-02', 'Åsa mår bättre 😀'), note('b', '2025-03-04'), note('c', '2024-12-31', 'tab\there')].map(frozenWhole);
  const pages: [string, BundlePage][] = [
    ['a page with a next link', { total: 7, matches: kept.slice(0, 2), includes: [], self: `${BASE}/fhir/Composition?_count=2`, next: `${BASE}/fhir/Composition?_count=2&_cursor=x`, subsetted: false }],
    ['subsetted, with includes', { total: 2, matches: kept.slice(0, 1), includes: kept.slice(2), self: `${BASE}/fhir/Composition?_include=a:b`, subsetted: true }],
    ['uncounted', { matches: kept, includes: [], self: `${BASE}/fhir/AuditEvent`, subsetted: false }],
  ];

  it.each(pages)('%s: the bytes JSON.stringify writes, the second time too', (_name, page) => {
    const entries = new KeptEntries();
    for (let round = 0; round < 2; round++) {
      const body = searchsetBody(BASE, page, entries);
      expect(body).toBeInstanceOf(JsonAnswer);
      const bytes = (body as JsonAnswer).copy();
      expect(bytes.toString('utf8')).toBe(JSON.stringify(searchset(BASE, page)));
      expect((body as JsonAnswer).byteLength).toBe(bytes.length);
    }
  });

  it('writes the entry again for another base', () => {
    const entries = new KeptEntries();
    const page = pages[0]?.[1] as BundlePage;
    searchsetBody(BASE, page, entries);
    const other = searchsetBody('https://other.example', page, entries) as JsonAnswer;
    expect(other.copy().toString()).toBe(JSON.stringify(searchset('https://other.example', page)));
  });

  it('answers the Bundle to stringify where a resource is not kept, or the page is empty', () => {
    const loose = note('d', '2025-01-01');
    const page: BundlePage = { total: 2, matches: [kept[0] as FhirResource, loose], includes: [], self: `${BASE}/fhir/Composition`, subsetted: false };
    expect(searchsetBody(BASE, page, new KeptEntries())).toEqual(searchset(BASE, page));
    const empty: BundlePage = { total: 0, matches: [], includes: [], self: `${BASE}/fhir/Composition`, subsetted: false };
    expect(searchsetBody(BASE, empty, new KeptEntries())).toEqual(searchset(BASE, empty));
  });
});

describe('GatheredResources', () => {
  const [a, b, c] = [note('a', '2025-01-01'), note('b', '2025-01-02'), note('c', '2025-01-03')].map(frozenWhole) as [FhirResource, FhirResource, FhirResource];
  const notes = Object.freeze([a, b]);
  const more = Object.freeze([b, c]);

  it('gathers each Type/id once, from the first read that wrote it, and finds the same parts again', () => {
    const gathered = new GatheredResources();
    const parts = [{ read: 'getJournalNotes' as const, resources: notes }, { read: 'getDiagnoses' as const, resources: more }];
    const first = gathered.of(parts);
    expect(first.resources).toEqual([a, b, c]);
    expect([...first.readOf]).toEqual([['Composition/a', 'getJournalNotes'], ['Composition/b', 'getJournalNotes'], ['Composition/c', 'getDiagnoses']]);
    expect(gathered.of([...parts, { read: 'getDiagnoses' as const, resources: [] }]).resources).toBe(first.resources);
    // Other parts, or the same in another order, are gathered anew.
    const reordered = gathered.of([...parts].reverse());
    expect(reordered.resources).toEqual([b, c, a]);
    expect([...reordered.readOf.values()]).toEqual(['getDiagnoses', 'getDiagnoses', 'getJournalNotes']);
  });

  it('gathers anew where a resource is not kept', () => {
    const gathered = new GatheredResources();
    const loose = Object.freeze([a, note('d', '2025-01-04')]);
    const parts = [{ read: 'getJournalNotes' as const, resources: loose }];
    expect(gathered.of(parts).resources).not.toBe(gathered.of(parts).resources);
    expect(gathered.of(parts).resources).toEqual(loose);
  });
});

describe('RememberedMatches', () => {
  const resources = Object.freeze([note('b', '2025-02-01'), note('a', '2025-03-01'), note('c', '2025-01-01')].map(frozenWhole));
  const byDate = (m: readonly FhirResource[]): FhirResource[] => [...m].sort((x, y) => String(x.date).localeCompare(String(y.date)));
  const key = (type: string, code?: string) => selectionKey({
    type, dates: [], tokens: new Map(), references: new Map(), own: ['getJournalNotes'],
    typeGrants: code === undefined ? [] : [{ context: 'patient', type, interactions: new Set(['search']), category: { code } }],
  });

  it('selects and sorts once per array and key, the answers those of selecting and sorting anew', () => {
    const memo = new RememberedMatches();
    let selected = 0;
    const select = () => {
      selected++;
      return resources.filter((r) => r.id !== 'a');
    };
    const first = memo.of(resources, key('Composition'), select);
    const again = memo.of(resources, key('Composition'), select);
    expect(again).toBe(first);
    expect(selected).toBe(1);
    expect(again.matches).toEqual(resources.filter((r) => r.id !== 'a'));
    expect(first.sorted(byDate).map((r) => r.id)).toEqual(['c', 'b']);
    expect(again.sorted(() => [])).toBe(first.sorted(byDate));
    // Another category restriction, or another type, is another selection.
    memo.of(resources, key('Composition', 'x'), select);
    memo.of(resources, key('Encounter'), select);
    expect(selected).toBe(3);
    // A referenced type's selection for callers whose access reaches other reads (a proxy's, the patient's) is another.
    const parties = (reached: string[]) => selectionKey({ type: 'Organization', dates: [], tokens: new Map(), references: new Map(), own: ['getJournalNotes'], typeGrants: [], reached });
    memo.of(resources, parties(['getJournalNotes']), select);
    memo.of(resources, parties(['getJournalNotes', 'getContacts']), select);
    expect(selected).toBe(5);
  });

  it('selects anew for an array that is not frozen', () => {
    const memo = new RememberedMatches();
    const loose = [...resources];
    expect(memo.of(loose, key('Composition'), () => [...loose])).not.toBe(memo.of(loose, key('Composition'), () => [...loose]));
  });
});
