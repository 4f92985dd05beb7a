/**
 * Issue 34 item 11c: past 10,000 kinds of refusal (source, key, operation, status) in one minute,
 * refusals before authentication were only counted in the log, so the audit trail held nothing of
 * them. Now each window's roll-over audits one record of its own kind (`refusalsNotAudited`) per
 * status, naming how many refusals went unaudited (`unaudited`); the tally's memory stays bounded
 * by the 10,000 kinds and the statuses, however many kinds overflow (docs/operations.md#the-audit-store).
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { REFUSAL_WINDOW_MS, RefusalTally } from '../../src/http/refusal-tally.js';
import type { OutcomeRecord } from '../../src/ports/audit-trail.port.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';

const KINDS = 10_000;
/** 09:00:00 UTC, the start of a window. */
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

/** A refusal before authentication from its own IPv4 address (so its own kind), with the app's key. */
const refusal = (i: number, status = 401): OutcomeRecord => ({
  time: new Date(T0).toISOString(), requestId: `r${i}`, operation: 'getJournalNotes', subscription: 'test',
  sourceAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, outcome: 'denied', status,
});

function tallyOver(trail: MemoryAuditTrail, clock: FixedClock, lines: string[]): RefusalTally {
  return new RefusalTally(trail, clock, createLogger('info', { write: (l: string) => void lines.push(l) }));
}

const summaries = (trail: MemoryAuditTrail): OutcomeRecord[] =>
  trail.records.filter((r): r is OutcomeRecord => r.operation === 'refusalsNotAudited');

describe('issue 34 item 11c: refusals past the tallied kinds leave an audit record of how many went unaudited', () => {
  it('issue 34 item 11c: one record per status at the window\'s roll-over, naming the count, the window\'s end and no caller', async () => {
    const trail = new MemoryAuditTrail();
    const clock = new FixedClock(T0 + 5_000);
    const lines: string[] = [];
    const tally = tallyOver(trail, clock, lines);
    try {
      for (let i = 0; i < KINDS; i++) await tally.append(refusal(i));
      // 250 kinds past the limit with 401, 3 with 400, and repeats of them: none of these is audited one by one.
      for (let i = KINDS; i < KINDS + 250; i++) await tally.append(refusal(i));
      for (let i = KINDS; i < KINDS + 250; i++) await tally.append(refusal(i));
      for (let i = KINDS + 250; i < KINDS + 253; i++) await tally.append(refusal(i, 400));
      expect(trail.records).toHaveLength(KINDS);
      expect(summaries(trail)).toEqual([]);

      clock.advance(REFUSAL_WINDOW_MS);
      await tally.append(refusal(0));
    } finally {
      await tally.close();
    }
    const written = summaries(trail);
    expect(written.map((r) => [r.status, r.unaudited]).sort()).toEqual([[400, 3], [401, 500]]);
    for (const record of written) {
      expect(record).toMatchObject({ outcome: 'denied', time: new Date(T0 + REFUSAL_WINDOW_MS).toISOString(), sourceAddress: '' });
      expect(record.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.serviceRequestId).toBe(record.requestId);
      for (const field of ['patientId', 'actor', 'subscription', 'clientId', 'delegation', 'withheld'] as const) expect(record[field]).toBeUndefined();
    }
    // Written once: the roll-over's summaries come before the new window's first record, and the next window had none.
    expect(trail.records.slice(KINDS).map((r) => r.operation)).toEqual(['refusalsNotAudited', 'refusalsNotAudited', 'getJournalNotes']);
  });

  it('issue 34 item 11c: a window that never overflows writes no such record; one whose end is reached by close() writes its own', async () => {
    const trail = new MemoryAuditTrail();
    const clock = new FixedClock(T0);
    const tally = tallyOver(trail, clock, []);
    for (let i = 0; i < 10; i++) await tally.append(refusal(i % 2));
    clock.advance(REFUSAL_WINDOW_MS);
    await tally.append(refusal(0));
    expect(summaries(trail)).toEqual([]);
    for (let i = 0; i < KINDS + 7; i++) await tally.append(refusal(i));
    await tally.close();
    expect(summaries(trail).map((r) => [r.status, r.unaudited])).toEqual([[401, 7]]);
  });

  it('issue 34 item 11c: a summary that cannot be stored is logged with its count, and refusals go on being answered', async () => {
    const trail = new MemoryAuditTrail();
    const clock = new FixedClock(T0);
    const lines: string[] = [];
    const tally = tallyOver(trail, clock, lines);
    for (let i = 0; i < KINDS + 2; i++) await tally.append(refusal(i));
    trail.refuse = (r) => r.operation === 'refusalsNotAudited';
    clock.advance(REFUSAL_WINDOW_MS);
    await expect(tally.append(refusal(0))).resolves.toBeUndefined();
    await expect(tally.append(refusal(1))).resolves.toBeUndefined();
    await tally.close();
    expect(trail.records.slice(KINDS).map((r) => r.requestId)).toEqual(['r0', 'r1']);
    expect(summaries(trail)).toEqual([]);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; unaudited?: number; status?: number });
    expect(logged.find((l) => /could not be stored/.test(l.msg))).toMatchObject({ unaudited: 2, status: 401 });
  });
});
