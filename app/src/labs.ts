/**
 * Lab results grouped per test (its first coding, else its text), each test's values oldest first:
 * a plot of the numeric ones with the reference range (one per unit they are given in,
 * lab-series.ts), and a table of all of them, which is what a screen reader reads. Each value keeps
 * its unit on its line and carries its mark (high, low, or abnormal where no direction can be known:
 * direction.ts) in words with a symbol; each range is written with the reader's decimal mark.
 */
import type { Chart } from 'chart.js';
import { plot, type Point } from './chart.js';
import type { Observation } from './fhir-types.js';
import { describePlot } from './plot-text.js';
import { h, section, table, type Child } from './dom.js';
import { valueMark } from './direction.js';
import { when } from './format.js';
import { LABELS, type Lang } from './i18n.js';
import { bandOf } from './reference-range.js';
import { valueText } from './values.js';
import { scalesOf, timeOf, type LabTest } from './lab-series.js';
import { rangesElement, valueElement } from './value-view.js';

export const pointsOf = (results: readonly Observation[], lang: Lang): Point[] => results.flatMap((o) => {
  const x = Date.parse(timeOf(o) ?? '');
  const y = o.valueQuantity?.value;
  if (y === undefined || Number.isNaN(x)) return [];
  const mark = valueMark(o);
  const comparator = o.valueQuantity?.comparator;
  const written = comparator === undefined ? undefined : valueText(o, lang, false);
  return [{ x, y, label: valueText(o, lang), ...(written === undefined ? {} : { written }), ...(mark === undefined ? {} : { mark }), ...(comparator === undefined ? {} : { comparator }) }];
});

/** The test's section; each plot is drawn once its canvas is in the page, by what `charts` collects. */
export function labTest(t: LabTest, lang: Lang, charts: (() => Chart)[]): HTMLElement {
  const parts: Child[] = [];
  const scales = scalesOf(t);
  for (const scale of scales) {
    const points = pointsOf(scale.results, lang);
    if (points.length === 0) continue;
    const band = bandOf(scale.results[scale.results.length - 1]?.referenceRange, scale.unit);
    // Two plots under one heading: each is named with its unit, which otherwise only its axis shows.
    const name = scales.length > 1 && scale.unit !== undefined ? `${t.name} (${scale.unit})` : t.name;
    const canvas = h('canvas', { role: 'img', 'aria-label': describePlot(name, points, band, lang) });
    parts.push(h('div', { class: 'chart' }, canvas));
    charts.push(() => plot(canvas, scale.unit, points, band, lang));
  }
  const rows = t.results.map((o) => {
    const ranges = rangesElement(o, lang);
    return [when(timeOf(o), lang) ?? '', valueElement(o, lang), ranges.length === 0 ? '' : h('span', {}, ...ranges)];
  });
  parts.push(table(`${t.name}: ${LABELS.tableScroll[lang]}`, undefined, [LABELS.when[lang], LABELS.value[lang], LABELS.range[lang]], rows));
  return section(t.name, 3, ...parts);
}
