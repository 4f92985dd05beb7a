/** What a soak run must show afterwards. Pure functions over what the run recorded, so each can be shown to fail. */
import type { AuditRow } from './infra.js';
import type { LoadResult, Outcome } from './load.js';
import type { MemorySample } from './sampler.js';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  /** The first few offending items, for the report. */
  problems: string[];
}

const MIB = 1024 * 1024;
const FIRST = 10;

function result(name: string, problems: string[], detail: string): CheckResult {
  return { name, ok: problems.length === 0, detail, problems: problems.slice(0, FIRST) };
}

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/**
 * (a) Every answered request to a patient-data route has exactly one outcome row, with the status the
 * caller got; no row for a request never sent. A write's attempt row (stored before the EHR is asked)
 * must belong to a request that also has its outcome row.
 */
export function checkAudit(outcomes: readonly Outcome[], rows: readonly AuditRow[]): CheckResult {
  const byId = new Map<string, AuditRow[]>();
  const attempts = rows.filter((row) => row.phase === 'attempt');
  for (const row of rows) {
    if (row.phase === 'attempt') continue;
    const list = byId.get(row.requestId);
    if (list) list.push(row);
    else byId.set(row.requestId, [row]);
  }
  const problems: string[] = [];
  const sent = new Set(outcomes.map((o) => o.requestId));
  let expected = 0;
  for (const o of outcomes) {
    const found = byId.get(o.requestId) ?? [];
    if (found.length > 1) problems.push(`${o.requestId} (${o.label}): ${found.length} audit rows`);
    if (!o.audited || o.status === 0) continue;
    expected += 1;
    if (found.length === 0) problems.push(`${o.requestId} (${o.label}, answered ${o.status}): no audit row`);
    else if (found.length === 1 && found[0]?.status !== o.status) {
      problems.push(`${o.requestId} (${o.label}): audited status ${found[0]?.status}, answered ${o.status}`);
    }
  }
  for (const id of byId.keys()) if (!sent.has(id)) problems.push(`${id}: audit row for a request never sent`);
  for (const a of attempts) if (!byId.has(a.requestId)) problems.push(`${a.requestId}: write attempt with no outcome row`);
  const missing = problems.filter((p) => p.endsWith('no audit row')).length;
  // Refusals before authentication are tallied: only the first of each kind in a minute has a row of its own.
  const tallied = outcomes.filter((o) => !o.audited && o.status !== 0);
  const withRows = tallied.filter((o) => byId.has(o.requestId));
  const talliedRows = `${withRows.length} (${[...new Set(withRows.map((o) => o.label))].map((l) => `${l}: ${withRows.filter((o) => o.label === l).length}`).join(', ')})`;
  return result('audit: one row per answered request', problems,
    `${expected} answered requests to patient-data routes, ${rows.length - attempts.length} outcome rows (+${attempts.length} write attempts), ${missing} missing, ${problems.length - missing} other problems; ${tallied.length} refusals before authentication with ${talliedRows} rows of their own`);
}

/** (c) Every answer is the one planned (so every non-2xx was provoked on purpose), and every 2xx body passes its check. */
export function checkStatuses(outcomes: readonly Outcome[]): CheckResult {
  const groups = new Map<string, { count: number; example: string }>();
  for (const o of outcomes) {
    if (o.status === 0) continue;
    let key: string | undefined;
    if (o.status !== o.expect) key = `${o.label}: expected ${o.expect}, got ${o.status}`;
    else if (o.problem !== undefined) key = `${o.label}: ${o.problem}`;
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { count: 1, example: o.requestId });
  }
  const problems = [...groups.entries()].sort((a, b) => b[1].count - a[1].count).map(([key, g]) => `${key} (${g.count}×, e.g. ${g.example})`);
  const unexpected = [...groups.values()].reduce((s, g) => s + g.count, 0);
  return result('statuses: every answer as planned', problems, `${unexpected} unexpected answers in ${groups.size} kinds`);
}

