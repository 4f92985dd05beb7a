import { describe, expect, it } from 'vitest';
import { changesBetween, fociOf, viewOf } from '../../../src/domain/notifications/record-view.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';

const digest = (text: string): string => `#${text.length}:${text}`;
const report = (id: string, results: string[], status = 'final'): FhirResource => ({ resourceType: 'DiagnosticReport', id, status, result: results.map((r) => ({ reference: `Observation/${r}` })) });
const observation = (id: string, value: number): FhirResource => ({ resourceType: 'Observation', id, valueQuantity: { value, unit: 'g/L' } });

describe('a subscriber\'s view of a record topic (docs/notifications.md#finding-changes)', () => {
  it('digests each focus with what it references among the resources: a changed result value changes its report', () => {
    const before = viewOf([report('r1', ['o1']), observation('o1', 128), observation('o9', 1)], 'DiagnosticReport', digest);
    const after = viewOf([report('r1', ['o1']), observation('o1', 129), observation('o9', 2)], 'DiagnosticReport', digest);
    expect(Object.keys(before)).toEqual(['DiagnosticReport/r1']);
    expect(after['DiagnosticReport/r1']).not.toBe(before['DiagnosticReport/r1']);
    // What it does not reference does not move it.
    expect(viewOf([report('r1', ['o1']), observation('o1', 128), observation('o9', 2)], 'DiagnosticReport', digest)).toEqual(before);
  });

  it('tells new and changed foci in the view\'s order, then those gone; one withheld but still held is dropped silently', () => {
    const before = { 'DiagnosticReport/a': '1', 'DiagnosticReport/b': '1', 'DiagnosticReport/c': '1' };
    const after = { 'DiagnosticReport/d': '1', 'DiagnosticReport/b': '2' };
    const present = fociOf([report('a', []), report('b', []), report('d', [])], 'DiagnosticReport');
    expect(changesBetween(before, after, present)).toEqual([
      { focus: 'DiagnosticReport/d', change: 'created' }, { focus: 'DiagnosticReport/b', change: 'updated' }, { focus: 'DiagnosticReport/c', change: 'deleted' },
    ]);
    expect(changesBetween(before, before, present)).toEqual([]);
  });

  // Hostile review helper-99, F2: a proxy granted journal notes was told its note changed when only the note's care
  // contact did (the Encounter the note's form writes), a type its grant does not open: nothing it may see had moved.
  it('digests only what the subscriber\'s access opens: a change to a referenced record of another type is not a change', () => {
    const composition = (id: string): FhirResource => ({ resourceType: 'Composition', id, encounter: { reference: 'Encounter/e1' } });
    const encounter = (status: string): FhirResource => ({ resourceType: 'Encounter', id: 'e1', status });
    const notEncounters = (r: FhirResource): boolean => r.resourceType !== 'Encounter';
    const before = viewOf([composition('n1'), encounter('finished')], 'Composition', digest, notEncounters);
    expect(viewOf([composition('n1'), encounter('in-progress')], 'Composition', digest, notEncounters)).toEqual(before);
    // Where the access opens it, it is part of what the subscriber sees.
    expect(viewOf([composition('n1'), encounter('in-progress')], 'Composition', digest)).not.toEqual(viewOf([composition('n1'), encounter('finished')], 'Composition', digest));
  });
});
