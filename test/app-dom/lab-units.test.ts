/**
 * One test's results in more than one unit (a laboratory that changed its method, a result from
 * another laboratory): each value is drawn against the axis of its own unit, with the reference range
 * given in that unit; the test stays one section, its table holding every result with its own unit.
 * Failed before: every value was drawn on one axis titled with the first result's unit (glucose in
 * mg/dL read as mmol/L), under the range of the latest result, whatever its unit (hostile review
 * helper-220, F6). Splitting the test by unit instead (helper-221, F5) made two sections of one name,
 * took a result in words out of its series and parted `mmol/L` from `mmol/l`.
 */
import type { Chart } from 'chart.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Observation } from '../../app/src/fhir-types.js';
import { labTest } from '../../app/src/labs.js';
import { groupByTest } from '../../app/src/lab-series.js';
import type { Point } from '../../app/src/chart.js';
import { valueMark } from '../../app/src/direction.js';
import { fakeCanvas } from './fake-canvas.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

/** A page whose canvases Chart.js can lay out (fake-canvas.ts) and whose elements a test can read (fake-document.ts). */
const pageDocument = {
  createElement: (tag: string) => (tag === 'canvas' ? Object.assign(fakeCanvas(360, 224), fakeDocument.createElement(tag)) : fakeDocument.createElement(tag)),
};

const result = (at: string, value: number | string, unit: string | undefined, range: string): Observation => ({
  resourceType: 'Observation', code: { coding: [{ system: 'urn:oid:1.2.752.108.1', code: 'NPU02192' }], text: 'P-Glukos' }, effectiveDateTime: at,
  ...(typeof value === 'string' ? { valueString: value } : { valueQuantity: { value, ...(unit === undefined ? {} : { unit }) } }),
  referenceRange: [{ text: range }],
});

interface Drawn { section: FakeElement; charts: { unit: string; labels: string[]; legend: string[]; name: string }[] }

/** The test's section as the page shows it, and each plot drawn in it: its axis's unit, the values on its line, its legend. */
function drawn(observations: Observation[]): Drawn {
  const [test, ...others] = groupByTest(observations);
  expect(others).toEqual([]);
  if (test === undefined) throw new Error('no test');
  const draws: (() => Chart)[] = [];
  const section = labTest(test, 'en', draws) as unknown as FakeElement;
  const canvases = all(section, 'canvas');
  expect(canvases.length).toBe(draws.length);
  const charts = draws.map((draw, i) => {
    const chart = draw();
    const values = chart.data.datasets.find((d) => d.data.length > 0 && String(d.label).startsWith('Value'));
    return {
      unit: String((chart.options.scales?.y as { title?: { text?: string } } | undefined)?.title?.text),
      labels: ((values?.data ?? []) as unknown as Point[]).map((p) => p.label),
      legend: chart.legend?.legendItems?.map((item) => item.text) ?? [],
      name: canvases[i]?.attrs['aria-label'] ?? '',
    };
  });
  return { section, charts };
}

