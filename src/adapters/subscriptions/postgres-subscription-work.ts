/**
 * The leases of the notifications schema (docs/operations.md#the-notifications-schema): which instance
 * delivers a subscription's notifications and which polls a patient, each until its lease ends. A
 * claim picks due rows with `FOR UPDATE SKIP LOCKED`, so two instances claiming at once take disjoint
 * rows instead of waiting on or doubling each other; a lease its holder never released (it crashed)
 * is free again once the claim's time passes its end. Times are the callers' (the injected clock).
 */
import type { StoredSubscription } from '../../domain/notifications/subscription.js';
import type { NotificationsDb } from './postgres-notifications-db.js';
import { LIVE, SUBSCRIPTION_SELECT, subscriptionOf, type SubscriptionRow } from './postgres-subscription-rows.js';
import { byClaimOrder } from './subscription-table.js';

const FREE = '(lease_until IS NULL OR lease_until <= $1)';
/**
 * A live subscription an older build left with an end begun and no due time, whose claim has lapsed (`ending.untilMs`,
 * compared as the number it is, so that no value of it can fail the query: hostile review helper-122, F4); the partial
 * index subscriptions_ends_left (schema version 5) has its first terms.
 */
const END_LEFT_LAPSED = `due IS NULL AND ending IS NOT NULL AND ${LIVE}
  AND CASE WHEN json_typeof(ending->'untilMs') = 'number' THEN (ending->>'untilMs')::numeric END <= $6::numeric`;

export class PostgresSubscriptionWork {
  constructor(protected readonly db: NotificationsDb) {}

  /**
   * Two claims in one transaction, each read in its index's order and stopped at its limit: the ends left with no due
   * time (rare, and past their time), then with the room left the due rows, most overdue first (SubscriptionStore.claimDue).
   * One query over both sorted every overdue row on every claim (hostile review helper-122, F2: 2.9 s with two million
   * due); the due rows first never let an end left in while they filled the limit (helper-123, F2); two transactions
   * left the first's leases held for a lease's time when the second failed (helper-123, F3).
   */
  claimDue(nowMs: number, owner: string, leaseMs: number, limit: number, skipApps: readonly string[] = []): Promise<StoredSubscription[]> {
    return this.db.guarded('claimed', () => this.db.transaction(async (client) => {
      const claim = async (where: string, order: string, room: number, extra: unknown[]): Promise<SubscriptionRow[]> => (await client.query<SubscriptionRow>(`
        WITH picked AS (SELECT id AS picked_id FROM ${this.db.s}.subscriptions WHERE ${where} AND ${FREE} AND NOT (client_id = ANY($5))
                         ORDER BY ${order} LIMIT $4 FOR UPDATE SKIP LOCKED)
        UPDATE ${this.db.s}.subscriptions SET lease_owner = $2, lease_until = $3 FROM picked WHERE id = picked_id
        RETURNING ${SUBSCRIPTION_SELECT}`, [new Date(nowMs), owner, new Date(nowMs + leaseMs), room, [...skipApps], ...extra])).rows;
      const left = await claim(END_LEFT_LAPSED, 'created, id', limit, [nowMs]);
      const due = left.length < limit ? await claim('due <= $1', 'due, created, id', limit - left.length, []) : [];
      return [...left, ...due].map(subscriptionOf).sort(byClaimOrder);
    }));
  }

  releaseClaim(id: string, owner: string): Promise<void> {
    return this.db.guarded('released', async () => {
      await this.db.pool.query(`UPDATE ${this.db.s}.subscriptions SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`, [id, owner]);
    });
  }

  claimPolls(nowMs: number, owner: string, leaseMs: number, limit: number): Promise<{ patient: string; dueMs: number }[]> {
    return this.db.guarded('claimed', async () => {
      const { rows } = await this.db.pool.query<{ patient: string; due: Date }>(`
        WITH picked AS (SELECT patient AS picked_patient FROM ${this.db.s}.poll_targets WHERE due <= $1 AND ${FREE}
                         ORDER BY due, patient LIMIT $4 FOR UPDATE SKIP LOCKED)
        UPDATE ${this.db.s}.poll_targets SET lease_owner = $2, lease_until = $3, soon = NULL FROM picked WHERE patient = picked_patient
        RETURNING patient, due`, [new Date(nowMs), owner, new Date(nowMs + leaseMs), limit]);
      return rows.map((r) => ({ patient: r.patient, dueMs: r.due.getTime() })).sort((a, b) => a.dueMs - b.dueMs || (a.patient < b.patient ? -1 : 1));
    });
  }

  releasePoll(patient: string, owner: string, nextDueMs: number): Promise<void> {
    return this.db.guarded('released', async () => {
      // A write while the poll ran (pollSoon) may have changed what the poll read: its time is kept if sooner.
      await this.db.pool.query(`UPDATE ${this.db.s}.poll_targets SET due = LEAST($3, COALESCE(soon, $3)), soon = NULL, lease_owner = NULL, lease_until = NULL
        WHERE patient = $1 AND lease_owner = $2`, [patient, owner, new Date(nextDueMs)]);
    });
  }

  /**
   * Only a target that exists moves: a patient nobody follows is not made polled by a write. While a
   * poll holds the lease, the time is kept for its release: the poll may have read before the write.
   */
  pollSoon(patient: string, atMs: number): Promise<void> {
    return this.db.guarded('changed', async () => {
      await this.db.pool.query(`UPDATE ${this.db.s}.poll_targets
        SET due = CASE WHEN lease_owner IS NULL THEN LEAST(due, $2) ELSE due END,
            soon = CASE WHEN lease_owner IS NULL THEN soon ELSE LEAST(COALESCE(soon, $2), $2) END
        WHERE patient = $1`, [patient, new Date(atMs)]);
    });
  }

  oldestDuePoll(nowMs: number): Promise<number | undefined> {
    return this.db.guarded('read', async () => {
      const { rows } = await this.db.pool.query<{ due: Date | null }>(`SELECT min(due) AS due FROM ${this.db.s}.poll_targets WHERE due <= $1`, [new Date(nowMs)]);
      return rows[0]?.due?.getTime() ?? undefined;
    });
  }
}
