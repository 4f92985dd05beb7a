/**
 * One lab test's values over time as a line (Chart.js, a linear x axis of timestamps: no date
 * adapter), its reference range as two dashed lines with the band between them filled. A value the
 * laboratory marked high or low is a triangle pointing that way (a diamond for "abnormal"), named in
 * the legend and the tooltip in words: never by colour alone. A value given with a comparator (`<5`)
 * is no point on the line: an open triangle beyond the limit, labelled as written. The canvas is an
 * image named for assistive technology; the table beside it holds the same values.
 */
import { Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartDataset, type Plugin, type PointStyle } from 'chart.js';
import { dateOf, LOCALE, when } from './format.js';
import { LABELS, MARK_WORDS, type Lang } from './i18n.js';
import { SYMBOLS, type Mark, type MarkKind } from './interpretation.js';
import { sampleTicks, xRange, yRange } from './plot-scales.js';
import { rangeLegend, spoken } from './plot-text.js';
import type { Band } from './reference-range.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, Filler, Legend, Tooltip);

export interface Point {
  x: number;
  y: number;
  /** The value as the table writes it (`<5 mg/L`, `128 g/L`). */
  label: string;
  /** The value without its unit (`<5`), as the plot labels a value beyond a limit; the unit is the y axis's title. */
  written?: string;
  mark?: Mark;
  /** `<`, `<=`, `>` or `>=`: the value is beyond `y`, not at it. */
  comparator?: string;
}

// Colours with at least 4.5:1 against white, so lines and labels read as well as the text.
const VALUE = '#0b4f9c';
const MARKED = '#a4262c';
const RANGE = '#1d6b35';
const BAND = 'rgba(29, 107, 53, 0.12)';
const TEXT = '#1b1b1b';

const STYLE: Readonly<Record<MarkKind | 'none', { style: PointStyle; rotation: number }>> = {
  none: { style: 'circle', rotation: 0 }, high: { style: 'triangle', rotation: 0 }, low: { style: 'triangle', rotation: 180 }, abnormal: { style: 'rectRot', rotation: 0 },
};
const below = (p: Point): boolean => p.comparator?.startsWith('<') === true;

/** Draws each value given with a comparator: an open triangle beyond its limit, pointing away, and the value as written beside it. */
const beyondLimits: Plugin<'line'> = {
  id: 'beyond-limits',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    chart.data.datasets.forEach((dataset, i) => {
      const meta = chart.getDatasetMeta(i);
      (dataset.data as unknown as Point[]).forEach((p, j) => {
        const element = meta.data[j];
        if (p.comparator === undefined || element === undefined || meta.hidden) return;
        const down = below(p);
        const tip = element.y + (down ? 15 : -15);
        const base = element.y + (down ? 4 : -4);
        ctx.save();
        ctx.beginPath();
        ctx.moveTo(element.x - 6, base);
        ctx.lineTo(element.x + 6, base);
        ctx.lineTo(element.x, tip);
        ctx.closePath();
        ctx.fillStyle = '#ffffff';
        ctx.strokeStyle = p.mark === undefined ? VALUE : MARKED;
        ctx.lineWidth = 2;
        ctx.fill();
        ctx.stroke();
        ctx.fillStyle = TEXT;
        ctx.font = '12px system-ui, sans-serif';
        ctx.textBaseline = 'middle';
        // Beside the triangle, on the side where the plot has room for it.
        const text = p.written ?? p.label;
        const width = ctx.measureText(text).width;
        const right = element.x + 9 + width <= chart.chartArea.right + 8;
        ctx.textAlign = right ? 'left' : 'right';
        ctx.fillText(text, right ? element.x + 9 : element.x - 9, (base + tip) / 2);
        ctx.restore();
      });
    });
  },
};

/** A date label's width on the x axis, with room between two: 12 px text, some 7 px a character. */
const labelPx = (text: string): number => text.length * 7 + 16;

