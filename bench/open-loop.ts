/**
 * Open-loop load: requests arrive as a Poisson process at a fixed rate whatever the server does, and
 * each latency is measured from the request's scheduled arrival, so a stalled server cannot hide its
 * queue (no coordinated omission). Bounded in count and time.
 */
import { writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { percentile } from './util.js';

export interface OpenLoopResult {
  rate: number;
  seconds: number;
  sent: number;
  completed: number;
  errors: number;
  non2xx: number;
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * @param warmupSeconds arrivals at the same rate before the measured ones (connections opened, code
 *   warm), not recorded; `onMeasure` is called when the measured part starts
 */
export async function openLoop(
  origin: string, path: string, headers: Record<string, string>, rate: number, seconds: number,
  warmupSeconds = 2, onMeasure: () => Promise<unknown> | void = () => undefined,
): Promise<OpenLoopResult> {
  const pool = new Pool(origin, { connections: 256, pipelining: 1 });
  const maxRequests = Math.ceil(rate * (seconds + warmupSeconds) * 1.5) + 100;
  const latencies: number[] = [];
  // BENCH_OPEN_LOOP_TRACE=file: each measured request's arrival (ms into the measured part) and
  // latency, one line each, to tell a tail made by one stall from one spread over the run.
  const traceFile = process.env.BENCH_OPEN_LOOP_TRACE || undefined;
  const trace: string[] = [];
  let sent = 0;
  let errors = 0;
  let non2xx = 0;
  const inflight = new Set<Promise<void>>();

  let measureFrom = Number.POSITIVE_INFINITY;
  const fire = (scheduledAt: number): void => {
    const measured = scheduledAt >= measureFrom;
    if (measured) sent++;
    const p = pool.request({ path, method: 'GET', headers })
      .then(async (res) => {
        await res.body.dump();
        if (!measured) return;
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        const latency = performance.now() - scheduledAt;
        latencies.push(latency);
        if (traceFile) trace.push(`${(scheduledAt - measureFrom).toFixed(2)} ${latency.toFixed(3)}`);
      })
      .catch(() => {
        if (measured) errors++;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  const start = performance.now();
  const warmEnd = start + warmupSeconds * 1000;
  const end = warmEnd + seconds * 1000;
  let measuring = false;
  // Exponential inter-arrival times: a Poisson process of `rate` per second.
  const gap = (): number => (-Math.log(1 - Math.random()) * 1000) / rate;
  let next = start + gap();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      if (!measuring && now >= warmEnd) {
        measuring = true;
        measureFrom = warmEnd;
        void onMeasure();
      }
      while (next <= now && next < end && sent < maxRequests) {
        fire(next);
        next += gap();
      }
      if (next >= end || sent >= maxRequests) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, Math.min(5, next - performance.now())));
    };
    tick();
  });
  const drainUntil = performance.now() + 15_000;
  while (inflight.size > 0 && performance.now() < drainUntil) await Promise.race([...inflight, new Promise((r) => setTimeout(r, 100))]);
  await pool.destroy();
  if (traceFile) writeFileSync(traceFile, `${trace.join('\n')}\n`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rate,
    seconds,
    sent,
    completed: latencies.length,
    errors: errors + inflight.size,
    non2xx,
    achievedRate: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
