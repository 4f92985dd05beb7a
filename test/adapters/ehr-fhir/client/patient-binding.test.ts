import { describe, expect, it } from 'vitest';
import { isPathId } from '../../../../src/adapters/ehr-fhir/client/fhir-client.js';
import { assertPatientBound } from '../../../../src/adapters/ehr-fhir/client/patient-binding.js';
import { timeBounds } from '../../../../src/adapters/ehr-fhir/client/read-plan.js';
import { searchUrl, parameterName } from '../../../../src/adapters/ehr-fhir/client/search-url.js';
import { parseFhirJson } from '../../../../src/adapters/ehr-fhir/fhir-json.js';
import { ResourceIndex } from '../../../../src/adapters/ehr-fhir/resource-index.js';
import { EhrError } from '../../../../src/domain/ehr-error.js';

const BASE = 'https://fhir.example/R4';
type Raw = { resourceType: string; id?: string };
const appointment = (...actors: object[]) => ({ resourceType: 'Appointment', id: 'a', participant: actors.map((actor) => ({ actor })) });
const indexOf = (held: object[]): ResourceIndex => {
  const index = new ResourceIndex(BASE);
  for (const r of held) index.add(r as Raw);
  return index;
};
const bound = (matches: object[], held: object[] = matches) => () => assertPatientBound(matches as Raw[], indexOf(held), 'p1');

describe('every patient-bound resource is the patient\'s', () => {
  it('accepts matches and includes that name the patient, by a relative or an absolute reference', () => {
    expect(bound([appointment({ reference: 'Patient/p1' }, { reference: 'Practitioner/x' }, { display: 'Tolk' })])).not.toThrow();
    expect(bound([{ resourceType: 'Encounter', subject: { reference: `${BASE}/Patient/p1` } }])).not.toThrow();
    expect(bound([{ resourceType: 'Encounter', subject: { reference: `${BASE}/Patient/p1/_history/2` } }])).not.toThrow();
    expect(bound([], [{ resourceType: 'Patient', id: 'p1' }, { resourceType: 'Organization', id: 'o' }])).not.toThrow();
  });

  it.each([
    ['a match that names no patient', [appointment({ reference: 'Practitioner/x' })], []],
    ['a match of another patient', [{ resourceType: 'Flag', subject: { reference: 'Patient/p2' } }], []],
    ['a match that names the patient and another', [appointment({ reference: 'Patient/p1' }, { reference: 'Patient/p2' })], []],
    ['a patient named by identifier alone, which cannot be checked', [{ resourceType: 'Flag', subject: { identifier: { value: '191212121212' } } }], []],
    ['a participant named by a reference that is no Type/id', [appointment({ reference: 'Patient/p1' }, { reference: 'urn:uuid:0c3151bd' })], []],
    ['an include of another patient', [], [{ resourceType: 'Observation', subject: { reference: 'Patient/p2' } }]],
    ['another Patient at hand', [], [{ resourceType: 'Patient', id: 'p2' }]],
    ['a match naming the patient\'s id on another server', [{ resourceType: 'Flag', subject: { reference: 'https://other-region.example/fhir/Patient/p1' } }], []],
    ['a match naming the patient\'s id under a longer base', [{ resourceType: 'Flag', subject: { reference: `${BASE}/x/Patient/p1` } }], []],
    ['an include naming the patient\'s id on another server', [], [{ resourceType: 'Observation', subject: { reference: 'http://fhir.example/R4/Patient/p1' } }]],
    // Hostile review helper-220, F2: a resource held inside a match (a note's value, `#v1`) was never checked. Failed before.
    ['a contained resource of another patient', [{ resourceType: 'Composition', subject: { reference: 'Patient/p1' },
      contained: [{ resourceType: 'Observation', id: 'v1', subject: { reference: 'Patient/p2' } }] }], []],
    // helper-221, F1: a contained resource's `subject: null` threw a TypeError (500) once contained resources were checked.
    ['a contained resource naming its patient by null', [{ resourceType: 'Composition', subject: { reference: 'Patient/p1' },
      contained: [{ resourceType: 'Observation', id: 'v1', subject: null }] }], []],
    ['a participant that is the patient\'s id on another server', [appointment({ reference: 'Patient/p1' }, { reference: 'https://other.example/Patient/p1' })], []],
  ])('refuses %s', (_, matches, includes) => {
    expect(bound(matches, [...matches, ...includes])).toThrow(EhrError);
  });

  it('lets the registry\'s search hold other patients', () => {
    const people = [{ resourceType: 'RelatedPerson', patient: { reference: 'Patient/p2' } }];
    expect(() => assertPatientBound(people, indexOf([...people, { resourceType: 'Patient', id: 'p2' }]), 'p1', true)).not.toThrow();
  });
});

