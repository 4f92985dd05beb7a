import { describe, expect, it } from 'vitest';
import {
  compactToDisplay, compactToEpochMs, compactToOffsetIso, epochMsToCompact, epochMsToUtcIso, filterParamToCompact,
  formatCompact, isCompactDate, isCompactDateTime, localDate, wallClockAt,
} from '../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
const utc = (v: string): string => epochMsToUtcIso(compactToEpochMs(v, ZONE));

describe('compact local timestamps in Europe/Stockholm', () => {
  it('converts the upstream README examples', () => {
    expect(utc('20250314093000')).toBe('2025-03-14T08:30:00Z');
    expect(compactToEpochMs('20250314093000', ZONE)).toBe(1741941000000);
    expect(utc('20250704143000')).toBe('2025-07-04T12:30:00Z');
    expect(compactToEpochMs('20250704143000', ZONE)).toBe(1751632200000);
    expect(utc('20251027081500')).toBe('2025-10-27T07:15:00Z');
    expect(compactToDisplay('20250314093000')).toBe('2025-03-14 09:30');
  });

  it('reads a time in the spring gap an hour later', () => {
    expect(utc('20250330023000')).toBe('2025-03-30T01:30:00Z');
    expect(utc('20250330020000')).toBe('2025-03-30T01:00:00Z');
    expect(utc('20250330030000')).toBe('2025-03-30T01:00:00Z');
  });

  it('takes the earlier instant in the autumn overlap', () => {
    expect(utc('20241027023000')).toBe('2024-10-27T00:30:00Z');
    expect(compactToEpochMs('20241027023000', ZONE)).toBe(1729989000000);
    expect(utc('20241027030000')).toBe('2024-10-27T02:00:00Z');
    expect(utc('20241027015959')).toBe('2024-10-26T23:59:59Z');
  });

  it('round-trips instants to local wall clock', () => {
    expect(epochMsToCompact(1729989000000, ZONE)).toBe('20241027023000');
    expect(epochMsToCompact(Date.UTC(2024, 9, 27, 1, 30), ZONE)).toBe('20241027023000');
    expect(localDate(Date.UTC(2025, 11, 31, 23, 30), ZONE)).toBe('20260101');
  });

  it('refuses impossible dates and malformed forms', () => {
    expect(isCompactDateTime('20250230120000')).toBe(false);
    expect(isCompactDateTime('20241301120000')).toBe(false);
    expect(isCompactDateTime('20240229120000')).toBe(true);
    expect(isCompactDateTime('20250229120000')).toBe(false);
    expect(isCompactDateTime('20250101240000')).toBe(false);
    expect(isCompactDateTime('2025010112000')).toBe(false);
    expect(isCompactDate('19121212')).toBe(true);
    expect(isCompactDate('191212121')).toBe(false);
    expect(() => compactToEpochMs('2025-01-01', ZONE)).toThrow(RangeError);
  });

  it('converts the API filter form and refuses impossible ones', () => {
    expect(filterParamToCompact('2025-03-14T09:30:00')).toBe('20250314093000');
    expect(filterParamToCompact('2025-02-30T09:30:00')).toBeUndefined();
    expect(filterParamToCompact('2025-03-14 09:30:00')).toBeUndefined();
    expect(filterParamToCompact('2025-03-14T09:30:00Z')).toBeUndefined();
    expect(filterParamToCompact('2025-03-14T24:00:00')).toBeUndefined();
  });

  it('writes a local time as FHIR does, with the offset of its instant: winter, summer, the spring gap and the autumn hour', () => {
    expect(compactToOffsetIso('20261214093000', ZONE)).toBe('2026-12-14T09:30:00+01:00');
    expect(compactToOffsetIso('20260701100000', ZONE)).toBe('2026-07-01T10:00:00+02:00');
    // 02:30 does not exist on 29 March 2026: the instant it stands for (compatible rule) is 03:30 summer time.
    expect(compactToOffsetIso('20260329023000', ZONE)).toBe('2026-03-29T03:30:00+02:00');
    // The repeated hour reads as its first occurrence, still summer time.
    expect(compactToOffsetIso('20261025023000', ZONE)).toBe('2026-10-25T02:30:00+02:00');
    expect(compactToOffsetIso('20250101000000', 'America/New_York')).toBe('2025-01-01T00:00:00-05:00');
  });
});

describe('issue 53: a wall clock from the cached offset is the one Intl gives', () => {
  // Zones with whole-hour, half-hour and 45-minute offsets, and a half-hour DST (Lord Howe).
  const ZONES = ['Europe/Stockholm', 'UTC', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Los_Angeles'];
  // Every 43 min 53.457 s (never on a quarter hour, every second and millisecond visited) through 2025,
  // across each zone's transitions, and a stretch of 1999 and 2038.
  const starts = [Date.UTC(2025, 0, 1), Date.UTC(1999, 9, 20), Date.UTC(2038, 2, 20)];
  const STEP = 2_633_457;

  it.each(ZONES)('%s: epochMsToCompact and localDate agree with wallClockAt, instant by instant', (zone) => {
    const wrong: string[] = [];
    for (const start of starts) {
      const end = start === starts[0] ? Date.UTC(2026, 0, 1) : start + 20 * 86_400_000;
      for (let t = start; t < end && wrong.length < 5; t += STEP) {
        const expected = formatCompact(wallClockAt(t, zone));
        if (epochMsToCompact(t, zone) !== expected || localDate(t, zone) !== expected.slice(0, 8)) wrong.push(`${new Date(t).toISOString()}: ${epochMsToCompact(t, zone)} not ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
