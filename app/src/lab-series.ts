/**
 * Lab results as series: one per test (its first coding, else its text), each oldest first, and a
 * test's values drawn against one axis per unit. Apart from the page (labs.ts) so that what decides a
 * series and an axis is read without a browser; which units are one is units.ts's.
 */
import type { Observation } from './fhir-types.js';
import { textOf } from './format.js';
import { unitKey } from './units.js';

export interface LabTest { key: string; name: string; results: Observation[] }

/** The results of a test drawn against one axis: all given in one unit, or all in none. */
export interface LabScale {
  /** As the latest of them writes it; none when they have none. */
  unit?: string;
  /** Oldest first, each with a number. */
  results: Observation[];
}

/** When a result was taken: its effective time, else when it was issued. */
export const timeOf = (o: Observation): string | undefined => o.effectiveDateTime ?? o.issued;

export function groupByTest(observations: readonly Observation[]): LabTest[] {
  const tests = new Map<string, LabTest>();
  for (const o of observations) {
    const coding = o.code?.coding?.find((c) => c.code !== undefined);
    const key = coding === undefined ? `text:${o.code?.text ?? ''}` : `${coding.system ?? ''}|${coding.code ?? ''}`;
    const test = tests.get(key) ?? { key, name: textOf(o.code) ?? '?', results: [] };
    test.results.push(o);
    tests.set(key, test);
  }
  const at = (o: Observation) => Date.parse(timeOf(o) ?? '') || 0;
  for (const t of tests.values()) t.results.sort((a, b) => at(a) - at(b));
  return [...tests.values()].sort((a, b) => a.name.localeCompare(b.name, 'sv'));
}

const unitOf = (o: Observation): string | undefined => {
  const unit = o.valueQuantity?.unit?.trim();
  return unit === '' ? undefined : unit;
};

/**
 * A test's numbers by unit, one axis each, the axis of the latest result first: a test measured in
 * two units is never drawn on one axis (mg/dL read as mmol/L), and stays one test, its table whole.
 */
export function scalesOf(test: LabTest): LabScale[] {
  const scales = new Map<string, { latest: number; results: Observation[] }>();
  test.results.forEach((o, i) => {
    if (o.valueQuantity?.value === undefined) return;
    const key = unitKey(unitOf(o));
    const scale = scales.get(key) ?? { latest: i, results: [] };
    scale.results.push(o);
    scale.latest = i;
    scales.set(key, scale);
  });
  return [...scales.values()].sort((a, b) => b.latest - a.latest).map(({ results }) => {
    const unit = unitOf(results[results.length - 1] as Observation);
    return { ...(unit === undefined ? {} : { unit }), results };
  });
}