/** (d) No 5xx at all. */
export function checkNoServerErrors(outcomes: readonly Outcome[]): CheckResult {
  const counts = new Map<string, number>();
  const examples = new Map<string, string>();
  for (const o of outcomes) {
    if (o.status < 500) continue;
    const key = `${o.status} on ${o.label}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!examples.has(key)) examples.set(key, `e.g. ${o.requestId} at ${o.at.toFixed(1)} s${o.problem ? `, ${o.problem}` : ''}`);
  }
  const problems = [...counts.entries()].map(([k, n]) => `${k} (${n}×, ${examples.get(k)})`);
  return result('no 5xx', problems, `${[...counts.values()].reduce((s, n) => s + n, 0)} answers with 5xx`);
}

/** Every request that was due was sent, and every one sent was answered. */
export function checkAnswered(load: LoadResult): CheckResult {
  const unanswered = load.outcomes.filter((o) => o.status === 0);
  const problems = unanswered.map((o) => `${o.requestId} (${o.label}): ${o.problem ?? 'no answer'}`);
  if (load.notSent > 0) problems.unshift(`${load.notSent} requests not sent: ${load.maxInFlightSeen} were in flight`);
  if (load.stoppedEarly !== undefined) problems.unshift(`load stopped early: ${load.stoppedEarly}`);
  return result('every request answered', problems, `${unanswered.length} unanswered, ${load.notSent} not sent, at most ${load.maxInFlightSeen} in flight`);
}

export interface MemoryLimits {
  warmupS: number;
  durationS: number;
  maxRssSlopeMbPerMin: number;
  maxHeapSlopeMbPerMin: number;
  maxRssRatio: number;
}

export interface MemoryTrend {
  warmupRss: number;
  finalRss: number;
  maxRss: number;
  rssSlopeMbPerMin: number;
  heapSlopeMbPerMin: number;
  secondHalfSamples: number;
}

/**
 * Slope of the floor of a sawtooth: the minimum of each of `windows` consecutive slices, against the
 * slice's middle time. The heap in use rises between collections and drops after each, so its
 * minima, not its samples, show what is retained.
 */
export function floorSlope(points: ReadonlyArray<{ x: number; y: number }>, windows = 5): number {
  if (points.length < windows * 2) return slope(points);
  const size = points.length / windows;
  const floors: Array<{ x: number; y: number }> = [];
  for (let w = 0; w < windows; w++) {
    const slice = points.slice(Math.round(w * size), Math.round((w + 1) * size));
    if (slice.length === 0) continue;
    floors.push({ x: ((slice[0]?.x ?? 0) + (slice[slice.length - 1]?.x ?? 0)) / 2, y: Math.min(...slice.map((p) => p.y)) });
  }
  return slope(floors);
}

export function memoryTrend(samples: readonly MemorySample[], limits: MemoryLimits): MemoryTrend {
  const atWarmup = [...samples].reverse().find((s) => s.t <= limits.warmupS) ?? samples[0];
  const secondHalf = samples.filter((s) => s.t >= limits.durationS / 2);
  const perMin = (bytesPerS: number): number => (bytesPerS * 60) / MIB;
  return {
    warmupRss: atWarmup?.rss ?? NaN,
    finalRss: samples[samples.length - 1]?.rss ?? NaN,
    maxRss: samples.reduce((m, s) => Math.max(m, s.rss), 0),
    rssSlopeMbPerMin: perMin(slope(secondHalf.map((s) => ({ x: s.t, y: s.rss })))),
    heapSlopeMbPerMin: perMin(floorSlope(secondHalf.filter((s) => s.heapUsed !== undefined).map((s) => ({ x: s.t, y: s.heapUsed as number })))),
    secondHalfSamples: secondHalf.length,
  };
}

/** A trend needs a second half at least this long; a shorter run is all warm-up (heap still sizing itself). */
export const MIN_TREND_WINDOW_S = 60;

/**
 * (b) No memory growth trend: RSS and heap floor flat over the second half (judged when that half is
 * a minute or longer), final RSS within a ratio of the warm-up's (always judged).
 */
export function checkMemory(samples: readonly MemorySample[], limits: MemoryLimits): CheckResult {
  const m = memoryTrend(samples, limits);
  const mb = (b: number): string => `${(b / MIB).toFixed(1)} MiB`;
  const problems: string[] = [];
  const judged = limits.durationS / 2 >= MIN_TREND_WINDOW_S;
  if (m.secondHalfSamples < 5) problems.push(`only ${m.secondHalfSamples} samples in the second half`);
  if (judged && m.rssSlopeMbPerMin > limits.maxRssSlopeMbPerMin) {
    problems.push(`RSS grows ${m.rssSlopeMbPerMin.toFixed(2)} MiB/min over the second half (limit ${limits.maxRssSlopeMbPerMin})`);
  }
  if (judged && m.heapSlopeMbPerMin > limits.maxHeapSlopeMbPerMin) {
    problems.push(`heap floor grows ${m.heapSlopeMbPerMin.toFixed(2)} MiB/min over the second half (limit ${limits.maxHeapSlopeMbPerMin})`);
  }
  if (!(m.finalRss <= limits.maxRssRatio * m.warmupRss)) {
    problems.push(`final RSS ${mb(m.finalRss)} over ${limits.maxRssRatio} × ${mb(m.warmupRss)} at the end of the warm-up`);
  }
  return result('memory: no growth trend', problems,
    `RSS ${mb(m.warmupRss)} after warm-up, ${mb(m.finalRss)} at the end, max ${mb(m.maxRss)}; slope over the second half: RSS ${m.rssSlopeMbPerMin.toFixed(2)} MiB/min, heap floor ${m.heapSlopeMbPerMin.toFixed(2)} MiB/min${judged ? '' : ` (slopes not judged: a trend needs a second half of ${MIN_TREND_WINDOW_S} s or more)`}`);
}
