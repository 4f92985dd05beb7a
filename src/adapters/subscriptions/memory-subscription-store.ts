import type { StoredSubscription, SubscriptionEvent } from '../../domain/notifications/subscription.js';
import type { FeedName } from '../../domain/notifications/topics.js';
import type { FeedEntry, StoredFeedEntry, SubscriptionChange, SubscriptionStore, Views } from '../../ports/subscription-store.port.js';
import { SubscriptionTable } from './subscription-table.js';

/**
 * Subscriptions in this process's memory only: for tests, and the base of the file store. Each method
 * is one step of the table, so none interleaves with another.
 */
export class MemorySubscriptionStore implements SubscriptionStore {
  readonly kind: string = 'memory';
  private readonly turns = new Set<string>();

  constructor(protected readonly table: SubscriptionTable = new SubscriptionTable()) {}

  /** Called after every change of what must survive a restart (the file store writes it). */
  protected async changed(): Promise<void> {}

  async create(subscription: StoredSubscription, views: Views, admit: (same: readonly StoredSubscription[]) => void, firstPollMs: number): Promise<void> {
    this.table.create(subscription, views, admit, firstPollMs);
    await this.changed();
  }

  async byId(id: string): Promise<StoredSubscription | undefined> {
    return this.table.get(id);
  }

  async views(id: string): Promise<Views> {
    return this.table.state.views[id] ?? {};
  }

  async ofSubscriber(personId: string, clientId: string): Promise<StoredSubscription[]> {
    return this.table.all((s) => s.subscriber.personId === personId && s.subscriber.clientId === clientId);
  }

  async liveFor(patient: string): Promise<StoredSubscription[]> {
    return this.table.all((s) => s.patient === patient && (s.status === 'requested' || s.status === 'active'));
  }

  async update(id: string, decide: (current: StoredSubscription, views: Views) => SubscriptionChange | undefined): Promise<SubscriptionChange | undefined> {
    const change = this.table.update(id, decide);
    if (change !== undefined) await this.changed();
    return change;
  }

  async remove(id: string): Promise<void> {
    this.table.remove(id);
    await this.changed();
  }

  async events(id: string, from: number, to: number, limit: number): Promise<SubscriptionEvent[]> {
    return this.table.events(id, from, to, limit);
  }

  async pruneEvents(beforeMs: number): Promise<number> {
    const gone = this.table.pruneEvents(beforeMs);
    if (gone > 0) await this.changed();
    return gone;
  }

  async pruneEnded(beforeMs: number): Promise<number> {
    const gone = this.table.pruneEnded(beforeMs);
    if (gone > 0) await this.changed();
    return gone;
  }

  async countByStatus(): Promise<Record<string, number>> {
    return this.table.countByStatus();
  }

  async claimDue(nowMs: number, owner: string, leaseMs: number, limit: number, skipApps: readonly string[] = []): Promise<StoredSubscription[]> {
    return this.table.claimDue(nowMs, owner, leaseMs, limit, skipApps);
  }

  async releaseClaim(id: string, owner: string): Promise<void> {
    this.table.releaseClaim(id, owner);
  }

  async claimPolls(nowMs: number, owner: string, leaseMs: number, limit: number): Promise<{ patient: string; dueMs: number }[]> {
    return this.table.claimPolls(nowMs, owner, leaseMs, limit);
  }

  async releasePoll(patient: string, owner: string, nextDueMs: number): Promise<void> {
    this.table.releasePoll(patient, owner, nextDueMs);
  }

  async pollSoon(patient: string, atMs: number): Promise<void> {
    this.table.pollSoon(patient, atMs);
  }

  async oldestDuePoll(nowMs: number): Promise<number | undefined> {
    return this.table.oldestDuePoll(nowMs);
  }

  async feedFollowers(patients: readonly string[], feed: FeedName): Promise<Set<string>> {
    return this.table.feedFollowers(patients, feed);
  }

  async appendFeed(entries: readonly FeedEntry[]): Promise<void> {
    this.table.appendFeed(entries);
    if (entries.length > 0) await this.changed();
  }

  async feedAfter(patient: string, feed: FeedName, afterSeq: number, limit: number): Promise<StoredFeedEntry[]> {
    return this.table.feedAfter(patient, feed, afterSeq, limit);
  }

  async feedEnd(): Promise<number> {
    return this.table.state.feedSeq;
  }

  async pruneFeed(beforeMs: number): Promise<number> {
    const gone = this.table.pruneFeed(beforeMs);
    if (gone > 0) await this.changed();
    return gone;
  }

  async cursor(name: string): Promise<string | undefined> {
    return this.table.state.cursors[name];
  }

  async setCursor(name: string, value: string): Promise<void> {
    if (this.table.state.cursors[name] === value) return;
    this.table.state.cursors[name] = value;
    await this.changed();
  }

  async inTurn<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
    if (this.turns.has(name)) return undefined;
    this.turns.add(name);
    try {
      return await work();
    } finally {
      this.turns.delete(name);
    }
  }

  async close(): Promise<void> {}
}
