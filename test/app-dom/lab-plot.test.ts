/**
 * Issue 55 item 2: a lab plot a patient can read (app/src/chart.ts, plot-scales.ts), laid out by
 * Chart.js itself on a canvas that draws nothing (test/app-dom/fake-canvas.ts). The demo's ferritin
 * axis ran down to −20, its dates were Chart.js's evenly spaced ones (none a sample's), and the range
 * had two identical legend entries, "Reference low" and "Reference high".
 */
import type { Chart } from 'chart.js';
import { describe, expect, it } from 'vitest';
import { plot } from '../../app/src/chart.js';
import type { Observation } from '../../app/src/fhir-types.js';
import { dateOf } from '../../app/src/format.js';
import type { Lang } from '../../app/src/i18n.js';
import { pointsOf } from '../../app/src/labs.js';
import { groupByTest, scalesOf } from '../../app/src/lab-series.js';
import { sampleTicks, yRange } from '../../app/src/plot-scales.js';
import { bandOf } from '../../app/src/reference-range.js';
import { fakeCanvas } from './fake-canvas.js';

const V3 = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const DAY = 86_400_000;

/** One test's results, as the FHIR API answers them: `[when, value, flag]`. */
function results(name: string, unit: string, range: string, values: readonly [string, number, string?][]): Observation[] {
  return values.map(([at, value, flag]) => ({
    resourceType: 'Observation', code: { text: name }, effectiveDateTime: at, valueQuantity: { value, unit }, referenceRange: [{ text: range }],
    ...(flag === undefined ? {} : { interpretation: [{ coding: [{ system: V3, code: flag }] }] }),
  }));
}

/** The plot labTest draws for these results, `width` px wide. */
function drawn(observations: Observation[], width: number, lang: Lang = 'en'): { chart: Chart; xs: number[] } {
  const [test] = groupByTest(observations);
  const [scale] = test === undefined ? [] : scalesOf(test);
  if (scale === undefined) throw new Error('no numbers to draw');
  const points = pointsOf(scale.results, lang);
  const chart = plot(fakeCanvas(width, 224), scale.unit, points, bandOf(scale.results[scale.results.length - 1]?.referenceRange), lang) as unknown as Chart;
  return { chart, xs: points.map((p) => p.x) };
}

const FERRITIN = results('S-Ferritin', 'µg/L', '12–140', [['2026-01-30T10:20:00+01:00', 21, 'N'], ['2026-07-29T10:20:00+02:00', 14, 'N'], ['2026-11-01T10:20:00+01:00', 9, 'A']]);

describe('issue 55 item 2: the plot a patient can read', () => {
  it('starts the y axis at zero, not below, for a measure that cannot be negative (failed before: −20)', () => {
    const { chart } = drawn(FERRITIN, 360);
    expect(chart.scales.y?.min).toBe(0);
    expect(chart.scales.y?.max).toBeGreaterThanOrEqual(140);
  });

  it('keeps a negative axis for a measure that has one, and does not stretch a narrow range down to zero', () => {
    const { chart } = drawn(results('B-Basöverskott', 'mmol/L', '-3–3', [['2026-01-01T10:00:00Z', -5], ['2026-02-01T10:00:00Z', 1]]), 360);
    expect(chart.scales.y?.min).toBeLessThan(-5);
    const hb = drawn(results('B-Hb', 'g/L', '105–145', [['2026-01-01T10:00:00Z', 118], ['2026-02-01T10:00:00Z', 108]]), 360).chart;
    expect(hb.scales.y?.min).toBeGreaterThanOrEqual(90);
  });

  it('names only the samples\' own dates on the x axis, the latest always, none overlapping (failed before: evenly spaced dates)', () => {
    for (const width of [300, 360, 600]) {
      const { chart, xs } = drawn(FERRITIN, width);
      const ticks = chart.scales.x?.ticks.map((t) => t.value) ?? [];
      expect(ticks.length).toBeGreaterThan(0);
      for (const t of ticks) expect(xs).toContain(t);
      expect(ticks).toContain(Math.max(...xs));
    }
    // Twelve monthly samples on a phone: as many as fit, each a sample's, a label's width apart.
    const monthly = results('P-Glukos', 'mmol/L', '4,0–6,0', Array.from({ length: 12 }, (_, i) => [`2026-${String(i + 1).padStart(2, '0')}-15T08:00:00Z`, 5 + (i % 3)] as [string, number]));
    const { chart, xs } = drawn(monthly, 340);
    const x = chart.scales.x;
    const pixels = (x?.ticks ?? []).map((t) => x?.getPixelForValue(t.value) ?? 0);
    expect(pixels.length).toBeGreaterThan(1);
    expect(pixels.length).toBeLessThan(12);
    for (let i = 1; i < pixels.length; i++) expect((pixels[i] ?? 0) - (pixels[i - 1] ?? 0)).toBeGreaterThanOrEqual(11 * 7);
    for (const t of x?.ticks ?? []) expect(xs).toContain(t.value);
  });

  it('gives the range one legend entry, naming it as the table does (failed before: "Reference low", "Reference high")', () => {
    const legend = (chart: Chart) => chart.legend?.legendItems?.map((i) => i.text) ?? [];
    expect(legend(drawn(FERRITIN, 600).chart)).toEqual(['Reference range 12–140', 'Value (µg/L)', '↓ Low']);
    expect(legend(drawn(FERRITIN, 600, 'sv').chart)).toEqual(['Referensintervall 12–140', 'Värde (µg/L)', '↓ Lågt']);
    const crp = drawn(results('P-CRP', 'mg/L', '<5', [['2026-01-01T10:00:00Z', 48, 'H'], ['2026-02-01T10:00:00Z', 3]]), 600).chart;
    expect(legend(crp)).toEqual(['Reference range <5', 'Value (mg/L)', '↑ High']);
  });
});

describe('issue 55 item 2: the choice of ticks and range', () => {
  const label = (x: number) => dateOf(x, 'en');
  const day = (d: number) => Date.UTC(2026, 0, 1) + d * DAY;

  it('takes one tick a date, the latest first, then the earliest, then what has room', () => {
    const xs = [day(0), day(0) + 3_600_000, day(100), day(101), day(200)];
    const span = { min: day(-10), max: day(210) };
    expect(sampleTicks(xs, span, 100_000, 80, label)).toEqual([day(0), day(100), day(101), day(200)]);
    expect(sampleTicks(xs, span, 300, 80, label)).toEqual([day(0), day(101), day(200)]);
    expect(sampleTicks(xs, span, 150, 80, label)).toEqual([day(0), day(200)]);
    expect(sampleTicks(xs, span, 80, 80, label)).toEqual([day(200)]);
    expect(sampleTicks([], { min: 0, max: 1 }, 300, 80, label)).toEqual([]);
  });

  it('suggests a y range with room around the values and the range, above zero where nothing is negative', () => {
    expect(yRange([9, 14, 21], { low: 12, high: 140 })).toEqual({ min: 0, max: 153.1 });
    expect(yRange([118, 108], { low: 105, high: 145 })).toEqual({ min: 101, max: 149 });
    expect(yRange([-5, 1], { low: -3, high: 3 })).toEqual({ min: -5.8, max: 3.8 });
    expect(yRange([7], undefined)).toEqual({ min: 6, max: 8 });
  });
});