export function plot(canvas: HTMLCanvasElement, unit: string | undefined, points: readonly Point[], band: Band | undefined, lang: Lang): Chart<'line', Point[]> {
  const { min, max } = xRange(points.map((p) => p.x));
  const y = yRange(points.map((p) => p.y), band);
  const edge = (at: number): Point[] => [{ x: min, y: at, label: '' }, { x: max, y: at, label: '' }];
  const dashed = { borderColor: RANGE, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, pointHitRadius: 0, pointStyle: 'line' as const };
  const datasets: ChartDataset<'line', Point[]>[] = [];
  // Both bounds are one thing to a reader, the range: one legend entry names it (the upper line's, or the only one's).
  const rangeLabel = band === undefined ? '' : rangeLegend(band, lang);
  if (band?.low !== undefined) datasets.push({ ...dashed, label: rangeLabel, data: edge(band.low), fill: false });
  if (band?.high !== undefined) {
    datasets.push({ ...dashed, label: rangeLabel, data: edge(band.high), fill: band.low === undefined ? false : '-1', backgroundColor: BAND });
  }
  const unnamed = new Set(band?.low !== undefined && band.high !== undefined ? [0] : []);
  // Scriptable options are asked per point, and also for the dataset as a whole (the legend): then there is no point.
  const at = (c: { raw?: unknown }): Partial<Point> => (c.raw ?? {}) as Partial<Point>;
  const valueLabel = `${LABELS.value[lang]}${unit === undefined ? '' : ` (${unit})`}`;
  // The line's own legend entry would take the first point's shape (a triangle when it is marked): the
  // legend gets a circle of its own, and a shape per kind of mark the plot shows, each by its word.
  unnamed.add(datasets.length);
  datasets.push({
    label: valueLabel, data: [...points], fill: false, borderColor: VALUE, borderWidth: 2,
    pointStyle: (c) => STYLE[at(c).mark?.kind ?? 'none'].style,
    pointRotation: (c) => STYLE[at(c).mark?.kind ?? 'none'].rotation,
    pointRadius: (c) => (at(c).comparator !== undefined ? 0 : at(c).mark === undefined ? 4 : 7),
    pointHitRadius: 8,
    backgroundColor: (c) => (at(c).mark === undefined ? VALUE : MARKED),
    pointBorderColor: (c) => (at(c).mark === undefined ? VALUE : MARKED),
  });
  datasets.push({ label: valueLabel, data: [], pointStyle: 'circle', backgroundColor: VALUE, borderColor: VALUE });
  for (const kind of ['high', 'low', 'abnormal'] as const) {
    if (!points.some((p) => p.mark?.kind === kind)) continue;
    datasets.push({
      label: `${SYMBOLS[kind]} ${MARK_WORDS[kind][lang]}`, data: [], pointStyle: STYLE[kind].style, pointRotation: STYLE[kind].rotation,
      backgroundColor: MARKED, borderColor: MARKED,
    });
  }
  return new Chart<'line', Point[]>(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [beyondLimits],
    options: {
      animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
      // The axis's numbers in the reader's language, rounded as Chart.js rounds ticks.
      locale: LOCALE[lang], color: TEXT,
      scales: {
        x: {
          type: 'linear', min, max,
          // The samples' own dates, as many as fit (plot-scales.ts): never a date no sample was taken on.
          afterBuildTicks: (axis) => {
            const xs = points.map((p) => p.x);
            const widest = Math.max(...xs.map((x) => labelPx(dateOf(x, lang))));
            axis.ticks = sampleTicks(xs, { min, max }, axis.width, widest, (x) => dateOf(x, lang)).map((value) => ({ value }));
          },
          ticks: { color: TEXT, autoSkip: false, maxRotation: 0, callback: (v) => dateOf(Number(v), lang) },
        },
        y: { type: 'linear', suggestedMin: y.min, suggestedMax: y.max, ticks: { color: TEXT }, title: { display: true, text: unit ?? LABELS.value[lang], color: TEXT } },
      },
      plugins: {
        legend: { labels: { color: TEXT, usePointStyle: true, boxHeight: 8, filter: (item) => !unnamed.has(item.datasetIndex ?? -1) } },
        tooltip: {
          filter: (item) => item.dataset.pointHitRadius !== 0,
          callbacks: {
            title: (items) => when(new Date(items[0]?.parsed.x ?? 0).toISOString(), lang) ?? '',
            label: (item) => spoken(item.raw as Point, lang),
          },
        },
      },
    },
  });
}
