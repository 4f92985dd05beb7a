/**
 * docs/fhir-api.md#search and #bundles: the parameters a search takes, the order of its matches,
 * paging by signed cursors bound to caller, patient and query, and what includes add.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PUBLIC_BASE_URL, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, includesOf, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';

const nextOf = (b: Bundle): string | undefined => b.link.find((l) => l.relation === 'next')?.url;
const selfOf = (b: Bundle): string => b.link.find((l) => l.relation === 'self')?.url ?? '';
/** A link of the answers as a path this test app takes. */
const local = (url: string): string => url.slice(TEST_PUBLIC_BASE_URL.length);
const ids = (rs: readonly Resource[]): string[] => rs.map((r) => `${r.resourceType}/${r.id}`);

describe('FHIR search: parameters, order, paging and includes', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.read');
  }, 60_000);
  afterAll(async () => t.close());

  const search = async (url: string): Promise<Bundle> => bundleOf(await get(t, url, token));

  it('pages of two, followed by their next links, give every match once, in the order of one page of all', async () => {
    const all = await search('/fhir/Observation?_count=500');
    expect(all.total).toBeGreaterThan(4);
    const seen: Resource[] = [];
    let url: string | undefined = '/fhir/Observation?_count=2';
    let pages = 0;
    while (url !== undefined && pages < 50) {
      const page = await search(url);
      expect(page.total).toBe(all.total);
      expect(matchesOf(page).length).toBeLessThanOrEqual(2);
      seen.push(...matchesOf(page));
      const next = nextOf(page);
      url = next === undefined ? undefined : local(next);
      pages++;
    }
    expect(ids(seen)).toEqual(ids(matchesOf(all)));
    expect(pages).toBe(Math.ceil((all.total ?? 0) / 2));
  });

  it('sorts matches by their date, oldest first, then by id', async () => {
    const notes = matchesOf(await search('/fhir/Composition'));
    const keys = notes.map((n) => [Date.parse(n.date as string), n.id] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
    expect(notes.length).toBeGreaterThan(2);
  });

  it('refuses a cursor that was edited, or used by another person, for another patient or another query', async () => {
    const first = await search('/fhir/Observation?_count=2');
    const next = local(nextOf(first) as string);
    const cursor = new URL(next, 'http://x').searchParams.get('_cursor') as string;
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    outcomeOf(await get(t, `/fhir/Observation?_count=2&_cursor=${flipped}`, token), 400);
    const other = await smartToken(t, '198112189876', 'patient/*.read');
    outcomeOf(await get(t, next, other), 400);
    outcomeOf(await get(t, `/fhir/Observation?_count=3&_cursor=${cursor}`, token), 400);
    outcomeOf(await get(t, `/fhir/Condition?_count=2&_cursor=${cursor}`, token), 400);
    expect((await get(t, next, token)).statusCode).toBe(200);
  });

  it('_count: 50 by default, 500 at most, 0 for the total alone', async () => {
    const none = await search('/fhir/Observation?_count=0');
    expect(none.entry).toBeUndefined();
    expect(none.total).toBeGreaterThan(0);
    expect(nextOf(none)).toBeUndefined();
    const capped = await search('/fhir/Observation?_count=600');
    expect(selfOf(capped)).toContain('_count=500');
    // The message says what is taken: it said "from 0 to 500", though 600 is taken as 500 (hostile review).
    const message = 'Search parameter _count must be a whole number, e.g. _count=50: 0 asks for the total alone, and a page holds at most 500.';
    for (const value of ['-1', 'ten', '1.5', '1e3', '']) {
      expect([value, outcomeOf(await get(t, `/fhir/Observation?_count=${value}`, token), 400).diagnostics]).toEqual([value, message]);
    }
    expect(selfOf(await search('/fhir/Observation?_count=0000000600'))).toContain('_count=500');
  });

  it('patient as an id or a reference, _id, and a token parameter', async () => {
    const own = await search('/fhir/Condition');
    expect(ids(matchesOf(await search(`/fhir/Condition?patient=${pid(TOLVAN)}`)))).toEqual(ids(matchesOf(own)));
    expect(ids(matchesOf(await search(`/fhir/Condition?patient=Patient/${pid(TOLVAN)}`)))).toEqual(ids(matchesOf(own)));
    const [a, , c] = matchesOf(await search('/fhir/Observation'));
    expect(ids(matchesOf(await search(`/fhir/Observation?_id=${a?.id},${c?.id}`)))).toEqual(ids([a as Resource, c as Resource]));
    const observations = matchesOf(await search('/fhir/Observation'));
    const finals = matchesOf(await search('/fhir/Observation?status=final'));
    expect(finals.length).toBe(observations.filter((o) => o.status === 'final').length);
    expect(finals.length).toBeGreaterThan(0);
    expect(matchesOf(await search('/fhir/Observation?category=laboratory')).length).toBe(observations.length);
  });

  it('a date parameter by its prefixes, a value without a zone read as Stockholm time', async () => {
    const notes = matchesOf(await search('/fhir/Composition'));
    const note = notes[1] as Resource;
    const at = note.date as string;
    // A Composition's date is an instant with its offset: the same wall clock without the zone is Stockholm time.
    const wall = at.slice(0, 19);
    const found = async (query: string) => ids(matchesOf(await search(`/fhir/Composition?${query}`))).includes(`Composition/${note.id}`);
    expect(await found(`date=eq${at.slice(0, 10)}`)).toBe(true);
    expect(await found(`date=ge${encodeURIComponent(at)}`)).toBe(true);
    expect(await found(`date=le${wall}`)).toBe(true);
    expect(await found(`date=gt${wall}`)).toBe(false);
    expect(await found(`date=lt${wall}`)).toBe(false);
    const before = matchesOf(await search(`/fhir/Composition?date=lt${wall}`));
    expect(before.every((n) => Date.parse(n.date as string) < Date.parse(at))).toBe(true);
    outcomeOf(await get(t, '/fhir/Composition?date=yesterday', token), 400);
  });

  it('ignores an unknown parameter and leaves it out of the self link; with Prefer: handling=strict it is 400', async () => {
    const lenient = await search('/fhir/Condition?colour=blue');
    expect(selfOf(lenient)).not.toContain('colour');
    expect(lenient.total).toBe((await search('/fhir/Condition')).total);
    outcomeOf(await get(t, '/fhir/Condition?colour=blue', token, { prefer: 'handling=strict' }), 400);
  });

  it('POST _search with a form body answers as GET', async () => {
    const viaGet = await get(t, '/fhir/Observation?status=final&_count=3', token);
    const viaPost = await t.call({
      method: 'POST', url: '/fhir/Observation/_search', key: null, token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'status=final&_count=3',
    });
    expect(viaPost.statusCode).toBe(200);
    expect(JSON.parse(viaPost.body)).toEqual(JSON.parse(viaGet.body));
  });

  it('includes: the results of reports, the procedures done for diagnoses, the parties of appointments', async () => {
    const reports = await search('/fhir/DiagnosticReport?_include=DiagnosticReport:result');
    const results = new Set(matchesOf(reports).flatMap((r) => (r.result as { reference: string }[] | undefined ?? []).map((x) => x.reference)));
    expect(new Set(ids(includesOf(reports)))).toEqual(results);
    expect(results.size).toBeGreaterThan(0);
    const conditions = await search('/fhir/Condition?_revinclude=Procedure:reason-reference');
    const procedures = includesOf(conditions);
    expect(procedures.length).toBeGreaterThan(0);
    const conditionKeys = new Set(ids(matchesOf(conditions)));
    expect(procedures.every((p) => p.resourceType === 'Procedure'
      && (p.reasonReference as { reference: string }[]).some((r) => conditionKeys.has(r.reference)))).toBe(true);
    const appointments = await search('/fhir/Appointment?_count=1&_include=Appointment:actor&_include:iterate=Location:organization');
    const types = new Set(includesOf(appointments).map((r) => r.resourceType));
    expect(types.has('Location') && types.has('Organization')).toBe(true);
    // Without includes asked for, none.
    expect(includesOf(await search('/fhir/DiagnosticReport'))).toEqual([]);
  });
});
