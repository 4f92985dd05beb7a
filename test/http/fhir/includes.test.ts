/**
 * docs/fhir-api.md#search, the includes docs/upstream-fhir.md lists: what
 * `DiagnosticReport?_include=DiagnosticReport:result`, `Condition?_revinclude=Procedure:reason-reference`,
 * `Appointment?_include=Appointment:actor` and `_include:iterate` add, each as `search.mode`
 * `include` after the matches, once each, only for the matches of the page, never counted in
 * `total`; the expected sets are computed from the references of the answer and the types' own
 * searches.
 */
import { describe, expect, it } from 'vitest';
import { EHR_VARIANTS, TEST_PUBLIC_BASE_URL, type AnyTestApp } from '../../support/test-app.js';
import { bundleOf, get, includesOf, matchesOf, pid, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';
import { allPages, keys, spanOf, wallClockOf, withTolvanOn } from './search-support.js';

const refsAt = (r: Resource, member: string, inner?: string): string[] =>
  ((r[member] ?? []) as Record<string, unknown>[]).flatMap((x) => {
    const ref = (inner === undefined ? x : x[inner]) as { reference?: string } | undefined;
    return ref?.reference === undefined ? [] : [ref.reference];
  });
const unique = (xs: readonly string[]): string[] => [...new Set(xs)];
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/** Every entry's mode and fullUrl as a Bundle must give them: matches first, then includes, each resource once. */
function expectWellFormed(b: Bundle): void {
  const entries = b.entry ?? [];
  const modes = entries.map((e) => e.search.mode);
  expect(modes).toEqual([...modes].sort((x, y) => (x === y ? 0 : x === 'match' ? -1 : 1)));
  expect(entries.every((e) => e.fullUrl === `${TEST_PUBLIC_BASE_URL}/fhir/${e.resource.resourceType}/${e.resource.id}`)).toBe(true);
  expect(unique(keys(entries.map((e) => e.resource))).length).toBe(entries.length);
}

describe.each(EHR_VARIANTS)('FHIR includes over the %s EHR', (variant) => {
  let t: AnyTestApp;
  let token: string;
  withTolvanOn(variant, (app, tolvan) => { t = app; token = tolvan; });

  const search = async (url: string): Promise<Bundle> => bundleOf(await get(t, url, token));
  const byKey = async (type: string): Promise<Map<string, Resource>> =>
    new Map(matchesOf(await search(`/fhir/${type}?_count=500`)).map((r) => [`${type}/${r.id}`, r]));

  it('DiagnosticReport:result adds each report\'s Observations as includes, exactly as the Observation search has them', async () => {
    const plain = await search('/fhir/DiagnosticReport?_count=500');
    const withResults = await search('/fhir/DiagnosticReport?_count=500&_include=DiagnosticReport:result');
    expectWellFormed(withResults);
    // The matches and the total are the search's own; the includes add to neither.
    expect([keys(matchesOf(withResults)), withResults.total]).toEqual([keys(matchesOf(plain)), plain.total]);
    const results = unique(matchesOf(withResults).flatMap((r) => refsAt(r, 'result')));
    expect(results.length).toBeGreaterThan(matchesOf(withResults).length);
    expect(sorted(keys(includesOf(withResults)))).toEqual(sorted(results));
    const observations = await byKey('Observation');
    for (const o of includesOf(withResults)) expect(o).toEqual(observations.get(`Observation/${o.id}`));
  });

  it('on a page, the includes are those of the page\'s matches alone', async () => {
    const pages = await allPages(t, '/fhir/DiagnosticReport?_count=2&_include=DiagnosticReport:result', token);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expectWellFormed(page);
      expect(sorted(keys(includesOf(page)))).toEqual(sorted(unique(matchesOf(page).flatMap((r) => refsAt(r, 'result')))));
    }
  });

  it('Procedure:reason-reference (revinclude) adds the Procedures done for the matched Conditions, and only those', async () => {
    const procedures = [...(await byKey('Procedure')).values()];
    expect(procedures.length).toBeGreaterThan(0);
    const conditions = await search('/fhir/Condition?_count=500&_revinclude=Procedure:reason-reference');
    expectWellFormed(conditions);
    const matched = new Set(keys(matchesOf(conditions)));
    const done = procedures.filter((p) => refsAt(p, 'reasonReference').some((ref) => matched.has(ref)));
    expect(done.length).toBeGreaterThan(0);
    expect(sorted(keys(includesOf(conditions)))).toEqual(sorted(keys(done)));
    expect(includesOf(conditions)).toEqual(expect.arrayContaining(done));
    // Narrowed to the Conditions recorded before the one the Procedures name, none of them comes along.
    const reason = refsAt(done[0] as Resource, 'reasonReference')[0] as string;
    const reasonCondition = matchesOf(conditions).find((c) => `Condition/${c.id}` === reason) as Resource;
    const before = await search(`/fhir/Condition?_count=500&recorded-date=lt${wallClockOf(spanOf(reasonCondition)?.start ?? 0)}&_revinclude=Procedure:reason-reference`);
    const stillMatched = new Set(keys(matchesOf(before)));
    expect(keys(includesOf(before))).toEqual(keys(procedures.filter((p) => refsAt(p, 'reasonReference').some((ref) => stillMatched.has(ref)))));
    expect(keys(includesOf(before))).not.toContain(keys(done)[0]);
  });

  it('Appointment:actor adds the practitioners and places; :iterate follows on to their organisations', async () => {
    const actorOnly = await search('/fhir/Appointment?_count=3&_include=Appointment:actor');
    expectWellFormed(actorOnly);
    const actors = unique(matchesOf(actorOnly).flatMap((a) => refsAt(a, 'participant', 'actor')));
    // Every actor: the practitioners, the places and the patient (R4's Appointment-actor names them all).
    const parties = actors;
    expect(parties).toContain(`Patient/${pid(TOLVAN)}`);
    expect(parties.some((ref) => ref.startsWith('Location/'))).toBe(true);
    expect(sorted(keys(includesOf(actorOnly)))).toEqual(sorted(parties));

    const iterated = await search('/fhir/Appointment?_count=3&_include=Appointment:actor&_include:iterate=Location:organization');
    expectWellFormed(iterated);
    const locations = includesOf(iterated).filter((r) => r.resourceType === 'Location');
    const organisations = unique(locations.map((l) => (l.managingOrganization as { reference: string } | undefined)?.reference).filter((r): r is string => r !== undefined));
    expect(organisations.length).toBeGreaterThan(0);
    expect(sorted(keys(includesOf(iterated)))).toEqual(sorted([...parties, ...organisations]));
    // Without :iterate, Location:organization is no include of an Appointment search: nothing more comes.
    const notIterated = await search('/fhir/Appointment?_count=3&_include=Appointment:actor&_include=Location:organization');
    expect(sorted(keys(includesOf(notIterated)))).toEqual(sorted(parties));
  });

  it('no includes unless asked for, and none of a type the token is not granted', async () => {
    expect(includesOf(await search('/fhir/DiagnosticReport?_count=500'))).toEqual([]);
    const reportsOnly = await smartToken(t, TOLVAN, 'patient/DiagnosticReport.rs');
    const answer = bundleOf(await get(t, '/fhir/DiagnosticReport?_count=500&_include=DiagnosticReport:result', reportsOnly));
    expect([matchesOf(answer).length > 0, includesOf(answer)]).toEqual([true, []]);
  });
});
