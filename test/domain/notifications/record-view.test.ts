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
});
