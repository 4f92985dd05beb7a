/**
 * Subscriptions, their events and views, and the feeds, as one process holds them: the memory store's
 * whole, and the file store's state between reading and writing its file. What must survive a restart
 * is `state` (JSON); leases and poll times are the process's own (after a restart every followed
 * patient is polled at once, and no lease is held).
 */
import type { StoredSubscription, SubscriptionEvent } from '../../domain/notifications/subscription.js';
import { isLive } from '../../domain/notifications/subscription.js';
import { feedOfTopic, readsOfTopic, type FeedName } from '../../domain/notifications/topics.js';
import type { FeedEntry, StoredFeedEntry, SubscriptionChange, Views } from '../../ports/subscription-store.port.js';

export interface SubscriptionTableState {
  subscriptions: Record<string, StoredSubscription>;
  views: Record<string, Views>;
  events: Record<string, SubscriptionEvent[]>;
  feed: StoredFeedEntry[];
  feedSeq: number;
  cursors: Record<string, string>;
}

export const emptyState = (): SubscriptionTableState => ({ subscriptions: {}, views: {}, events: {}, feed: [], feedSeq: 0, cursors: {} });

interface Lease { owner: string; untilMs: number }

const byCreated = (a: StoredSubscription, b: StoredSubscription): number => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1);
const leaseFree = (lease: Lease | undefined, nowMs: number): boolean => lease === undefined || lease.untilMs <= nowMs;
/** When it is due (SubscriptionStore.claimDue): its `dueMs`, or for a live one an older build left with an end begun and none, when that claim lapses. */
const dueAt = (s: StoredSubscription): number | undefined => s.dueMs ?? (s.ending !== undefined && isLive(s) ? s.ending.untilMs : undefined);
/** The order of SubscriptionStore.claimDue: the ends left with no due time first, oldest first; then the most overdue, then the oldest. */
export const byClaimOrder = (a: StoredSubscription, b: StoredSubscription): number =>
  Number(a.dueMs !== undefined) - Number(b.dueMs !== undefined) || (a.dueMs ?? 0) - (b.dueMs ?? 0) || byCreated(a, b);

/** Checks that a change numbers its events on from the subscription's last, without a gap: a defect otherwise, never kept. */
export function checkNumbering(before: StoredSubscription, change: SubscriptionChange): void {
  const events = change.events ?? [];
  events.forEach((e, i) => {
    if (e.subscriptionId !== before.id || e.number !== before.eventCount + i + 1) throw new Error('events must be numbered on from the last, without a gap');
  });
  if (change.subscription.id !== before.id || change.subscription.eventCount !== before.eventCount + events.length) {
    throw new Error('a change must count exactly the events it numbers');
  }
}

export class SubscriptionTable {
  private readonly leases = new Map<string, Lease>();
  /** `soonMs`: a write while a poll held the lease (pollSoon); the release keeps it if sooner. */
  private readonly polls = new Map<string, { dueMs: number; lease?: Lease; soonMs?: number }>();

  constructor(public state: SubscriptionTableState = emptyState()) {}

  create(s: StoredSubscription, views: Views, admit: (same: readonly StoredSubscription[]) => void, firstPollMs: number): void {
    const { personId, clientId } = s.subscriber;
    admit(this.all((o) => o.patient === s.patient && o.subscriber.clientId === clientId && o.subscriber.personId === personId));
    this.state.subscriptions[s.id] = s;
    this.state.views[s.id] = views;
    this.state.events[s.id] = [];
    if (readsOfTopic(s.topic).length > 0 && !this.polls.has(s.patient)) this.polls.set(s.patient, { dueMs: firstPollMs });
  }

  get(id: string): StoredSubscription | undefined {
    return this.state.subscriptions[id];
  }

  all(keep: (s: StoredSubscription) => boolean): StoredSubscription[] {
    return Object.values(this.state.subscriptions).filter(keep).sort(byCreated);
  }

  update(id: string, decide: (current: StoredSubscription, views: Views) => SubscriptionChange | undefined): SubscriptionChange | undefined {
    const before = this.state.subscriptions[id];
    if (before === undefined) return undefined;
    const change = decide(before, this.state.views[id] ?? {});
    if (change === undefined) return undefined;
    checkNumbering(before, change);
    this.state.subscriptions[id] = change.subscription;
    if (change.views !== undefined) this.state.views[id] = change.views;
    if (change.events !== undefined && change.events.length > 0) this.state.events[id] = [...(this.state.events[id] ?? []), ...change.events];
    return change;
  }

  remove(id: string): void {
    delete this.state.subscriptions[id];
    delete this.state.views[id];
    delete this.state.events[id];
    this.leases.delete(id);
  }