describe('a lab test measured in more than one unit', () => {
  beforeEach(() => { vi.stubGlobal('document', pageDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('draws each value against the axis of its own unit, under that unit\'s range, the latest unit first', () => {
    const { section, charts } = drawn([
      result('2026-01-10T08:00:00Z', 5.4, 'mmol/L', '4,0–6,0'),
      result('2026-03-10T08:00:00Z', 6.1, 'mmol/L', '4,0–6,0'),
      result('2026-06-10T08:00:00Z', 99, 'mg/dL', '70–110'),
    ]);
    expect(charts.map((c) => [c.unit, c.labels])).toEqual([
      ['mg/dL', ['99\u00a0mg/dL']],
      ['mmol/L', ['5.4\u00a0mmol/L', '6.1\u00a0mmol/L']],
    ]);
    expect(charts.map((c) => c.legend[0])).toEqual(['Reference range 70–110', 'Reference range 4.0–6.0']);
    // Two plots under one heading: each named for assistive technology with its unit.
    expect(charts.map((c) => c.name)).toEqual([expect.stringMatching(/^Plot of P-Glukos \(mg\/dL\): 1 value/), expect.stringMatching(/^Plot of P-Glukos \(mmol\/L\): 2 values/)]);
    // One section, one table: every result in it, in its own unit, oldest first.
    expect(all(section, 'h3').map((e) => e.text())).toEqual(['P-Glukos']);
    expect(all(section, 'table').length).toBe(1);
    expect(all(section, 'tr').slice(1).map((r) => all(r, 'td')[1]?.text().trim())).toEqual(['5.4\u00a0mmol/L', '6.1\u00a0mmol/L ↑\u00a0High', '99\u00a0mg/dL']);
  });

  it('draws a value with no unit apart from the values with one', () => {
    const { charts } = drawn([result('2026-01-10T08:00:00Z', 130, 'g/L', '117–153'), result('2026-02-10T08:00:00Z', 13, undefined, '11,7–15,3')]);
    expect(charts.map((c) => [c.unit, c.labels])).toEqual([['Value', ['13']], ['g/L', ['130\u00a0g/L']]]);
    expect(charts.map((c) => c.legend[0])).toEqual(['Reference range 11.7–15.3', 'Reference range 117–153']);
  });

  it('keeps one plot where the units are one written two ways (the litre\'s L or l, the micro sign or μ)', () => {
    const one = drawn([
      result('2026-01-10T08:00:00Z', 5.4, 'mmol/l', '4,0–6,0'), result('2026-03-10T08:00:00Z', 6.1, 'mmol/L', '4,0–6,0'),
      result('2026-04-10T08:00:00Z', 'hemolys', undefined, '4,0–6,0'),
    ]);
    // Titled as the latest drawn value writes its unit; each value keeps its own spelling.
    expect(one.charts.map((c) => [c.unit, c.labels])).toEqual([['mmol/L', ['5.4\u00a0mmol/l', '6.1\u00a0mmol/L']]]);
    expect(one.charts[0]?.name).toMatch(/^Plot of P-Glukos: 2 values/);
    const micro = drawn([result('2026-01-10T08:00:00Z', 21, 'μg/L', '12–140'), result('2026-03-10T08:00:00Z', 14, 'µg/L', '12–140')]);
    expect(micro.charts.map((c) => c.labels.length)).toEqual([2]);
    // A milli is no mega: a prefix's case is kept apart.
    const prefixes = drawn([result('2026-01-10T08:00:00Z', 3, 'mU/L', '0,4–4,0'), result('2026-03-10T08:00:00Z', 2, 'MU/L', '0,4–4,0')]);
    expect(prefixes.charts.map((c) => c.unit)).toEqual(['MU/L', 'mU/L']);
  });

  // helper-222, F5: a range written with its unit spelled otherwise than the value's (`4–6 mmol/l`
  // beside 9.9 mmol/L, as the service writes bounds it cannot place) gave no band and no High mark.
  // F6: bounds in mmol/L were drawn as the band of values in mg/dL. Each failed before.
  it('compares a value and draws it with a range only in its own unit, however the unit is spelled', () => {
    const spelled = drawn([result('2026-01-10T08:00:00Z', 5.4, 'mmol/L', '4–6 mmol/l'), result('2026-03-10T08:00:00Z', 9.9, 'mmol/L', '4–6 mmol/l')]);
    expect(spelled.charts.map((c) => c.legend)).toEqual([['Reference range 4–6 mmol/l', 'Value (mmol/L)', '↑ High']]);
    expect(all(spelled.section, 'tr').slice(1).map((r) => all(r, 'td')[1]?.text().trim())).toEqual(['5.4\u00a0mmol/L', '9.9\u00a0mmol/L ↑\u00a0High']);
    const inMmol = { low: { value: 4, unit: 'mmol/L' }, high: { value: 6, unit: 'mmol/L' } };
    const other: Observation = { ...result('2026-03-10T08:00:00Z', 150, 'mg/dL', ''), referenceRange: [{ ...inMmol, text: '4–6' }] };
    const away = drawn([other]);
    expect(away.charts.map((c) => [c.unit, c.legend])).toEqual([['mg/dL', ['Value (mg/dL)']]]);
    expect(valueMark(other)).toBeUndefined();
    // A word after the numbers that is no unit of the value's names no numbers: written as it is in the table, not drawn.
    const population = drawn([result('2026-03-10T08:00:00Z', 160, 'g/L', '117–153 (Kvinnor)')]);
    expect(population.charts[0]?.legend).toEqual(['Value (g/L)']);
    expect(all(population.section, 'tr').slice(1).map((r) => all(r, 'td')[2]?.text())).toEqual(['117–153 (Kvinnor)']);
  });

  // helper-223, F4: a range of one bound in another unit and one of none gave the latter as a band, and a
  // High mark; F5: a range written with its unit kept the English decimal point in Swedish. Each failed before.
  it('takes no bound of a range one of whose bounds is in another unit, and writes a range with its unit in the reader\'s decimals', () => {
    const halfAway: Observation = { ...result('2026-03-10T08:00:00Z', 99, 'mg/dL', ''), referenceRange: [{ low: { value: 4, unit: 'mmol/L' }, high: { value: 6 } }] };
    expect(valueMark(halfAway)).toBeUndefined();
    expect(drawn([halfAway]).charts[0]?.legend).toEqual(['Value (mg/dL)']);
    vi.stubGlobal('document', pageDocument);
    const low = result('2026-03-10T08:00:00Z', 2.9, 'mmol/L', '3.5–4.4 mmol/l');
    const [test] = groupByTest([low]);
    const section = labTest(test as NonNullable<typeof test>, 'sv', []) as unknown as FakeElement;
    expect(all(section, 'tr').slice(1).map((r) => [all(r, 'td')[1]?.text().trim(), all(r, 'td')[2]?.text()])).toEqual([['2,9\u00a0mmol/L ↓\u00a0Lågt', '3,5–4,4 mmol/l']]);
  });
});
