/**
 * src/domain/fhir/fhir-dates.ts `instantBounds`: for a point in time, the bounds it gives hold exactly
 * the instants that satisfy every comparison (`satisfies`), so the access log can be asked for a range.
 */
import { describe, expect, it } from 'vitest';
import { dateComparison, instantBounds, satisfies, type DateComparison } from '../../../src/domain/fhir/fhir-dates.js';

const ZONE = 'Europe/Stockholm';
const VALUES = ['2026-03-29', '2026-03-29T02:30:00', '2026-10-25T02:30:00+01:00', '2026-10-25', '2026-11', '2026'];
const PREFIXES = ['eq', 'ge', 'gt', 'le', 'lt'];

describe('instantBounds', () => {
  it('holds exactly the instants that satisfy the comparisons, for every prefix and pair of them', () => {
    const single = VALUES.flatMap((v) => PREFIXES.map((p) => dateComparison('date', `${p}${v}`, ZONE)));
    const sets: DateComparison[][] = [[], ...single.map((c) => [c]), ...single.flatMap((a, i) => single.slice(i + 1, i + 6).map((b) => [a, b]))];
    const start = Date.UTC(2025, 11, 31);
    for (const dates of sets) {
      const { from, to } = instantBounds(dates);
      // Every hour of 2026, and each second around the bounds and the values.
      const probes = [from - 1000, from, to - 1000, to, ...dates.flatMap((c) => [c.range.start - 1000, c.range.start, c.range.end - 1000, c.range.end])]
        .filter(Number.isFinite);
      for (let at = start; at < start + 366 * 86_400_000; at += 3_600_000) probes.push(at);
      const wrong = probes.filter((at) => (at >= from && at < to) !== dates.every((c) => satisfies({ start: at, end: at + 1 }, c)));
      expect([dates, wrong]).toEqual([dates, []]);
    }
  });
});
