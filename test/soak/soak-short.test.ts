/**
 * The soak's own logic (scripts/soak): each check shown to fail on the defect it looks for, and the
 * request mix shown to be sound. Nothing here runs load or reads a clock: the short soak against the
 * real service (test/soak/live/, `npm run test:soak`) judges answers arriving in time, which a busy
 * machine decides, so it stays out of `npm test`.
 */
import { describe, expect, it } from 'vitest';
import {
  checkAnswered, checkAudit, checkMemory, checkNoServerErrors, checkStatuses, floorSlope, percentile, slope, type MemoryLimits,
} from '../../scripts/soak/checks.js';
import type { AuditRow } from '../../scripts/soak/infra.js';
import type { LoadResult, Outcome } from '../../scripts/soak/load.js';
import { soakOptions } from '../../scripts/soak/options.js';
import { LoadPlan, PEOPLE, seededRandom, type PlanFixtures } from '../../scripts/soak/plan.js';
import type { MemorySample } from '../../scripts/soak/sampler.js';

const MIB = 1024 * 1024;

const outcome = (n: number, over: Partial<Outcome> = {}): Outcome => ({
  requestId: `soak-t-l-${n}`, label: 'self journal notes', kind: 'read', method: 'GET', expect: 200, status: 200, ms: 5,
  audited: true, at: n / 10, ...over,
});
const row = (n: number, status = 200): AuditRow => ({ requestId: `soak-t-l-${n}`, status, outcome: status < 400 ? 'allowed' : 'denied', phase: null });
const attempt = (n: number): AuditRow => ({ ...row(n), phase: 'attempt' });

