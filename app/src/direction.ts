/**
 * Which way a value lies from its reference range, where the record lets that be known. Many EHRs
 * send only a yes/no flag (`A`, abnormal) beside a range that says which way: the patient reads
 * "Low" for 9 µg/L against 12–140, not "Abnormal". The laboratory's own mark comes first
 * (interpretation.ts): a direction it gave stands, a value it called normal (or described in its own
 * words) is never marked by the page. A value with no interpretation at all (a journal note's) is
 * compared with its range. "Abnormal" stays only where no direction can be known.
 */
import type { Observation, Quantity, ReferenceRange } from './fhir-types.js';
import { markOf, type Mark } from './interpretation.js';
import { bandOf } from './reference-range.js';

export type Direction = 'high' | 'low';

/**
 * Where a value lies from one range's bounds (each inclusive, as FHIR's `low` and `high` are):
 * `high`, `low`, or undefined when it lies inside or cannot be told. A value with a comparator is
 * known only beyond a bound: `<5` is low against 10–20, and says nothing against 2–8.
 */
export function directionFrom(value: number, comparator: string | undefined, range: { low?: number; high?: number }): Direction | undefined {
  const { low, high } = range;
  const atMost = comparator === '<' || comparator === '<=';
  const atLeast = comparator === '>' || comparator === '>=';
  if (low !== undefined && !atLeast && (comparator === '<' ? value <= low : value < low)) return 'low';
  if (high !== undefined && !atMost && (comparator === '>' ? value >= high : value > high)) return 'high';
  return undefined;
}

/**
 * One range's direction for the value; undefined when the range has no bound to compare with. A bound
 * given in another unit than the value's cannot be compared with it (units.ts; bandOf leaves it out).
 */
function against(q: Quantity & { value: number }, range: ReferenceRange): Direction | 'inside' | undefined {
  const band = bandOf([range], q.unit);
  if (band?.low === undefined && band?.high === undefined) return undefined;
  return directionFrom(q.value, q.comparator, band) ?? 'inside';
}

/**
 * The value's direction from its ranges: known only where every range (one per population, where a
 * laboratory gives several) has a bound in the value's unit and all say the same way.
 */
export function directionOf(o: Observation): Direction | undefined {
  const q = o.valueQuantity;
  const ranges = o.referenceRange ?? [];
  if (q?.value === undefined || ranges.length === 0) return undefined;
  const found = ranges.map((r) => against(q as Quantity & { value: number }, r));
  const first = found[0];
  return (first === 'high' || first === 'low') && found.every((d) => d === first) ? first : undefined;
}

/**
 * The mark shown beside a value: the laboratory's, its "abnormal" made high or low where the value and
 * range show which way; with no interpretation given, the value's direction from its range.
 */
export function valueMark(o: Observation): Mark | undefined {
  const lab = markOf(o);
  if (lab !== undefined && lab.kind !== 'abnormal') return lab;
  if (lab === undefined && (o.interpretation ?? []).length > 0) return undefined;
  const direction = directionOf(o);
  if (direction === undefined) return lab;
  return { kind: direction, critical: lab?.critical ?? false };
}
