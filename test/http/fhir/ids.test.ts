/**
 * docs/fhir-api.md, "Ids" (docs/threat-model.md rows 50, 51): a Patient's id is made from the identity number with
 * FHIR_ID_SECRET, stable and revealing nothing without the key; an identity number never appears in
 * a URL, an id or a link; a resource that exists but is not the caller's answers 404 exactly as one
 * that does not exist. The keyed ids themselves are unit-tested in
 * src/adapters/fhir-ids/keyed-fhir-ids.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyedFhirIds } from '../../../src/adapters/fhir-ids/keyed-fhir-ids.js';
import { DEMO_PEOPLE, UNKNOWN_PATIENT_ID } from '../../../src/dev/demo-data/people.js';
import { kindOfNumber } from '../../../src/domain/identity/person-number-systems.js';
import { parsePersonalIdentityNumber } from '../../../src/domain/identity/personal-identity-number.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import {
  bundleOf, get, LILLA, MARTA, matchesOf, NOW, outcomeOf, PERSONNUMMER, pid, smartToken, TOLVAN, type Bundle, type Resource,
} from './fhir-calls.js';

const NUMBERS = [...DEMO_PEOPLE.map((p) => p.id), UNKNOWN_PATIENT_ID];
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/** Every way an identity number may be written: 12 digits, 10 digits, with the `-` before the last four. */
const writtenForms = (n: string): string[] => [n, n.slice(2), `${n.slice(0, 8)}-${n.slice(8)}`, `${n.slice(2, 8)}-${n.slice(8)}`];

/** What an identity number in `text` would look like: a known form, or any run of 12 digits that is a valid number. */
function identityNumbersIn(text: string): string[] {
  const known = NUMBERS.flatMap(writtenForms).filter((form) => text.includes(form));
  const runs = [...text.matchAll(/\d{12}/g)].map((m) => m[0]).filter((run) => parsePersonalIdentityNumber(run) !== undefined);
  return [...known, ...runs];
}

/** The strings of a FHIR answer that end up in URLs, ids and links: every `id`, `fullUrl`, `url` and `reference`. */
function urlAndIdStrings(json: unknown, out: string[] = []): string[] {
  if (Array.isArray(json)) json.forEach((v) => urlAndIdStrings(v, out));
  else if (json !== null && typeof json === 'object') {
    for (const [name, value] of Object.entries(json)) {
      if (typeof value === 'string' && ['id', 'fullUrl', 'url', 'reference'].includes(name)) out.push(value);
      else urlAndIdStrings(value, out);
    }
  }
  return out;
}

