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
import { markWords, SYMBOLS, type Mark, type MarkKind } from './interpretation.js';
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
const DAY = 24 * 60 * 60 * 1000;

const STYLE: Readonly<Record<MarkKind | 'none', { style: PointStyle; rotation: number }>> = {
  none: { style: 'circle', rotation: 0 }, high: { style: 'triangle', rotation: 0 }, low: { style: 'triangle', rotation: 180 }, abnormal: { style: 'rectRot', rotation: 0 },
};
const below = (p: Point): boolean => p.comparator?.startsWith('<') === true;

/** The x range: a little room at both ends, and a month around a single measurement. */
function xRange(points: readonly Point[]): { min: number; max: number } {
  const xs = points.map((p) => p.x);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pad = hi === lo ? 15 * DAY : (hi - lo) * 0.05;
  return { min: lo - pad, max: hi + pad };
}

/** A value in words: as written, and the laboratory's mark. */
const spoken = (p: Point, lang: Lang): string => (p.mark === undefined ? p.label : `${p.label} (${markWords(p.mark, lang).toLowerCase()})`);

/** What the plot shows, in words: the accessible name of the canvas. */
export function describePlot(test: string, points: readonly Point[], band: Band | undefined, lang: Lang): string {
  const last = points[points.length - 1];
  const latest = last === undefined ? '' : `, ${LABELS.latest[lang]} ${spoken(last, lang)} (${when(new Date(last.x).toISOString(), lang) ?? ''})`;
  const kinds = (['high', 'low', 'abnormal'] as const).map((k) => [k, points.filter((p) => p.mark?.kind === k).length] as const).filter(([, n]) => n > 0);
  const marked = kinds.length === 0 ? '' : `; ${kinds.map(([k, n]) => `${n} ${MARK_WORDS[k][lang].toLowerCase()}`).join(', ')}`;
  const range = band?.text === undefined ? '' : `; ${LABELS.range[lang].toLowerCase()} ${band.text}`;
  return `${LABELS.chartOf[lang]} ${test}: ${points.length} ${(points.length === 1 ? LABELS.oneValue : LABELS.values)[lang]}${latest}${marked}${range}`;
}

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

export function plot(canvas: HTMLCanvasElement, unit: string | undefined, points: readonly Point[], band: Band | undefined, lang: Lang): Chart<'line', Point[]> {
  const { min, max } = xRange(points);
  const edge = (y: number): Point[] => [{ x: min, y, label: '' }, { x: max, y, label: '' }];
  const dashed = { borderColor: RANGE, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, pointHitRadius: 0, pointStyle: 'line' as const };
  const datasets: ChartDataset<'line', Point[]>[] = [];
  if (band?.low !== undefined) datasets.push({ ...dashed, label: LABELS.rangeLow[lang], data: edge(band.low), fill: false });
  if (band?.high !== undefined) {
    datasets.push({ ...dashed, label: LABELS.rangeHigh[lang], data: edge(band.high), fill: band.low === undefined ? false : '-1', backgroundColor: BAND });
  }
  // Scriptable options are asked per point, and also for the dataset as a whole (the legend): then there is no point.
  const at = (c: { raw?: unknown }): Partial<Point> => (c.raw ?? {}) as Partial<Point>;
  const valueLabel = `${LABELS.value[lang]}${unit === undefined ? '' : ` (${unit})`}`;
  // The line's own legend entry would take the first point's shape (a triangle when it is marked): the
  // legend gets a circle of its own, and a shape per kind of mark the plot shows, each by its word.
  const values = datasets.length;
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
        x: { type: 'linear', min, max, ticks: { color: TEXT, maxTicksLimit: 4, callback: (v) => dateOf(Number(v), lang) } },
        y: { type: 'linear', ticks: { color: TEXT }, grace: '15%', title: { display: true, text: unit ?? LABELS.value[lang], color: TEXT } },
      },
      plugins: {
        legend: { labels: { color: TEXT, usePointStyle: true, boxHeight: 8, filter: (item) => item.datasetIndex !== values } },
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
