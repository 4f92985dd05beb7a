import { describe, expect, it } from 'vitest';
import { compactOf, hasEnded, instantOf, ts } from '../../../src/adapters/ehr-fhir/fhir-time.js';
import { EhrError } from '../../../src/domain/ehr-error.js';

const notes: string[] = [];
const ctx = { zone: 'Europe/Stockholm', note: (reason: string) => notes.push(reason) };

describe('FHIR times to the API', () => {
  it('turns an instant with any offset into local time, fractions dropped', () => {
    expect(compactOf('2026-12-14T09:30:00+01:00', ctx)).toBe('20261214093000');
    expect(compactOf('2026-12-14T08:30:00Z', ctx)).toBe('20261214093000');
    expect(compactOf('2026-12-14T03:30:00.999-05:00', ctx)).toBe('20261214093000');
    expect(compactOf('2026-06-14T09:30:00+02:00', ctx)).toBe('20260614093000');
  });

  it('keeps the two 02:30 of an autumn night apart as instants, which their 14 digits cannot', () => {
    const first = instantOf('2026-10-25T02:30:00+02:00', ctx);
    const second = instantOf('2026-10-25T02:30:00+01:00', ctx);
    expect(second - first).toBe(3_600_000);
    expect(new Date(second).toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(compactOf('2026-10-25T02:30:00+02:00', ctx)).toBe('20261025023000');
    expect(compactOf('2026-10-25T02:30:00+01:00', ctx)).toBe('20261025023000');
  });

  it('keeps a date a date, with no zone arithmetic, and leaves a year or a month out', () => {
    expect(compactOf('2012-12-12', ctx)).toBe('20121212');
    expect(ts('2025', ctx)).toBeUndefined();
    expect(ts('2025-03', ctx)).toBeUndefined();
    expect(ts(undefined, ctx)).toBeUndefined();
  });

  it('reads a time without an offset as local time, and notes it without the value', () => {
    notes.length = 0;
    expect(compactOf('2026-12-14T09:30:00', ctx)).toBe('20261214093000');
    expect(notes).toEqual(['a FHIR time without an offset was read as local time']);
  });

  it.each(['2025-02-30', '2025-13-01', '2025-03-03T24:00:00Z', '2025-03-03T10:00:00+15:00', '03/03/2025', '2025-03-03T10:00Z'])(
    'refuses the impossible or unreadable %s as a bad response',
    (text) => {
      expect(() => compactOf(text, ctx)).toThrow(EhrError);
    },
  );

  it('needs a time of day where FHIR has an instant', () => {
    expect(() => instantOf('2026-12-14', ctx)).toThrow(EhrError);
  });

  it('says a period has ended only after its end: an instant before now, or a day (month, year) before today', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(hasEnded({ end: '2026-08-31' }, now, ctx)).toBe(true);
    expect(hasEnded({ end: '2026-11-23' }, now, ctx)).toBe(false);
    expect(hasEnded({ end: '2026-11-23T11:59:00+01:00' }, now, ctx)).toBe(false);
    expect(hasEnded({ end: '2026-11-23T10:59:00+02:00' }, now, ctx)).toBe(true);
    expect(hasEnded({ end: '2026-10' }, now, ctx)).toBe(true);
    expect(hasEnded({ end: '2026' }, now, ctx)).toBe(false);
    expect(hasEnded({}, now, ctx)).toBe(false);
  });
});
