/**
 * Where a lab plot's axes run and which dates its x axis names (chart.ts draws them). A patient reads
 * the plot against the table beside it: the y axis does not run below zero for a measure that cannot
 * (ferritin's ran down to −20), and each date on the x axis is a sample's own (Chart.js's evenly
 * spaced dates matched none of them), as many as fit side by side, the latest always among them.
 */
import type { Band } from './reference-range.js';

const DAY = 24 * 60 * 60 * 1000;

export interface Span { min: number; max: number }

/** The x range: a little room at both ends, and a month around a single measurement. */
export function xRange(xs: readonly number[]): Span {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pad = hi === lo ? 15 * DAY : (hi - lo) * 0.05;
  return { min: lo - pad, max: hi + pad };
}

/**
 * The y range to suggest to Chart.js (which rounds it outward to its tick step): the values and the
 * range's bounds with a tenth of room above and below, never below zero where nothing is negative.
 */
export function yRange(ys: readonly number[], band: Band | undefined): Span {
  const all = [...ys, ...(band?.low === undefined ? [] : [band.low]), ...(band?.high === undefined ? [] : [band.high])];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = hi > lo ? (hi - lo) * 0.1 : Math.max(Math.abs(hi) * 0.1, 1);
  return { min: lo >= 0 ? Math.max(0, lo - pad) : lo - pad, max: hi + pad };
}

/**
 * The samples whose dates label the x axis: one per date (`dateOf` names it), each at least a label's
 * width (`labelPx`) from the next on an axis `widthPx` wide spanning `span`. The latest comes first,
 * then the earliest, then the others from the latest back, each where it has room.
 */
export function sampleTicks(xs: readonly number[], span: Span, widthPx: number, labelPx: number, dateOf: (x: number) => string): number[] {
  const days = new Map<string, number>();
  for (const x of [...xs].sort((a, b) => a - b)) if (!days.has(dateOf(x))) days.set(dateOf(x), x);
  const candidates = [...days.values()];
  const last = candidates[candidates.length - 1];
  if (last === undefined) return [];
  const gap = widthPx > 0 ? (labelPx / widthPx) * (span.max - span.min) : Infinity;
  const chosen = [last];
  const order = [candidates[0] as number, ...candidates.slice(1, -1).reverse()];
  for (const x of order) if (chosen.every((c) => Math.abs(c - x) >= gap)) chosen.push(x);
  return chosen.sort((a, b) => a - b);
}
