import { describe, expect, it } from 'vitest';
import { assertPatientBound } from '../../../../src/adapters/ehr-fhir/client/patient-binding.js';
import { timeBounds } from '../../../../src/adapters/ehr-fhir/client/read-plans.js';
import { searchUrl, parameterName } from '../../../../src/adapters/ehr-fhir/client/search-url.js';
import { EhrError } from '../../../../src/domain/ehr-error.js';

const appointment = (...actors: object[]) => ({ resourceType: 'Appointment', id: 'a', participant: actors.map((actor) => ({ actor })) });
const bound = (matches: object[], held: object[] = matches) => () =>
  assertPatientBound(matches as { resourceType: string }[], held as { resourceType: string }[], 'p1');

describe('every patient-bound resource is the patient\'s', () => {
  it('accepts matches and includes that name the patient, by a relative or an absolute reference', () => {
    expect(bound([appointment({ reference: 'Patient/p1' }, { reference: 'Practitioner/x' }, { display: 'Tolk' })])).not.toThrow();
    expect(bound([{ resourceType: 'Encounter', subject: { reference: 'https://fhir.example/R4/Patient/p1' } }])).not.toThrow();
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
  ])('refuses %s', (_, matches, includes) => {
    expect(bound(matches, [...matches, ...includes])).toThrow(EhrError);
  });

  it('lets the registry\'s search hold other patients', () => {
    const people = [{ resourceType: 'RelatedPerson', patient: { reference: 'Patient/p2' } }];
    expect(() => assertPatientBound(people, [...people, { resourceType: 'Patient', id: 'p2' }], 'p1', true)).not.toThrow();
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