describe('soak checks fail on the defect each looks for', () => {
  it('slope and percentile', () => {
    expect(slope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBeCloseTo(2);
    expect(slope([{ x: 0, y: 7 }])).toBe(0);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)).toBe(10);
    // A sawtooth whose floor rises 1 per unit of x: the floor slope sees the rise under the teeth.
    const saw = Array.from({ length: 100 }, (_, x) => ({ x, y: x + (x % 10) * 50 }));
    expect(floorSlope(saw)).toBeCloseTo(1, 0);
  });

  it('audit: passes a complete trail; flags a missing row, a duplicate, a wrong status and a row never sent', () => {
    const sent = [outcome(1), outcome(2, { expect: 403, status: 403 }), outcome(3, { audited: false, expect: 404, status: 404 }), outcome(4, { status: 0 })];
    expect(checkAudit(sent, [row(1), row(2, 403)])).toMatchObject({ ok: true });
    const bad = checkAudit(sent, [row(2, 200), row(2, 200), row(9)]);
    expect(bad.ok).toBe(false);
    expect(bad.problems.join('\n')).toMatch(/soak-t-l-1 .*no audit row/);
    expect(bad.problems.join('\n')).toMatch(/soak-t-l-2 .*2 audit rows/);
    expect(bad.problems.join('\n')).toMatch(/soak-t-l-9: audit row for a request never sent/);
    expect(checkAudit([outcome(1)], [row(1, 503)]).problems).toEqual(['soak-t-l-1 (self journal notes): audited status 503, answered 200']);
  });

  it('audit: a write attempt beside its outcome row is no duplicate; an attempt without an outcome is flagged', () => {
    expect(checkAudit([outcome(1)], [attempt(1), row(1)])).toMatchObject({ ok: true });
    expect(checkAudit([outcome(1), outcome(2)], [row(1), attempt(2)]).problems).toEqual([
      'soak-t-l-2 (self journal notes, answered 200): no audit row', 'soak-t-l-2: write attempt with no outcome row',
    ]);
  });

  it('statuses: flags an unplanned refusal, a 2xx where a refusal was planned, and a body that fails its check', () => {
    expect(checkStatuses([outcome(1), outcome(2, { label: 'ended guardianship', expect: 403, status: 403 })]).ok).toBe(true);
    const bad = checkStatuses([
      outcome(1, { status: 429 }), outcome(2, { status: 429 }),
      outcome(3, { label: 'ended guardianship', expect: 403, status: 200 }),
      outcome(4, { problem: 'v2 record of another patient' }),
    ]);
    expect(bad.ok).toBe(false);
    expect(bad.problems).toEqual([
      'self journal notes: expected 200, got 429 (2×, e.g. soak-t-l-1)',
      'ended guardianship: expected 403, got 200 (1×, e.g. soak-t-l-3)',
      'self journal notes: v2 record of another patient (1×, e.g. soak-t-l-4)',
    ]);
  });

  it('no 5xx: flags any, planned or not', () => {
    expect(checkNoServerErrors([outcome(1)]).ok).toBe(true);
    expect(checkNoServerErrors([outcome(1, { status: 503, problem: 'body {"statusCode":503}' }), outcome(2, { status: 500, expect: 500 })]).problems)
      .toEqual(['503 on self journal notes (1×, e.g. soak-t-l-1 at 0.1 s, body {"statusCode":503})', '500 on self journal notes (1×, e.g. soak-t-l-2 at 0.2 s)']);
  });

  it('answered: flags a request without an answer, requests not sent, and a load stopped early', () => {
    const load = (over: Partial<LoadResult>): LoadResult => ({ outcomes: [outcome(1)], notSent: 0, elapsedS: 1, maxInFlightSeen: 1, ...over });
    expect(checkAnswered(load({})).ok).toBe(true);
    const bad = checkAnswered(load({ outcomes: [outcome(1, { status: 0, problem: 'no answer (timeout)' })], notSent: 3, stoppedEarly: 'the service exited (1)' }));
    expect(bad.problems).toEqual([
      'load stopped early: the service exited (1)', '3 requests not sent: 1 were in flight', 'soak-t-l-1 (self journal notes): no answer (timeout)',
    ]);
  });

  it('memory: passes a flat sawtooth; flags a steady leak, a leaking heap floor and a final RSS far over the warm-up', () => {
    const limits: MemoryLimits = { warmupS: 60, durationS: 300, maxRssSlopeMbPerMin: 4, maxHeapSlopeMbPerMin: 4, maxRssRatio: 1.5 };
    const series = (rss: (t: number) => number, heap: (t: number) => number): MemorySample[] =>
      Array.from({ length: 151 }, (_, i) => ({ t: i * 2, rss: rss(i * 2), heapUsed: heap(i * 2) }));
    const sawtooth = (t: number): number => (50 + (t % 20)) * MIB;
    expect(checkMemory(series(() => 200 * MIB, sawtooth), limits)).toMatchObject({ ok: true });
    // 10 MiB/min: 50 MiB over five minutes.
    const leaking = checkMemory(series((t) => (200 + t / 6) * MIB, (t) => sawtooth(t) + (t / 6) * MIB), limits);
    expect(leaking.ok).toBe(false);
    expect(leaking.problems.join('\n')).toMatch(/RSS grows 10\.\d+ MiB\/min/);
    expect(leaking.problems.join('\n')).toMatch(/heap floor grows (9|10)\.\d+ MiB\/min/);
    // A step after the warm-up that then stays flat: no slope in the second half, but twice the RSS.
    const step = checkMemory(series((t) => (t < 100 ? 200 : 400) * MIB, sawtooth), limits);
    expect(step.problems.join('\n')).toMatch(/final RSS 400\.0 MiB over 1\.5 × 200\.0 MiB/);
    expect(checkMemory(series(() => 200 * MIB, sawtooth).slice(0, 10), limits).problems.join('\n')).toMatch(/only 0 samples/);
    // A 20 s run is all warm-up: its slopes are reported, not judged; its final RSS still is.
    const short: MemoryLimits = { ...limits, warmupS: 4, durationS: 20 };
    const quick = (rss: (t: number) => number): MemorySample[] => Array.from({ length: 41 }, (_, i) => ({ t: i / 2, rss: rss(i / 2), heapUsed: 50 * MIB }));
    expect(checkMemory(quick((t) => (180 + t) * MIB), short)).toMatchObject({ ok: true, detail: expect.stringContaining('slopes not judged') });
    expect(checkMemory(quick((t) => (180 + t * 10) * MIB), short).problems.join('\n')).toMatch(/final RSS 380\.0 MiB over 1\.5 × 220\.0 MiB/);
  });
});