describe('one resource per entry (the index a read\'s references resolve in)', () => {
  const his = { resourceType: 'Condition', id: 'c1', subject: { reference: 'Patient/p1' }, code: { text: 'his' } };
  const hers = { ...his, subject: { reference: 'Patient/p2' }, code: { text: 'hers' } };
  const adding = (...entries: [Raw, string | undefined, 'match' | 'include'][]) => () => {
    const index = new ResourceIndex(BASE);
    for (const [raw, fullUrl, mode] of entries) index.add(raw, fullUrl, mode);
    return index;
  };

  it.each([
    ['two matches with one Type/id', adding([his, undefined, 'match'], [hers, undefined, 'match'])],
    ['a match that repeats an include of another content', adding([his, undefined, 'include'], [hers, undefined, 'match'])],
    ['a match repeated as it was (in one page or on the next)', adding([his, undefined, 'match'], [his, undefined, 'match'])],
    ['a match that repeats an include as it was', adding([his, undefined, 'include'], [structuredClone(his), undefined, 'match'])],
    ['two includes (or fetched resources) with one Type/id and another content', adding([his, undefined, 'include'], [hers, undefined, 'include'])],
    ['two entries under one fullUrl', adding([his, `${BASE}/Condition/c1`, 'include'], [{ ...hers, id: 'c2' }, `${BASE}/Condition/c1`, 'include'])],
    ['a fullUrl that names another resource than its own', adding([hers, `${BASE}/Condition/c9`, 'match'])],
  ])('refuses %s', (_, add) => {
    expect(add).toThrow(EhrError);
  });

  it('keeps an include repeated as it was (a server sends with each page what that page names) as one resource', () => {
    const index = adding([his, `${BASE}/Condition/c1`, 'include'], [structuredClone(his), `${BASE}/Condition/c1`, 'include'])();
    expect(index.ofType('Condition')).toHaveLength(1);
    expect(index.entries()).toHaveLength(2);
  });

  it('tells a decimal as written from another writing of the same number', () => {
    const parse = (text: string) => parseFhirJson(text) as Raw;
    const written = '{"resourceType":"Observation","id":"o1","valueQuantity":{"value":4.0}}';
    expect(adding([parse(written), undefined, 'include'], [parse(written), undefined, 'include'])).not.toThrow();
    expect(adding([parse(written), undefined, 'include'], [parse(written.replace('4.0', '4')), undefined, 'include'])).toThrow(EhrError);
  });

  it('resolves a reference to this server only: relative, or absolute under EHR_BASE_URL', () => {
    const index = new ResourceIndex(`${BASE}/`);
    expect(['Patient/p1', `${BASE}/Patient/p1`, `${BASE}/Patient/p1/_history/3`].map((r) => index.keyOf(r))).toEqual(['Patient/p1', 'Patient/p1', 'Patient/p1']);
    expect(['https://other-region.example/fhir/Patient/p1', `${BASE}/x/Patient/p1`, `${BASE}Patient/p1`, '#p1', 'urn:uuid:0c3151bd', 'Patient/p1?x=1']
      .map((r) => index.keyOf(r))).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    index.add({ resourceType: 'Practitioner', id: 'x' });
    expect(index.get({ reference: 'https://other-region.example/fhir/Practitioner/x' }, 'Practitioner')).toBeUndefined();
    expect(index.get({ reference: `${BASE}/Practitioner/x` }, 'Practitioner')).toMatchObject({ id: 'x' });
  });
});

describe('a caller\'s id in a FHIR path', () => {
  it('is a path segment of its own: FHIR\'s id syntax, never an id of dots only', () => {
    expect(['appt-0001', 'appt.0001', '.a', 'a..', '4711', 'x'.repeat(64)].map(isPathId)).toEqual([true, true, true, true, true, true]);
    expect(['.', '..', '...', '', 'a/b', 'a%2F..', 'a_b', 'x'.repeat(65)].map(isPathId)).toEqual([false, false, false, false, false, false, false, false]);
  });
});

describe('FHIR search URLs', () => {
  it('encodes | and + and keeps the , : and / of FHIR\'s syntax', () => {
    expect(searchUrl('https://fhir.example/R4/', 'Appointment', [
      ['identifier', 'http://x/pnr|1,urn:oid:1.2|1'], ['date', 'ge2026-01-01T00:00:00+01:00'], ['_include:iterate', 'Location:organization'], ['patient', 'Patient/a b'],
    ])).toBe('https://fhir.example/R4/Appointment?identifier=http://x/pnr%7C1,urn:oid:1.2%7C1&date=ge2026-01-01T00:00:00%2B01:00'
      + '&_include:iterate=Location:organization&patient=Patient/a%20b');
    expect(parameterName('_include:iterate')).toBe('_include');
  });
});

describe('time bounds of a search', () => {
  it('widens each bound by an hour, so a bound in the repeated autumn hour covers both of its instants', () => {
    // 02:30 on 25 October 2026 is 00:30Z (the first, the README rule's reading) and 01:30Z (the second).
    expect(timeBounds('date', { from: '20261025023000', to: '20261025023000' }, 'Europe/Stockholm')).toEqual([
      ['date', 'ge2026-10-24T23:30:00Z'], ['date', 'le2026-10-25T01:30:00Z'],
    ]);
    expect(timeBounds('date', { to: '20260101000000' }, 'Europe/Stockholm')).toEqual([['date', 'le2026-01-01T00:00:00Z']]);
    expect(timeBounds('date', {}, 'Europe/Stockholm')).toEqual([]);
  });
});