  events(id: string, from: number, to: number, limit: number): SubscriptionEvent[] {
    return (this.state.events[id] ?? []).filter((e) => e.number >= from && e.number <= to).slice(0, limit);
  }

  pruneEvents(beforeMs: number): number {
    let gone = 0;
    for (const [id, events] of Object.entries(this.state.events)) {
      const kept = events.filter((e) => e.atMs >= beforeMs);
      gone += events.length - kept.length;
      this.state.events[id] = kept;
    }
    return gone;
  }

  pruneEnded(beforeMs: number): number {
    const gone = this.all((s) => !isLive(s) && s.changedMs < beforeMs);
    for (const s of gone) this.remove(s.id);
    return gone.length;
  }

  claimDue(nowMs: number, owner: string, leaseMs: number, limit: number, skipApps: readonly string[]): StoredSubscription[] {
    const due = Object.values(this.state.subscriptions)
      .filter((s) => (dueAt(s) ?? Number.POSITIVE_INFINITY) <= nowMs && leaseFree(this.leases.get(s.id), nowMs) && !skipApps.includes(s.subscriber.clientId))
      .sort(byClaimOrder)
      .slice(0, limit);
    for (const s of due) this.leases.set(s.id, { owner, untilMs: nowMs + leaseMs });
    return due;
  }

  releaseClaim(id: string, owner: string): void {
    if (this.leases.get(id)?.owner === owner) this.leases.delete(id);
  }

  /** Patients a live subscription follows the records of. */
  private polled(): Set<string> {
    return new Set(this.all((s) => isLive(s) && readsOfTopic(s.topic).length > 0).map((s) => s.patient));
  }

  claimPolls(nowMs: number, owner: string, leaseMs: number, limit: number): { patient: string; dueMs: number }[] {
    const polled = this.polled();
    for (const patient of this.polls.keys()) if (!polled.has(patient)) this.polls.delete(patient);
    // A patient followed since before this process started is due at once.
    for (const patient of polled) if (!this.polls.has(patient)) this.polls.set(patient, { dueMs: nowMs });
    const due = [...this.polls.entries()]
      .filter(([, p]) => p.dueMs <= nowMs && leaseFree(p.lease, nowMs))
      .sort(([, a], [, b]) => a.dueMs - b.dueMs)
      .slice(0, limit);
    for (const [, p] of due) {
      p.lease = { owner, untilMs: nowMs + leaseMs };
      delete p.soonMs;
    }
    return due.map(([patient, p]) => ({ patient, dueMs: p.dueMs }));
  }

  releasePoll(patient: string, owner: string, nextDueMs: number): void {
    const p = this.polls.get(patient);
    if (p === undefined || p.lease?.owner !== owner) return;
    this.polls.set(patient, { dueMs: Math.min(nextDueMs, p.soonMs ?? nextDueMs) });
  }

  /** A write while a poll holds the lease is kept for its release: the poll may have read before the write. */
  pollSoon(patient: string, atMs: number): void {
    const p = this.polls.get(patient);
    if (p === undefined) return;
    if (p.lease !== undefined) p.soonMs = Math.min(p.soonMs ?? atMs, atMs);
    else if (p.dueMs > atMs) p.dueMs = atMs;
  }

  oldestDuePoll(nowMs: number): number | undefined {
    const due = [...this.polls.values()].filter((p) => p.dueMs <= nowMs).map((p) => p.dueMs);
    return due.length === 0 ? undefined : Math.min(...due);
  }

  feedFollowers(patients: readonly string[], feed: FeedName): Set<string> {
    const asked = new Set(patients);
    return new Set(this.all((s) => isLive(s) && asked.has(s.patient) && feedOfTopic(s.topic) === feed).map((s) => s.patient));
  }

  appendFeed(entries: readonly FeedEntry[]): void {
    const known = new Set(this.state.feed.map((e) => e.sourceId));
    for (const e of entries) {
      if (known.has(e.sourceId)) continue;
      known.add(e.sourceId);
      this.state.feed.push({ ...e, seq: ++this.state.feedSeq });
    }
  }

  feedAfter(patient: string, feed: FeedName, afterSeq: number, limit: number): StoredFeedEntry[] {
    return this.state.feed.filter((e) => e.seq > afterSeq && e.patient === patient && e.feed === feed).slice(0, limit);
  }

  pruneFeed(beforeMs: number): number {
    const before = this.state.feed.length;
    this.state.feed = this.state.feed.filter((e) => e.atMs >= beforeMs);
    return before - this.state.feed.length;
  }

  countByStatus(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const s of Object.values(this.state.subscriptions)) counts[s.status] = (counts[s.status] ?? 0) + 1;
    return counts;
  }
}
