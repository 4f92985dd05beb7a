/**
 * The EHR read budget (src/ports/poll-budget.port.ts) over memory and PostgreSQL, on an injected clock
 * with nothing slept: two instances reserving as fast as they are let never make more reads in any
 * window than the rate allows plus one burst (one second's worth, or one poll where a poll needs more),
 * and use the budget rather than waste it; a burst is free on an idle budget, and nothing more is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryPollBudget } from '../../../src/adapters/subscriptions/memory-poll-budget.js';
import { BURST_MS } from '../../../src/adapters/subscriptions/poll-budget-rate.js';
import { PostgresPollBudget } from '../../../src/adapters/subscriptions/postgres-poll-budget.js';
import type { PollBudget } from '../../../src/ports/poll-budget.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';

const available = await databaseAvailable();

interface BudgetPair {
  one: PollBudget;
  two: PollBudget;
  close(): Promise<void>;
}

const KINDS: { name: string; needsDatabase: boolean; open(readsPerSecond: number): Promise<BudgetPair> }[] = [
  {
    name: 'memory', needsDatabase: false,
    open: async (readsPerSecond) => {
      const budget = new MemoryPollBudget(readsPerSecond);
      return { one: budget, two: budget, close: () => budget.close() };
    },
  },
  {
    name: 'postgresql', needsDatabase: true,
    open: async (readsPerSecond) => {
      const schema = freshSchema('budget_test');
      const open = () => PostgresPollBudget.open({ connectionString: databaseUrl(), schema, readsPerSecond });
      const [one, two] = [await open(), await open()];
      return {
        one, two,
        close: async () => {
          await Promise.all([one.close(), two.close()]);
          const admin = adminPool();
          await dropSchema(admin, schema);
          await admin.end();
        },
      };
    },
  },
];

/** A fixed pseudo-random sequence (a 32-bit LCG): the same run every time. */
function numbers(seed: number): (below: number) => number {
  let x = seed >>> 0;
  return (below) => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return x % below;
  };
}

interface Made { atMs: number; reads: number }

/**
 * Two instances polling without pause on one virtual clock: each reserves 1 to 4 reads, waits what it is
 * told, makes them, and asks again 0 to 29 ms later; whichever is earlier goes next.
 */
async function pollFlat(pair: BudgetPair, reservations: number, seed: number, startMs: number): Promise<Made[]> {
  const random = numbers(seed);
  const next = [startMs, startMs];
  const budgets = [pair.one, pair.two];
  const made: Made[] = [];
  for (let i = 0; i < reservations; i++) {
    const k = (next[0] as number) <= (next[1] as number) ? 0 : 1;
    const now = next[k] as number;
    const reads = 1 + random(4);
    const wait = await (budgets[k] as PollBudget).reserve(reads, now);
    expect(wait).toBeGreaterThanOrEqual(0);
    made.push({ atMs: now + wait, reads });
    next[k] = now + wait + random(30);
  }
  return made.sort((a, b) => a.atMs - b.atMs);
}

/** The most reads any window [t_i, t_j] holds beyond `perMs` × its length. */
function worstExcess(made: readonly Made[], perMs: number): number {
  let worst = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < made.length; i++) {
    let reads = 0;
    for (let j = i; j < made.length; j++) {
      reads += (made[j] as Made).reads;
      worst = Math.max(worst, reads - ((made[j] as Made).atMs - (made[i] as Made).atMs) * perMs);
    }
  }
  return worst;
}

for (const kind of KINDS) {
  describe.skipIf(kind.needsDatabase && !available)(`the ${kind.name} EHR read budget`, () => {
    let pair: BudgetPair | undefined;
    afterEach(async () => {
      await pair?.close();
      pair = undefined;
    });

    for (const [readsPerSecond, seed] of [[20, 20_261_126], [0.5, 54], [3, 7]] as const) {
      it(`at ${readsPerSecond} a second: 1,000 reservations from two instances keep the rate in every window, and use it`, async () => {
        pair = await kind.open(readsPerSecond);
        const startMs = 1_795_000_000_000;
        const made = await pollFlat(pair, 1000, seed, startMs);
        const interval = 1000 / readsPerSecond;
        // The burst: one second's worth, or one poll's four reads where they are more; 1 ms for the waits rounded up.
        const burstReads = (Math.max(BURST_MS, 4 * interval) + 1) / interval;
        expect(worstExcess(made, 1 / interval)).toBeLessThanOrEqual(burstReads + 1e-9);
        // Used, not wasted: the last reads come when the budget has carried them all, less one burst.
        const total = made.reduce((n, m) => n + m.reads, 0);
        const lastMs = (made.at(-1) as Made).atMs - startMs;
        expect(lastMs).toBeLessThanOrEqual(total * interval);
        expect(lastMs).toBeGreaterThanOrEqual(total * interval - BURST_MS - 1);
      });
    }

    it('an idle budget gives one second\'s worth at once, and makes the next reads wait their turn', async () => {
      pair = await kind.open(20);
      const now = 1_795_000_000_000;
      const waits = [];
      for (let i = 0; i < 7; i++) waits.push(await (i % 2 === 0 ? pair.one : pair.two).reserve(4, now));
      expect(waits).toEqual([0, 0, 0, 0, 0, 200, 400]);
      // Idle for a while: the budget does not save up more than its burst.
      expect(await pair.one.reserve(20, now + 60_000)).toBe(0);
      expect(await pair.two.reserve(1, now + 60_000)).toBe(50);
      expect(await pair.two.reserve(0, now + 60_000)).toBe(50);
    });

    it('refuses a rate or a reservation that is no number of reads', async () => {
      pair = await kind.open(1);
      await expect(pair.one.reserve(-1, 0)).rejects.toThrow(RangeError);
      await expect(pair.one.reserve(1.5, 0)).rejects.toThrow(RangeError);
      await expect(kind.open(0)).rejects.toThrow(RangeError);
    });
  });
}