describe('FHIR API: ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('each demo person\'s Patient id is the keyed id, a valid FHIR id with no run of the identity number in it', async () => {
    for (const person of DEMO_PEOPLE) {
      const [patient] = matchesOf(bundleOf(await get(t, '/fhir/Patient', await smartToken(t, person.id, 'patient/*.rs'))));
      const id = patient?.id ?? '';
      expect([person.id, id]).toEqual([person.id, pid(person.id)]);
      expect(id).toMatch(FHIR_ID);
      // No six digits of the number in a row (birth date, serial, check digit) anywhere in the id.
      for (let i = 0; i + 6 <= person.id.length; i++) expect(id, person.id).not.toContain(person.id.slice(i, i + 6));
      // The number is in the Patient, where it belongs: its identifier.
      expect(patient?.identifier).toContainEqual(expect.objectContaining({ value: person.id }));
    }
  });

  it('the id is stable: across calls, apps, token kinds, and instances sharing the key', async () => {
    const ids = new Set<string>();
    for (const token of [await smartToken(t, TOLVAN, 'patient/*.rs'), await t.personToken(TOLVAN, { client_id: 'other-app', scope: 'user/*.rs' })]) {
      for (let i = 0; i < 2; i++) ids.add(matchesOf(bundleOf(await get(t, '/fhir/Patient', token)))[0]?.id ?? '');
    }
    const client = await t.clientToken({ scope: 'system/Patient.rs' });
    ids.add(matchesOf(bundleOf(await get(t, `/fhir/Patient?identifier=${PERSONNUMMER}|${TOLVAN}`, client)))[0]?.id ?? '');
    const second = await startTestApp({ now: NOW });
    try {
      ids.add(matchesOf(bundleOf(await get(second, '/fhir/Patient', await smartToken(second, TOLVAN, 'patient/*.rs'))))[0]?.id ?? '');
    } finally {
      await second.close();
    }
    expect([...ids]).toEqual([pid(TOLVAN)]);
  });

  it('another key makes another id, which this service answers as no Patient at all', async () => {
    const otherKey = new KeyedFhirIds(randomBytes(32));
    const foreign = otherKey.patientId(TOLVAN);
    expect(foreign).not.toBe(pid(TOLVAN));
    expect(foreign).toMatch(FHIR_ID);
    const token = await smartToken(t, TOLVAN, 'patient/*.rs');
    const read = await get(t, `/fhir/Patient/${foreign}`, token);
    const madeUp = await get(t, '/fhir/Patient/no-such-patient', token);
    expect(outcomeOf(read, 404).code).toBe('not-found');
    expect(read.body).toBe(madeUp.body);
    // As a search's patient it names nobody the caller may act for.
    expect(outcomeOf(await get(t, `/fhir/Observation?patient=${foreign}`, await smartToken(t, TOLVAN, 'user/*.rs')), 403).code).toBe('forbidden');
  });

  describe('a resource of another patient, read by id, answers exactly as one that does not exist', () => {
    let lillaObservation: string;
    let martaCondition: string;
    beforeAll(async () => {
      lillaObservation = matchesOf(bundleOf(await get(t, '/fhir/Observation', await smartToken(t, LILLA, 'patient/*.rs'))))[0]?.id ?? '';
      martaCondition = matchesOf(bundleOf(await get(t, '/fhir/Condition', await smartToken(t, MARTA, 'patient/*.rs'))))[0]?.id ?? '';
      expect(lillaObservation).not.toBe('');
      expect(martaCondition).not.toBe('');
    });

    for (const scope of ['patient/*.rs', 'user/*.rs']) {
      it(`Tolvan with ${scope}: Lilla's Observation, Märta's Condition and Märta's Patient are 404 as a made-up id is`, async () => {
        const token = await smartToken(t, TOLVAN, scope);
        for (const [type, id] of [['Observation', lillaObservation], ['Condition', martaCondition], ['Patient', pid(MARTA)], ['Patient', pid(UNKNOWN_PATIENT_ID)]] as const) {
          const theirs = await get(t, `/fhir/${type}/${id}`, token);
          const none = await get(t, `/fhir/${type}/no-such-${type.toLowerCase()}`, token);
          expect([type, id, theirs.statusCode, theirs.headers['www-authenticate'], theirs.body]).toEqual([type, id, 404, undefined, none.body]);
        }
      });
    }

    it('a client token naming one patient does not read another patient\'s resource: 404', async () => {
      const token = await t.clientToken({ scope: 'system/*.read' });
      const theirs = await get(t, `/fhir/Observation/${lillaObservation}?patient=${pid(TOLVAN)}`, token);
      const none = await get(t, `/fhir/Observation/no-such-observation?patient=${pid(TOLVAN)}`, token);
      expect([theirs.statusCode, theirs.body]).toEqual([404, none.body]);
      expect((await get(t, `/fhir/Observation/${lillaObservation}?patient=${pid(LILLA)}`, token)).statusCode).toBe(200);
    });
  });

  it('no identity number in any id, fullUrl, link or reference of any Bundle or read, for every demo person and type', async () => {
    const statement = JSON.parse((await get(t, '/fhir/metadata')).body) as { rest: { resource: { type: string; searchInclude?: string[] }[] }[] };
    const types = statement.rest[0]?.resource ?? [];
    const seen: string[] = [];
    const scan = (where: string, body: string): void => {
      const strings = urlAndIdStrings(JSON.parse(body));
      seen.push(...strings);
      for (const s of strings) expect([where, s, identityNumbersIn(s)]).toEqual([where, s, []]);
    };
    const searchAndFollow = async (url: string, token: string): Promise<Bundle> => {
      const res = await get(t, url, token);
      scan(url, res.body);
      const bundle = bundleOf(res);
      const next = bundle.link.find((l) => l.relation === 'next')?.url;
      if (next !== undefined) scan(next, (await get(t, next.slice(next.indexOf('/fhir/')), token)).body);
      return bundle;
    };
    for (const person of DEMO_PEOPLE) {
      const token = await smartToken(t, person.id, 'patient/*.rs');
      for (const { type, searchInclude = [] } of types) {
        const includes = searchInclude.map((inc) => `&_include=${encodeURIComponent(inc)}`).join('');
        const bundle = await searchAndFollow(`/fhir/${type}?_count=2${includes}`, token);
        for (const r of matchesOf(bundle).filter((m: Resource) => m.resourceType !== 'AuditEvent')) {
          const url = `/fhir/${r.resourceType}/${r.id}`;
          scan(url, (await get(t, url, token)).body);
        }
      }
      // A client finding the person by number: the number goes in, never comes back in a link.
      const client = await t.clientToken({ scope: 'system/*.read' });
      scan(`identifier of ${person.id}`, (await get(t, `/fhir/Patient?identifier=${kindOfNumber(person.id).uri}|${person.id}`, client)).body);
    }
    // Märta's list of everyone she may act for, and the records of a child through delegation.
    const marta = await smartToken(t, MARTA, 'user/*.rs');
    await searchAndFollow('/fhir/Patient?_count=1', marta);
    await searchAndFollow(`/fhir/Encounter?patient=${pid(LILLA)}&_count=2&_include=Encounter:participant&_include=Encounter:service-provider`, marta);
    // Not a proof over nothing: hundreds of ids, links and references, Patient references among them.
    expect(seen.length).toBeGreaterThan(500);
    expect(seen.filter((s) => s.startsWith('Patient/')).length).toBeGreaterThan(50);
  }, 120_000);
});
