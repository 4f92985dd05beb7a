/**
 * One lab test's values over time as a line (Chart.js, a linear x axis of timestamps: no date
 * adapter), its reference range as two dashed lines with the band between them filled. The canvas
 * is an image named for assistive technology; the table beside it holds the same values.
 */
import { Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartDataset } from 'chart.js';
import { LOCALE, number, shortDate, when } from './format.js';
import { LABELS, type Lang } from './i18n.js';
import type { Band } from './reference-range.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, Filler, Legend, Tooltip);

export interface Point { x: number; y: number }

// Colours with at least 4.5:1 against white, so lines and labels read as well as the text.
const VALUE = '#0b4f9c';
const RANGE = '#1d6b35';
const BAND = 'rgba(29, 107, 53, 0.12)';
const TEXT = '#1b1b1b';
const DAY = 24 * 60 * 60 * 1000;

/** The x range: a little room at both ends, and a month around a single measurement. */
function xRange(points: readonly Point[]): { min: number; max: number } {
  const xs = points.map((p) => p.x);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pad = hi === lo ? 15 * DAY : (hi - lo) * 0.05;
  return { min: lo - pad, max: hi + pad };
}

/** What the plot shows, in words: the accessible name of the canvas. */
export function describePlot(test: string, unit: string | undefined, points: readonly Point[], band: Band | undefined, lang: Lang): string {
  const last = points[points.length - 1];
  const u = unit === undefined ? '' : ` ${unit}`;
  const latest = last === undefined ? '' : `, ${LABELS.latest[lang]} ${number(last.y, lang)}${u} (${when(new Date(last.x).toISOString(), lang) ?? ''})`;
  const range = band?.text === undefined ? '' : `; ${LABELS.range[lang].toLowerCase()} ${band.text}`;
  return `${LABELS.chartOf[lang]} ${test}: ${points.length} ${(points.length === 1 ? LABELS.oneValue : LABELS.values)[lang]}${latest}${range}`;
}

export function plot(canvas: HTMLCanvasElement, unit: string | undefined, points: readonly Point[], band: Band | undefined, lang: Lang): Chart<'line', Point[]> {
  const { min, max } = xRange(points);
  const edge = (y: number): Point[] => [{ x: min, y }, { x: max, y }];
  const dashed = { borderColor: RANGE, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, pointHitRadius: 0 };
  const datasets: ChartDataset<'line', Point[]>[] = [];
  if (band?.low !== undefined) datasets.push({ ...dashed, label: LABELS.rangeLow[lang], data: edge(band.low), fill: false });
  if (band?.high !== undefined) {
    datasets.push({ ...dashed, label: LABELS.rangeHigh[lang], data: edge(band.high), fill: band.low === undefined ? false : '-1', backgroundColor: BAND });
  }
  datasets.push({
    label: `${LABELS.value[lang]}${unit === undefined ? '' : ` (${unit})`}`, data: [...points],
    borderColor: VALUE, backgroundColor: VALUE, borderWidth: 2, pointRadius: 4, fill: false,
  });
  return new Chart<'line', Point[]>(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
      // The axis's numbers in the reader's language, rounded as Chart.js rounds ticks.
      locale: LOCALE[lang], color: TEXT,
      scales: {
        x: { type: 'linear', min, max, ticks: { color: TEXT, maxTicksLimit: 5, callback: (v) => shortDate(Number(v), lang) } },
        y: { type: 'linear', ticks: { color: TEXT }, grace: '10%' },
      },
      plugins: {
        legend: { labels: { color: TEXT, boxHeight: 2 } },
        tooltip: { callbacks: { title: (items) => when(new Date(items[0]?.parsed.x ?? 0).toISOString(), lang) ?? '' } },
      },
    },
  });
}
