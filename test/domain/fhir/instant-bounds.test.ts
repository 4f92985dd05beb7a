/**
 * src/domain/fhir/fhir-dates.ts `instantBounds`: for a point in time, the bounds it gives hold exactly
 * the instants that satisfy every comparison (`satisfies`), so the access log can be asked for a range.
 */
import { describe, expect, it } from 'vitest';
import { dateComparison, instantBounds, rangeOf, satisfies, type DateComparison } from '../../../src/domain/fhir/fhir-dates.js';

const ZONE = 'Europe/Stockholm';
const VALUES = [
  '2026-03-29', '2026-03-29T02:30:00', '2026-10-25T02:30:00+01:00', '2026-10-25', '2026-11', '2026',
  '2026-11-29T09:17:51.5', '2026-11-29T09:17:51.050', '2026-11-29T08:17:51.999Z',
];
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

// A fraction of a second was read and thrown away: `ge…51.500` matched an entry at .028 and `lt…51.050` left
// one at .028 out (hostile review helper-89, 2). A value stands for the range of its precision (FHIR R4
// search, 3.1.1.4.1), to the millisecond a record's time has.
describe('a fraction of a second', () => {
  const second = Date.parse('2026-11-29T08:17:51Z');
  it('stands for the range of its precision', () => {
    expect(rangeOf('2026-11-29T09:17:51', ZONE)).toEqual({ start: second, end: second + 1000 });
    expect(rangeOf('2026-11-29T09:17:51.5', ZONE)).toEqual({ start: second + 500, end: second + 600 });
    expect(rangeOf('2026-11-29T09:17:51.050', ZONE)).toEqual({ start: second + 50, end: second + 51 });
    expect(rangeOf('2026-11-29T08:17:51.999Z', ZONE)).toEqual({ start: second + 999, end: second + 1000 });
    expect(rangeOf('2026-11-29T09:17:51.000+01:00', ZONE)).toEqual({ start: second, end: second + 1 });
  });

  it('is compared as any other value: an instant at .028 is before .500 and .050, and within .0', () => {
    const at = { start: second + 28, end: second + 29 };
    const holds = (value: string): boolean => satisfies(at, dateComparison('date', value, ZONE));
    expect(['ge2026-11-29T09:17:51.500', 'lt2026-11-29T09:17:51.050', 'eq2026-11-29T09:17:51.0', 'gt2026-11-29T09:17:51.028']
      .map(holds)).toEqual([false, true, true, false]);
  });
});
