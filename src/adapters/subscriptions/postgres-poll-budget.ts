/**
 * The EHR read budget shared by every instance (docs/notifications.md#the-ehr-budget): one row of the
 * notifications schema holds the GCRA's TAT (poll-budget-rate.ts), and each reservation moves it in one
 * UPDATE, which instances take in turn on the row's lock, so the reads reserved across all of them
 * keep SUBSCRIPTION_EHR_READS_PER_SECOND. The times are the callers' clocks; instances whose clocks
 * differ by d ms may together exceed the budget by d ms' worth.
 */
import type { PollBudget } from '../../ports/poll-budget.port.js';
import { SubscriptionStoreUnavailableError } from '../../ports/subscription-store.port.js';
import { NotificationsDb, type NotificationsDbOptions } from './postgres-notifications-db.js';
import { BUDGET_ROW } from './postgres-subscription-schema.js';
import { checkReads, intervalMs, waitFor } from './poll-budget-rate.js';

export interface PostgresPollBudgetOptions extends NotificationsDbOptions {
  readsPerSecond: number;
}

export class PostgresPollBudget implements PollBudget {
  private readonly interval: number;

  private constructor(private readonly db: NotificationsDb, readsPerSecond: number) {
    this.interval = intervalMs(readsPerSecond);
  }

  /**
   * The budget over a small pool of its own; the schema is migrated now when the database answers, else
   * on first use. Its commits do not wait for the disk: a server crash that lost the last reservations
   * lets at most those few reads through again, and a poll does not wait on a flush for its turn.
   */
  static async open(options: PostgresPollBudgetOptions): Promise<PostgresPollBudget> {
    intervalMs(options.readsPerSecond);
    const db = new NotificationsDb({ poolMax: 2, ...options }, { applicationName: 'patient-data-access-poll-budget', durableCommits: false });
    const budget = new PostgresPollBudget(db, options.readsPerSecond);
    await db.ready().catch(() => undefined);
    return budget;
  }

  /** nextTat (poll-budget-rate.ts) in SQL: float8 arithmetic, as JavaScript's. */
  async reserve(reads: number, nowMs: number): Promise<number> {
    checkReads(reads);
    return this.db.guarded('reserved', async () => {
      const { rows } = await this.db.pool.query<{ tat: number }>(
        `UPDATE ${this.db.s}.poll_budget SET tat = GREATEST(tat, $1::float8) + $2::integer * $3::float8 WHERE name = $4 RETURNING tat`,
        [nowMs, reads, this.interval, BUDGET_ROW]);
      const tat = rows[0]?.tat;
      if (tat === undefined) throw new SubscriptionStoreUnavailableError(`the EHR read budget's row is missing from ${this.db.schema}.poll_budget: run npm run migrate`);
      return waitFor(tat, nowMs);
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
