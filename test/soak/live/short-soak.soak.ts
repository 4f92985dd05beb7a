/**
 * A short soak (15 s) run in-process against the real service process, PostgreSQL and Redis, so CI
 * proves `npm run soak` works without running it for five minutes. `npm run test:soak` runs it
 * (vitest.soak.config.ts), never `npm test`: its verdict rests on 600 requests being answered and
 * audited within their deadlines under a steady rate, which a machine busy with other work decides
 * (in a full `npm test` beside other work ten check-ins timed out here, and passed alone). A 15 s run
 * is all warm-up, so only its final RSS is judged against the warm-up's; the full run judges the
 * growth trend as well. The soak's checks and request mix are tested without load in
 * test/soak/soak-short.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../../scripts/soak/load.js';
import { soakOptions } from '../../../scripts/soak/options.js';
import { runSoak } from '../../../scripts/soak/run.js';
import { databaseAvailable } from '../../support/database.js';
import { skipWithoutRedis } from '../../support/redis.js';

// PostgreSQL and Redis: skipped (and said why) when unreachable; in CI (CI=true) a failure instead.
const skipLive = !(await databaseAvailable()) || (await skipWithoutRedis());

describe.skipIf(skipLive)('a short soak against the real service process, PostgreSQL and Redis', () => {
  it('runs 15 s of mixed load and passes every check', async () => {
    // Default memory limits: a 15 s run is all warm-up, so its slopes are reported but not judged, and
    // only the final RSS against the warm-up's (1.5×) is; the five-minute run judges both.
    const options = soakOptions({}, {
      durationS: 15, rate: 40, warmupS: 5, sampleMs: 500, seed: 20260102,
      // In CI this shares two cores with the other suites: the service's load shedding (503 once its event
      // loop lags a second) would answer for the machine, not for the soak logic this test is about.
      serviceEnv: { PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '60000' },
    });
    const lines: string[] = [];
    const report = await runSoak(options, AbortSignal.timeout(150_000), (line) => lines.push(line));
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.problems.join('; ') || c.detail}`);
    expect(failed, report.summary).toEqual([]);
    expect(report.ok, report.summary).toBe(true);
    expect(report.aborted).toBe(false);
    const load = report.load as LoadResult;
    expect(load.outcomes.length).toBe(15 * 40);
    expect(load.outcomes.every((o) => o.status !== 0)).toBe(true);
    const audited = load.outcomes.filter((o) => o.audited).length;
    // Plus the first refusal before authentication of each kind (six here: two without a valid key, four with a valid
    // key and no valid token) in each minute the run touched: twelve at most on a quiet machine. A first record the
    // audit store does not take within its deadline gives its kind back, so the next of that kind is audited in its
    // place: on a loaded machine a few more. What the test holds is the collapse itself: far fewer rows than refusals.
    const tallied = load.outcomes.filter((o) => o.kind === 'refused' && !o.audited).length;
    expect(tallied).toBeGreaterThan(40);
    expect(report.auditRowCount).toBeGreaterThanOrEqual(audited);
    expect(report.auditRowCount - audited, report.summary).toBeLessThanOrEqual(tallied / 2);
    expect(new Set(load.outcomes.map((o) => o.status))).toEqual(new Set([200, 400, 401, 403, 404, 415]));
    expect(report.samples.length).toBeGreaterThanOrEqual(20);
    expect(report.checks.map((c) => c.name)).toEqual(expect.arrayContaining([
      'audit: one row per answered request', 'memory: no growth trend', 'statuses: every answer as planned', 'no 5xx',
    ]));
    expect(report.summary).toContain('RESULT: PASS');
  }, 180_000);
});
