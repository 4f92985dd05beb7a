/**
 * The EHR reads polling may make (SUBSCRIPTION_EHR_READS_PER_SECOND, docs/notifications.md#the-ehr-budget),
 * across every instance: each poll reserves its reads before it makes them, and waits its turn, so the
 * reads never come faster than the budget; when more patients are due than it allows, polling stretches
 * and the lag grows instead.
 */
export interface PollBudget {
  /** Reserves `reads` at `nowMs`; resolves with the milliseconds to wait before making them (0: now). */
  reserve(reads: number, nowMs: number): Promise<number>;
  close(): Promise<void>;
}
