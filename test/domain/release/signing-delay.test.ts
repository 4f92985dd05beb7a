import { describe, expect, it } from 'vitest';
import { signedLongEnoughAgo } from '../../../src/domain/release/signing-delay.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
const at = (compact: string): number => compactToEpochMs(compact, ZONE);
const SECOND = 1000;

describe('the signing delay, in EHR_TIMEZONE calendar days (issue 14 item 2)', () => {
  it('issue 14 item 2: a note signed at 23:30 is released at 23:30 the next day, not at midnight', () => {
    expect(signedLongEnoughAgo('20261110233000', 1, at('20261111001000'), ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261110233000', 1, at('20261111232959'), ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261110233000', 1, at('20261111233000'), ZONE)).toBe(true);
  });

  it('issue 14 item 2: reads the signing time in the zone, not in UTC (00:30 local is 23:30 UTC the day before)', () => {
    // Signed 00:30 on 11 November local; 14 days later is 25 November 00:30 local, 24 November 23:30 UTC.
    expect(signedLongEnoughAgo('20261111003000', 14, Date.UTC(2026, 10, 24, 23, 29, 59), ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261111003000', 14, Date.UTC(2026, 10, 24, 23, 30), ZONE)).toBe(true);
  });

  it('issue 14 item 2: a spring DST day counts as one day though it has 23 hours', () => {
    // Europe/Stockholm springs forward on 29 March 2026 at 02:00.
    const signed = '20260328100000';
    const release = at('20260329100000');
    expect(release - at(signed)).toBe(23 * 3600 * SECOND);
    expect(signedLongEnoughAgo(signed, 1, release - SECOND, ZONE)).toBe(false);
    expect(signedLongEnoughAgo(signed, 1, release, ZONE)).toBe(true);
  });

  it('issue 14 item 2: an autumn DST day counts as one day though it has 25 hours', () => {
    // Europe/Stockholm falls back on 25 October 2026 at 03:00.
    const signed = '20261024100000';
    const release = at('20261025100000');
    expect(release - at(signed)).toBe(25 * 3600 * SECOND);
    expect(signedLongEnoughAgo(signed, 1, at(signed) + 24 * 3600 * SECOND, ZONE)).toBe(false);
    expect(signedLongEnoughAgo(signed, 1, release, ZONE)).toBe(true);
  });

  it('issue 14 item 2: a release time in the hour a spring change skips is read an hour later, as every local time is', () => {
    // Signed 28 March 02:30; one day on, 29 March 02:30, does not exist and is read as 03:30 CEST.
    expect(signedLongEnoughAgo('20260328023000', 1, at('20260329033000') - SECOND, ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20260328023000', 1, at('20260329033000'), ZONE)).toBe(true);
  });

  it('issue 14 item 2: counts across month and year ends and a leap day', () => {
    expect(signedLongEnoughAgo('20261220120000', 14, at('20270103115959'), ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261220120000', 14, at('20270103120000'), ZONE)).toBe(true);
    expect(signedLongEnoughAgo('20280228120000', 1, at('20280229120000'), ZONE)).toBe(true);
    expect(signedLongEnoughAgo('20280228120000', 2, at('20280229120000'), ZONE)).toBe(false);
  });

  it('issue 14 item 2: a signing date without a time counts from its midnight', () => {
    expect(signedLongEnoughAgo('20261110', 1, at('20261110235959'), ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261110', 1, at('20261111000000'), ZONE)).toBe(true);
  });

  it('issue 14 item 2: no signing time, or one that cannot be read, has not begun the delay', () => {
    const later = at('20991231000000');
    expect(signedLongEnoughAgo(undefined, 1, later, ZONE)).toBe(false);
    expect(signedLongEnoughAgo('20261332120000', 1, later, ZONE)).toBe(false);
    expect(signedLongEnoughAgo('not a time', 1, later, ZONE)).toBe(false);
  });
});
