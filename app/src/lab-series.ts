/**
 * Lab results as series: one per test (its first coding, else its text), each oldest first.
 * Apart from the page (labs.ts) so that what decides a series is read without a browser.
 */
import type { Observation } from './fhir-types.js';
import { textOf } from './format.js';

export interface LabTest { key: string; name: string; unit?: string; results: Observation[] }

/** When a result was taken: its effective time, else when it was issued. */
export const timeOf = (o: Observation): string | undefined => o.effectiveDateTime ?? o.issued;

export function groupByTest(observations: readonly Observation[]): LabTest[] {
  const tests = new Map<string, LabTest>();
  for (const o of observations) {
    const coding = o.code?.coding?.find((c) => c.code !== undefined);
    const key = coding === undefined ? `text:${o.code?.text ?? ''}` : `${coding.system ?? ''}|${coding.code ?? ''}`;
    const test = tests.get(key) ?? { key, name: textOf(o.code) ?? '?', results: [] };
    test.results.push(o);
    test.unit ??= o.valueQuantity?.unit;
    tests.set(key, test);
  }
  const at = (o: Observation) => Date.parse(timeOf(o) ?? '') || 0;
  for (const t of tests.values()) t.results.sort((a, b) => at(a) - at(b));
  return [...tests.values()].sort((a, b) => a.name.localeCompare(b.name, 'sv'));
}
