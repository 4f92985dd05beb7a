/**
 * docs/fhir-api.md#bundles (docs/threat-model.md row 51, the cursor): a
 * search answers a `searchset` with `total`, `fullUrl`s and links absolute from PUBLIC_BASE_URL,
 * `search.mode` on every entry, matches oldest first then by id. Pages of two, followed by their
 * `next` links, give every match exactly once. A `next` cursor is signed and bound to the caller,
 * the patient and the query: edited, or replayed by anyone or for anything else, it is 400 with no
 * data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EHR_VARIANTS, startTestApp, TEST_PUBLIC_BASE_URL, type AnyTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, LILLA, MARTA, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';
import { allPages, cursorOf, DATED_TYPES, keys, local, nextOf, selfOf, spanOf, withTolvanOn } from './search-support.js';

/** The order the contract names: by date, oldest first (undated last), then by id as the strings compare. */
function inContractOrder(rs: readonly Resource[]): Resource[] {
  const at = (r: Resource): number => spanOf(r)?.start ?? Number.MAX_SAFE_INTEGER;
  return [...rs].sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

describe.each(EHR_VARIANTS)('FHIR Bundles and paging over the %s EHR', (variant) => {
  let t: AnyTestApp;
  let token: string;
  withTolvanOn(variant, (app, tolvan) => { t = app; token = tolvan; });

  it.each(DATED_TYPES)('%s: a searchset whose total counts its matches, each with an absolute fullUrl and mode match', async (type) => {
    const answer = await get(t, `/fhir/${type}?_count=500`, token);
    expect(answer.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const bundle = bundleOf(answer) as Bundle & { type: string };
    expect(bundle.type).toBe('searchset');
    expect(bundle.total).toBe(bundle.entry?.length ?? 0);
    expect(bundle.total).toBeGreaterThan(0);
    for (const e of bundle.entry ?? []) {
      expect(e).toEqual({ fullUrl: `${TEST_PUBLIC_BASE_URL}/fhir/${type}/${e.resource.id}`, resource: expect.objectContaining({ resourceType: type }), search: { mode: 'match' } });
    }
    expect(bundle.link).toEqual([{ relation: 'self', url: `${TEST_PUBLIC_BASE_URL}/fhir/${type}?_count=500` }]);
  });

  it.each(DATED_TYPES)('%s: matches by date, oldest first, then by id', async (type) => {
    const matches = matchesOf(bundleOf(await get(t, `/fhir/${type}?_count=500`, token)));
    expect(keys(matches)).toEqual(keys(inContractOrder(matches)));
  });

  it('ties on date are broken by id: the demo has several lab results of one moment', async () => {
    const observations = matchesOf(bundleOf(await get(t, '/fhir/Observation?_count=500', token)));
    const starts = observations.map((o) => spanOf(o)?.start);
    const tied = observations.filter((o, i) => starts.indexOf(starts[i]) !== i || starts.lastIndexOf(starts[i]) !== i);
    expect(tied.length).toBeGreaterThan(1);
    expect(keys(tied)).toEqual(keys([...tied].sort((a, b) => (spanOf(a)?.start ?? 0) - (spanOf(b)?.start ?? 0) || (a.id < b.id ? -1 : 1))));
  });

  it.each(['Observation', 'Appointment', 'Encounter', 'Composition', 'Condition'])('%s: pages of 2 followed by next to the end give every match once, in order', async (type) => {
    const whole = bundleOf(await get(t, `/fhir/${type}?_count=500`, token));
    const pages = await allPages(t, `/fhir/${type}?_count=2`, token);
    expect(pages.length).toBe(Math.ceil((whole.total ?? 0) / 2));
    expect(pages.map((p) => p.total)).toEqual(pages.map(() => whole.total));
    expect(pages.slice(0, -1).every((p) => matchesOf(p).length === 2)).toBe(true);
    expect(keys(pages.flatMap(matchesOf))).toEqual(keys(matchesOf(whole)));
    expect(nextOf(pages.at(-1) as Bundle)).toBeUndefined();
    pages.forEach((p, i) => {
      // Each page's self link is the search with the cursor that led to it; the links are absolute, with no identity number.
      const self = new URL(selfOf(p));
      expect([self.origin, self.pathname, self.searchParams.get('_count')]).toEqual([TEST_PUBLIC_BASE_URL, `/fhir/${type}`, '2']);
      expect(self.searchParams.has('_cursor')).toBe(i > 0);
      expect(JSON.stringify(p.link)).not.toContain(TOLVAN);
    });
  });
});

describe('a page cursor is bound to the caller, the patient and the query', () => {
  let t: TestApp;
  let tolvan: string;
  /** Märta holds Tolvan's power of attorney and is Lilla's guardian: she may read both, so only the binding refuses her. */
  let marta: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    tolvan = await smartToken(t, TOLVAN, 'patient/*.read');
    marta = await smartToken(t, MARTA, 'user/*.read');
  }, 60_000);
  afterAll(async () => t.close());

  /** A refusal with no data in it: an OperationOutcome, invalid, naming no resource. */
  async function refused(url: string, token: string): Promise<void> {
    const answer = await get(t, url, token);
    expect([url.slice(0, 60), outcomeOf(answer, 400).code]).toEqual([url.slice(0, 60), 'invalid']);
    expect(answer.body).not.toMatch(/"entry"|"resourceType":"(Observation|Condition|Encounter)"/);
  }

  const nextLinkOf = async (url: string, token: string): Promise<string> => {
    const next = nextOf(bundleOf(await get(t, url, token)));
    expect(next).toBeDefined();
    return local(next as string);
  };

  // Failed before (200: the binding named the person, not the app): another app the same person
  // signed in to must not page on with a link the first app was given.
  it('a cursor carried to another app of the same person is 400', async () => {
    const next = await nextLinkOf('/fhir/Observation?_count=2', tolvan);
    await refused(next, await smartToken(t, TOLVAN, 'patient/*.read', { client_id: 'another-smart-app' }));
    expect(bundleOf(await get(t, next, await smartToken(t, TOLVAN, 'patient/*.read'))).total).toBeGreaterThan(2);
  });

  it('an edited cursor is 400: a flipped character, the offset rewritten, cut short, lengthened', async () => {
    const next = await nextLinkOf(`/fhir/Observation?_count=2&patient=${pid(TOLVAN)}`, tolvan);
    const cursor = cursorOf(`${TEST_PUBLIC_BASE_URL}${next}`);
    const withCursor = (c: string) => next.replace(`_cursor=${cursor}`, `_cursor=${encodeURIComponent(c)}`);
    const flip = (i: number) => `${cursor.slice(0, i)}${cursor[i] === 'A' ? 'B' : 'A'}${cursor.slice(i + 1)}`;
    for (const edited of [flip(5), flip(10), flip(cursor.length - 2), `AAAAAAAAAAA${cursor.slice(11)}`, cursor.slice(0, -1), `${cursor}A`, '', 'not-a-cursor']) {
      await refused(withCursor(edited), tolvan);
    }
    // The link as given still answers: what was refused was the edit.
    expect(matchesOf(bundleOf(await get(t, next, tolvan))).length).toBe(2);
  });

  it('replayed by another caller, even one who may read the patient, it is 400', async () => {
    const next = await nextLinkOf(`/fhir/Observation?_count=2&patient=${pid(TOLVAN)}`, tolvan);
    await refused(next, marta);
    await refused(next, await t.clientToken({ scope: 'system/*.read' }));
    // The same person with a token of the same launch is the same caller (an app that renews its token pages on).
    expect(bundleOf(await get(t, next, await smartToken(t, TOLVAN, 'patient/*.read'))).total).toBeGreaterThan(2);
    // ... but not when the token launched another patient.
    const lillaNext = await nextLinkOf('/fhir/Condition?_count=1', await smartToken(t, MARTA, 'patient/*.read', { smart_patient: pid(LILLA) }));
    await refused(lillaNext, await smartToken(t, MARTA, 'patient/*.read', { smart_patient: pid(TOLVAN) }));
  });

  it('replayed for another patient, it is 400, never that patient\'s page', async () => {
    const next = await nextLinkOf(`/fhir/Encounter?_count=1&patient=${pid(LILLA)}`, marta);
    await refused(next.replace(pid(LILLA), pid(TOLVAN)), marta);
    // Without the parameter the launch patient is Märta herself: another patient all the same.
    await refused(next.replace(`patient=${pid(LILLA)}&`, ''), marta);
    expect(next).toContain(`patient=${pid(LILLA)}&`);
  });

  it('replayed with another query, it is 400: another count, type, filter or include', async () => {
    const next = await nextLinkOf('/fhir/Observation?_count=2&status=final', tolvan);
    const cursor = encodeURIComponent(cursorOf(`${TEST_PUBLIC_BASE_URL}${next}`));
    for (const other of [
      `/fhir/Observation?_count=3&status=final&_cursor=${cursor}`,
      `/fhir/Observation?_count=2&_cursor=${cursor}`,
      `/fhir/Observation?_count=2&status=preliminary&_cursor=${cursor}`,
      `/fhir/Observation?_count=2&status=final&date=ge2026-01-01&_cursor=${cursor}`,
      `/fhir/Condition?_count=2&_cursor=${cursor}`,
      `/fhir/DiagnosticReport?_count=2&status=final&_include=DiagnosticReport:result&_cursor=${cursor}`,
    ]) await refused(other, tolvan);
  });
});
