/**
 * Load shedding must answer for real overload, not for a stall shorter than its own threshold. A
 * hostile EHR answer can stall the event loop for hundreds of milliseconds by itself: parsing a
 * 10 MiB document nested 1.4 million levels deep took 0.4–0.9 s here (hostile-documents.test.ts; now
 * refused in ~20 ms; the reader, the one engine since issue 12 item 5, reads every document in slices),
 * and a busy or throttled CPU does the same. With PRESSURE_MAX_EVENT_LOOP_DELAY_MS at 60 s, a
 * stall of 300 ms must not turn the next requests into 503 "overloaded".
 *
 * This fails today (finding, not fixed here): @fastify/under-pressure turns a sample window in which
 * the event-loop-delay histogram recorded nothing (histogram.mean is NaN) into
 * eventLoopDelay = Infinity, which is over any threshold, so every API request in the following
 * 250 ms window is shed. The histogram records nothing in a window that a stall begins right after a
 * sample was taken (the first tick after each reset is not recorded), and often in the first window
 * after start-up (seen, not pinned here: it depends on how long start-up keeps the loop busy).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHostileApp, type HostileApp } from './support/hostile-app.js';

/** Keeps this thread busy, as a big synchronous parse or a CPU the process cannot get does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('load shedding answers for overload, not for a stall under its threshold (PRESSURE_MAX_EVENT_LOOP_DELAY_MS=60000)', () => {
  let app: HostileApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves the request after a 300 ms stall that begins just after the shedding sampled', async () => {
    app = await startHostileApp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A first stall makes the sampling timer and this one due together; this one then runs right
      // after the sample, so the second stall fills the next window from its start.
      await new Promise<void>((resolve) => {
        setTimeout(() => {
          stall(300);
          resolve();
        }, 250);
        stall(300);
      });
      statuses.push((await app.get('/patients/journalnotes/')).status);
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    expect(statuses).toEqual([200, 200, 200]);
  });
});
