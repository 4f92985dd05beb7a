/**
 * Issue 56 items 1 and 2, for `npm run bench`: what regions run (`xml-http` against the EHR simulator)
 * beside the embedded EHR, with the simulator's validators on (conditional GETs, 304s answered from
 * the kept records) and off (every read fetched and mapped in full: the service as it was before).
 * Each `xml-http` run's conditional GETs and kept or mapped documents are read from the service's own
 * /metrics before and after it, so the table says what the run really did.
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { fmt, table, waitFor } from './util.js';

/** The counters of docs/upstream-ehr.md#7-conditional-requests, as one service's /metrics has them now. */
export interface DocumentCounts {
  notModified: number;
  modified: number;
  refetched: number;
  kept: number;
  mapped: number;
}

/** One `xml-http` run's counts: what its reads did. */
export interface ConditionalRun extends DocumentCounts {
  scenario: string;
}

/** The metrics address in the start line of a service's log, if written yet. */
function loggedAddress(logFile: string): string | undefined {
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"metrics"')) continue;
    const address = (JSON.parse(line) as { metrics?: unknown }).metrics;
    if (typeof address === 'string') return address;
  }
  return undefined;
}

/**
 * Where the service's /metrics answers, from the start line of its log (METRICS_PORT 0 takes any free
 * port); the line may be written a moment after the API first answers.
 */
export async function metricsAddress(logFile: string): Promise<string> {
  let address: string | undefined;
  await waitFor(`the metrics address in ${logFile}`, async () => (address = loggedAddress(logFile)) !== undefined, 10_000);
  return address as string;
}

const counter = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

/** The counters now. */
export async function documentCounts(metrics: string): Promise<DocumentCounts> {
  const res = await request(`${metrics}/metrics`);
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${metrics}/metrics answered ${res.statusCode}`);
  const answer = (a: string): number => counter(text, `pdas_ehr_conditional_requests_total{answer="${a}"}`);
  const outcome = (o: string): number => counter(text, `pdas_mapped_documents_total{outcome="${o}"}`);
  return { notModified: answer('not-modified'), modified: answer('modified'), refetched: answer('refetched'), kept: outcome('kept'), mapped: outcome('mapped') };
}

/** What happened between two readings of the counters. */
export function between(scenario: string, before: DocumentCounts, after: DocumentCounts): ConditionalRun {
  const d = (k: keyof DocumentCounts): number => after[k] - before[k];
  return { scenario, notModified: d('notModified'), modified: d('modified'), refetched: d('refetched'), kept: d('kept'), mapped: d('mapped') };
}

export function conditionalTable(runs: readonly ConditionalRun[]): string {
  return table(
    ['scenario', 'documents read', 'conditional GETs', '304 answered from kept', '200 (changed)', '304 asked again', 'documents kept / mapped'],
    runs.map((r) => [
      r.scenario, fmt(r.kept + r.mapped), fmt(r.notModified + r.modified + r.refetched), fmt(r.notModified), fmt(r.modified), fmt(r.refetched), `${fmt(r.kept)} / ${fmt(r.mapped)}`,
    ]),
  );
}
