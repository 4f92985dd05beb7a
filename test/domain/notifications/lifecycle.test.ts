import { describe, expect, it } from 'vitest';
import { backoffMs, delivered, dueNow, dueOf, ended, failed, MAX_BACKOFF_MS, numbered } from '../../../src/domain/notifications/lifecycle.js';
import type { StoredSubscription } from '../../../src/domain/notifications/subscription.js';

const base: StoredSubscription = {
  id: 's1', subscriber: { issuer: 'i', subject: 's', personId: '191212121212', clientId: 'app' }, patient: '191212121212', topic: 'lab-result',
  channel: { endpoint: 'https://h.example/', headers: [], payload: 'empty', timeoutSeconds: 10, heartbeatSeconds: 60 },
  status: 'active', createdMs: 1000, changedMs: 1000, eventCount: 0, deliveredThrough: 0, failures: 0,
};
const HOUR = 3_600_000;

describe('a subscription\'s life (docs/notifications.md#delivery)', () => {
  it('backs off 5 s, doubling, up to five minutes', () => {
    expect([1, 2, 3, 4, 7, 30].map(backoffMs)).toEqual([5000, 10_000, 20_000, 40_000, 5 * 60_000, MAX_BACKOFF_MS]);
  });

  it('is due for its undelivered events at once, then for a heartbeat a period after the last notification, and never after it ended', () => {
    const withEvent = numbered(base, [{ atMs: 2000, focus: 'DiagnosticReport/x', change: 'created' }], 2000);
    expect(withEvent.events.map((e) => e.number)).toEqual([1]);
    expect(withEvent.subscription.dueMs).toBe(2000);
    const taken = delivered(withEvent.subscription, 1, 3000);
    expect(taken).toMatchObject({ deliveredThrough: 1, lastSentMs: 3000, dueMs: 63_000 });
    expect(dueOf(ended(taken, 'deleted', 4000), 4000)).toBeUndefined();
    expect(dueOf({ ...taken, endMs: 10_000 }, 4000)).toBe(10_000);
  });

  it('a failed handshake is an error at once; a failing delivery retries until the retry time has passed since its first failure', () => {
    expect(failed({ ...base, status: 'requested' }, 5000, HOUR)).toMatchObject({ status: 'error', endReason: 'handshake-failed' });
    const pending = numbered(base, [{ atMs: 2000, focus: 'DiagnosticReport/x', change: 'created' }], 2000).subscription;
    const once = failed(pending, 10_000, HOUR);
    expect(once).toMatchObject({ status: 'active', failures: 1, failingSinceMs: 10_000, nextAttemptMs: 15_000, dueMs: 15_000 });
    expect(failed(once, 10_000 + HOUR - 1, HOUR).status).toBe('active');
    expect(failed(once, 10_000 + HOUR, HOUR)).toMatchObject({ status: 'error', endReason: 'delivery-failed' });
    // A success forgets the failures.
    expect(delivered(once, 1, 20_000)).toMatchObject({ failures: 0, deliveredThrough: 1 });
    expect(delivered(once, 1, 20_000).failingSinceMs).toBeUndefined();
  });

  // Hostile review helper-112, a note: a feed's entry during a backoff pushed the next work past the
  // subscription's end, which then came late. Failed before: due at the next attempt.
  it('a feed\'s new entry waits for the next attempt, but never past the end', () => {
    const waiting = { ...base, status: 'active' as const, nextAttemptMs: 50_000 };
    expect(dueNow(waiting, 10_000).dueMs).toBe(50_000);
    expect(dueNow({ ...waiting, endMs: 20_000 }, 10_000).dueMs).toBe(20_000);
    expect(dueNow({ ...base, status: 'active' as const }, 10_000).dueMs).toBe(10_000);
  });

  it('one whose end another caller claimed is due when the claim lapses, not before; an ended one never', () => {
    const claimed = { ...base, status: 'active' as const, eventCount: 1, ending: { claim: 'c', untilMs: 40_000, reason: 'right-lost' as const, atMs: 10_000 } };
    expect(dueOf(claimed, 10_000)).toBe(40_000);
    expect(dueNow(claimed, 10_000).dueMs).toBe(40_000);
    // Hostile review helper-116, F2: a feed's entry made one past its end due at its end, the claim ignored.
    expect(dueNow({ ...claimed, endMs: 5_000 }, 10_000).dueMs).toBe(40_000);
    expect(dueOf({ ...claimed, status: 'requested' as const }, 10_000)).toBe(40_000);
    expect(dueOf(ended(claimed, 'right-lost', 10_000), 10_000)).toBeUndefined();
    expect(ended(claimed, 'right-lost', 10_000).ending).toBeUndefined();
  });
});