describe('the soak request mix', () => {
  const fixtures: PlanFixtures = {
    keys: ['key-a', 'key-b'],
    tokens: { adult: 'A', freshAdult: () => 'F', actor: 'M', kiosk: 'K', narrow: 'N', expired: 'E', foreign: 'X' },
    bookings: { adult: 'ADULT-BOOKING', minor: 'MINOR-BOOKING' }, today: '2026-01-02',
  };

  it('is repeatable from its seed, mixes all seven reads, delegation, refusals and writes, and plans every status', () => {
    const a = new LoadPlan(fixtures, seededRandom(42));
    const b = new LoadPlan(fixtures, seededRandom(42));
    const planned = Array.from({ length: 5000 }, () => a.next());
    expect(planned.slice(0, 50).map((p) => p.label)).toEqual(Array.from({ length: 50 }, () => b.next().label));
    const paths = new Set(planned.filter((p) => p.kind === 'read').map((p) => p.path.split('?')[0]?.replace(/\/$/, '')));
    for (const read of ['appointments', 'patient', 'contacts', 'attentionsignals', 'videomeetings', 'medications', 'journalnotes']) {
      expect(paths, read).toContain(`/patients/${read}`);
    }
    expect(planned.some((p) => p.path.includes('api-version=v2') && p.path.startsWith('/patients/patient'))).toBe(true);
    expect(planned.some((p) => p.headers.patient === PEOPLE.minor && p.headers.authorization === 'Bearer M' && p.expect === 200)).toBe(true);
    expect(new Set(planned.map((p) => p.expect))).toEqual(new Set([200, 400, 401, 403, 404, 415]));
    const share = (kind: string): number => planned.filter((p) => p.kind === kind).length / planned.length;
    expect(share('refused')).toBeGreaterThan(0.1);
    expect(share('write')).toBeGreaterThan(0.05);
    expect(planned.filter((p) => p.method !== 'GET').every((p) => p.body !== undefined)).toBe(true);
    // Planned without an audit record of their own: the unknown path, and refusals before authentication, tallied per
    // minute: requests without a valid key (issue 12 item 4) and with a valid key but no valid token (issue 20 item 4).
    expect(new Set(a.all().filter((p) => !p.audited).map((p) => p.label))).toEqual(new Set([
      'unknown path', 'no subscription key', 'unknown subscription key',
      'malformed token', 'no token', 'expired token', 'token signed by a foreign key',
    ]));
  });

  it('checks 2xx bodies: another patient in a v2 record, unmasked contact details, a wrong ResultCode', () => {
    const byLabel = new Map(new LoadPlan(fixtures, seededRandom(1)).all().map((p) => [p.label, p]));
    const v2 = byLabel.get('guardian: minor patient v2')?.check;
    const v2Body = (id: string, more: object = {}) => [{ patientEHRExtract: [{ patient: { patientID: { extension: id }, ...more } }] }];
    expect(v2?.(v2Body(PEOPLE.minor))).toBeUndefined();
    expect(v2?.(v2Body(PEOPLE.adult))).toBe('v2 record of another patient');
    expect(v2?.([])).toBe('v2 record of another patient');
    const masked = byLabel.get('kiosk: protected patient v2 (masked)')?.check;
    expect(masked?.(v2Body(PEOPLE.protectedPerson, { patientAddresses: [], phoneNumbers: { phone: [] } }))).toBeUndefined();
    expect(masked?.(v2Body(PEOPLE.protectedPerson, { phoneNumbers: { phone: [{ phoneNumber: '070' }] } }))).toMatch(/protected identity/);
    const arrival = byLabel.get('self arrival')?.check;
    expect(arrival?.({ ResultCode: 'INFO' })).toBeUndefined();
    expect(arrival?.({ ResultCode: 'ERROR' })).toMatch(/ResultCode ERROR/);
    expect(byLabel.get('self payment')?.check?.([{ ResultCode: 'OK' }])).toBeUndefined();
  });

  it('refuses settings that would make an unbounded run', () => {
    expect(() => soakOptions({ SOAK_DURATION_S: '0' })).toThrow(RangeError);
    expect(() => soakOptions({ SOAK_DURATION_S: '100000' })).toThrow(RangeError);
    expect(() => soakOptions({ SOAK_RATE: 'fast' })).toThrow(RangeError);
    expect(soakOptions({ SOAK_DURATION_S: '20' })).toMatchObject({ durationS: 20, warmupS: 4, sampleMs: 500 });
    expect(soakOptions({})).toMatchObject({ durationS: 300, rate: 150, warmupS: 60, maxRssRatio: 1.5 });
  });
});
