import type { PollBudget } from '../../ports/poll-budget.port.js';
import { checkReads, intervalMs, nextTat, waitFor } from './poll-budget-rate.js';

/**
 * The EHR read budget of one process (poll-budget-rate.ts): for a single instance and tests. Several
 * instances share one budget in PostgreSQL (postgres-poll-budget.ts).
 */
export class MemoryPollBudget implements PollBudget {
  private readonly interval: number;
  private tat = Number.NEGATIVE_INFINITY;

  constructor(readsPerSecond: number) {
    this.interval = intervalMs(readsPerSecond);
  }

  async reserve(reads: number, nowMs: number): Promise<number> {
    checkReads(reads);
    this.tat = nextTat(this.tat, nowMs, reads, this.interval);
    return waitFor(this.tat, nowMs);
  }

  async close(): Promise<void> {}
}
