import { describe, expect, it } from 'vitest';
import { dayOfAge, hasReachedAge } from '../../src/domain/identity/legal-age.js';

describe('legal age (the Swedish rule for a birthday on 29 February)', () => {
  it('issue 12 item 12: someone born on 29 February turns 18 on 1 March, the day after 28 February, in a year without 29 February', () => {
    expect(dayOfAge('20080229', 18)).toBe('20260301');
    expect(hasReachedAge('20080229', 18, '20260228')).toBe(false);
    expect(hasReachedAge('20080229', 18, '20260301')).toBe(true);
  });

  it('issue 12 item 12: keeps 29 February as the birthday in a leap year, and every other date as it is', () => {
    expect(dayOfAge('20080229', 16)).toBe('20240229');
    expect(hasReachedAge('20080229', 16, '20240228')).toBe(false);
    expect(hasReachedAge('20080229', 16, '20240229')).toBe(true);
    expect(dayOfAge('20080228', 18)).toBe('20260228');
    expect(dayOfAge('20080301', 18)).toBe('20260301');
    expect(dayOfAge('20071231', 18)).toBe('20251231');
    // 1900 is not a leap year, 2000 is.
    expect(dayOfAge('18960229', 4)).toBe('19000301');
    expect(dayOfAge('19960229', 4)).toBe('20000229');
  });
});
