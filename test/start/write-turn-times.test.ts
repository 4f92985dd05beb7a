/**
 * Hostile review helper-136, F2: a lock lived EHR_TIMEOUT_MS + 10 s from when it was taken, and its hold after
 * a write whose outcome is unknown was prolonged at the failure; a Redis that missed that moment left the hold
 * 10 s where the docs say EHR_TIMEOUT_MS + 10 s, and a repeat 10 s after the 504 paid a second time.
 */
import { describe, expect, it } from 'vitest';
import { writeTurnTimes } from '../../src/start/adapter-selection.js';

describe('the times of a write\'s turn', () => {
  it.each([1000, 5000, 30_000])('with EHR_TIMEOUT_MS %i, a lock taken at a write\'s start still holds the whole hold at its latest failure', (ehrTimeoutMs) => {
    const { waitMs, inDoubtMs, lockTtlMs } = writeTurnTimes(ehrTimeoutMs);
    expect(inDoubtMs).toBe(ehrTimeoutMs + 10_000);
    // A write fails at the latest when its deadline passes, EHR_TIMEOUT_MS after it began.
    expect(lockTtlMs - ehrTimeoutMs).toBeGreaterThanOrEqual(inDoubtMs);
    expect(waitMs).toBeGreaterThan(ehrTimeoutMs);
  });
});
