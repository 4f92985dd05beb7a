/**
 * Issue 44 item 6: the service signs the trail's head at start, every AUDIT_HEAD_INTERVAL_MS and once
 * more when it stops (docs/operations.md#signed-heads); a head that cannot be made is reported and
 * tried again at the next interval.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeadSigner, type ChainHeadSource } from '../../../src/adapters/audit-chain/head-signer.js';
import { headProblem, type SignedHead } from '../../../src/adapters/audit-chain/signed-head.js';
import type { ChainPoint } from '../../../src/adapters/audit-query/chain-check.js';
import { KEYS } from '../audit-query/keyed-trails.js';

const hash = (n: number): string => String(n).padStart(64, '0');

describe('issue 44 item 6: the head signer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs at start, every interval and at close, each head naming the newest record then; none after close', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 21, 9, 0, 0) });
    let newest: ChainPoint = { id: 0, hash: hash(0) };
    const source: ChainHeadSource = { head: async () => newest };
    const heads: SignedHead[] = [];
    const signer = new HeadSigner({
      source, key: KEYS.signing, store: 'postgresql:audit', intervalMs: 300_000, now: () => new Date(), onHead: (h) => heads.push(h), onFailure: () => undefined,
    });
    signer.start();
    await vi.advanceTimersByTimeAsync(0);
    newest = { id: 7, hash: hash(7), time: '2026-11-21T09:01:00.000000Z' };
    await vi.advanceTimersByTimeAsync(300_000);
    newest = { id: 9, hash: hash(9), time: '2026-11-21T09:06:00.000000Z' };
    await signer.close();
    await vi.advanceTimersByTimeAsync(900_000);
    expect(heads.map((h) => [h.id, h.at])).toEqual([[0, '2026-11-21T09:00:00.000Z'], [7, '2026-11-21T09:05:00.000Z'], [9, '2026-11-21T09:05:00.000Z']]);
    expect(heads[1]).toMatchObject({ store: 'postgresql:audit', hash: hash(7), time: '2026-11-21T09:01:00.000000Z', key: 'k2' });
    expect(heads.map((h) => headProblem(h, KEYS.byId))).toEqual([undefined, undefined, undefined]);
  });

  it('reports a head that cannot be made (the store away) and signs again at the next interval', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 21, 9, 0, 0) });
    let away = true;
    const failures: unknown[] = [];
    const heads: SignedHead[] = [];
    const signer = new HeadSigner({
      source: { head: async () => { if (away) throw new Error('connection refused'); return { id: 3, hash: hash(3) }; } },
      key: KEYS.signing, store: 'file', intervalMs: 60_000, now: () => new Date(), onHead: (h) => heads.push(h), onFailure: (err) => failures.push(err),
    });
    signer.start();
    await vi.advanceTimersByTimeAsync(0);
    away = false;
    await vi.advanceTimersByTimeAsync(60_000);
    await signer.close();
    expect(failures.map((e) => (e as Error).message)).toEqual(['connection refused']);
    expect(heads.map((h) => h.id)).toEqual([3, 3]);
  });
});
