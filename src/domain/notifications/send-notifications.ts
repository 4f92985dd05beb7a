/**
 * Delivery (docs/notifications.md#delivery): each turn leases the subscriptions that have work now and
 * serves each on its own, so a slow or failing endpoint holds only its own subscriptions. Serving one
 * is its handshake, its end, the numbering of its feed's new entries, its undelivered events in order
 * (at least once, as many a notification as `maxCount` allows, retried with backoff), or a heartbeat.
 * Before any event goes, the check at sending is made again, each event's record is read again (one
 * withheld since it was numbered is not told), and the notification is audited as the app learning of
 * that record; a right that is gone ends the subscription instead.
 */
import type { DeliveryOutcome, NotificationChannel } from '../../ports/notification-channel.port.js';
import type { Views } from '../../ports/subscription-store.port.js';
import { checkChannelHeaders } from './channel-headers.js';
import { notifiedRecord } from './engine-audit.js';
import {
  AUDIT_ALLOWANCE_MS, claimHeld, delivered, due, dueNow, endToRetry, failed, hasUndelivered, heartbeatDueMs, heartbeatSent, numbered,
  passedOver, UNSERVED_RETRY_MS,
} from './lifecycle.js';
import { endSubscription, type NotificationDeps } from './notification-deps.js';
import { notificationBundle, type NotificationType } from './notification-bundle.js';
import { markedUntold } from './record-view.js';
import { eventsNow } from './seen-records.js';
import type { RightHolds } from './right-to-read.js';
import type { ReadName } from '../operations/table.js';
import { isLive, type NewEvent, type StoredSubscription, type SubscriptionEvent } from './subscription.js';
import { feedOfTopic } from './topics.js';

/** Events one notification carries when the subscription sets no `maxCount`. */
export const DEFAULT_MAX_COUNT = 50;
/** Notifications one turn sends a subscription before it gives others their turn. */
const BATCHES_PER_TURN = 10;
/**
 * Subscriptions of one app served at once by one instance: an app with many slow receivers holds this
 * many of the instance's `maxInFlight`, never all of them (threat 66), and waits for its own to finish.
 */
export const MAX_IN_FLIGHT_PER_APP = 8;
/** Claims one turn makes at most: enough to pass over a few apps that are full. */
const CLAIM_ROUNDS = 4;

export interface SendSettings {
  /** SUBSCRIPTION_RETRY_MINUTES in milliseconds: how long failing deliveries are retried before `error`. */
  retryMs: number;
  /** `{PUBLIC_BASE_URL}/fhir`, read when a notification is written (the port bound is known once listening). */
  fhirBase: () => string;
  /** Subscriptions served at once by this instance. */
  maxInFlight: number;
  /** How long a lease of a subscription lasts: longer than the longest attempt (timeouts are at most 30 s). */
  leaseMs: number;
  /** This instance, as the store's leases name it. */
  owner: string;
  /** Told of every delivery's outcome (the metrics). */
  observe?: (outcome: DeliveryOutcome['kind']) => void;
  /** Told of a failure serving a subscription that is not its endpoint's (the store or the EHR could not answer); it is tried again. */
  onError?: (err: unknown) => void;
}

/** `Name: value` lines as pairs, by the rule that admitted them at creation; none were kept that it refuses. */
const headerPairs = (lines: readonly string[]): readonly (readonly [string, string])[] => {
  const verdict = checkChannelHeaders(lines, 'kept');
  return verdict.allowed ? verdict.headers : [];
};

export class SendNotifications {
  /** What is being served, by subscription id, with its app. */
  private readonly inFlight = new Map<string, { serving: Promise<void>; clientId: string }>();

  constructor(private readonly deps: NotificationDeps & { channel: NotificationChannel }, private readonly settings: SendSettings) {}

  /** One turn: leases what is due, beyond what is being served, and starts serving each; does not wait for them. */
  async turn(): Promise<void> {
    const perApp = new Map<string, number>();
    for (const { clientId } of this.inFlight.values()) perApp.set(clientId, (perApp.get(clientId) ?? 0) + 1);
    const full = new Set([...perApp].filter(([, n]) => n >= MAX_IN_FLIGHT_PER_APP).map(([clientId]) => clientId));
    // Each round starts one at least or finds one more app full, whose rows the next claim skips.
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const room = this.settings.maxInFlight - this.inFlight.size;
      if (room <= 0) return;
      // The lease runs from this instant, the claim's own time included (hostile review helper-115, F1).
      const leasedAtMs = this.deps.clock.now();
      const claimed = await this.deps.store.claimDue(leasedAtMs, this.settings.owner, this.settings.leaseMs, room, [...full]);
      if (claimed.length === 0) return;
      for (const s of claimed) {
        const { clientId } = s.subscriber;
        const serving = perApp.get(clientId) ?? 0;
        if (this.inFlight.has(s.id)) continue;
        // One claim may bring more of an app than it may have served: those wait for a later turn.
        if (serving >= MAX_IN_FLIGHT_PER_APP) {
          full.add(clientId);
          await this.release(s.id);
          continue;
        }
        perApp.set(clientId, serving + 1);
        this.start(s, leasedAtMs);
      }
    }
  }

  private start(s: StoredSubscription, leasedAtMs: number): void {
    const done = this.serve(s, leasedAtMs).catch(async (err: unknown) => {
      this.settings.onError?.(err);
      await this.later(s.id);
    })
      .finally(() => this.release(s.id))
      .finally(() => this.inFlight.delete(s.id));
    this.inFlight.set(s.id, { serving: done, clientId: s.subscriber.clientId });
  }

  /**
   * Due again UNSERVED_RETRY_MS from now, unless it is due later already; its next attempt not before,
   * which a feed's new entry (dueNow) respects too (hostile review helper-111, F1); an end begun and not
   * finished that it could not take up is retried then, not as soon as its claim lapsed.
   */
  private later(id: string): Promise<unknown> {
    const nowMs = this.deps.clock.now();
    const atMs = nowMs + UNSERVED_RETRY_MS;
    return this.deps.store.update(id, (current) => {
      if (!isLive(current) || (current.dueMs ?? 0) >= atMs) return undefined;
      if (current.ending !== undefined) return claimHeld(current.ending, nowMs) ? undefined : { subscription: endToRetry(current, nowMs, atMs) };
      return { subscription: { ...current, nextAttemptMs: Math.max(current.nextAttemptMs ?? 0, atMs), dueMs: atMs } };
    }).catch((err: unknown) => this.settings.onError?.(err));
  }

  private release(id: string): Promise<void> {
    return this.deps.store.releaseClaim(id, this.settings.owner).catch((err: unknown) => this.settings.onError?.(err));
  }

  /** Resolves once every subscription being served is done (a shutdown's drain, a test). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((f) => f.serving));
  }

  private async serve(leased: StoredSubscription, leasedAtMs: number): Promise<void> {
    await this.work(leased, leasedAtMs);
    // Whatever it came to, by whichever path (an end another holds included: helper-116, F2), its next work is
    // counted from what it is now (nothing left: no work until something changes).
    const change = await this.deps.store.update(leased.id, (current) => {
      const next = due(current, this.deps.clock.now());
      return next.dueMs === current.dueMs ? undefined : { subscription: next };
    });
    await this.dueForNewEntries(change?.subscription ?? await this.deps.store.byId(leased.id));
  }

  /**
   * Due now when its feed holds entries past its position: one kept while it was served had its `dueNow`
   * overwritten by the serve's own changes (hostile review helper-117, F4). Asked after the serve's last
   * change, so an entry kept later is the feed follower's to make it due, which it does after keeping it.
   */
  private async dueForNewEntries(s: StoredSubscription | undefined): Promise<void> {
    const feed = s === undefined ? undefined : feedOfTopic(s.topic);
    if (s === undefined || feed === undefined || !isLive(s)) return;
    if ((await this.deps.store.feedAfter(s.patient, feed, s.feedPosition ?? 0, 1)).length === 0) return;
    await this.deps.store.update(s.id, (current) => ({ subscription: dueNow(current, this.deps.clock.now()) }));
  }

  /** What one lease of `leased` does: its end, its handshake, or its events and heartbeats while the lease lasts. */
  private async work(leased: StoredSubscription, leasedAtMs: number): Promise<void> {
    const nowMs = this.deps.clock.now();
    if (!isLive(leased)) return;
    // An end begun and not finished (its claimer stopped, or its record or end could not be written) is finished as it
    // was begun, before anything else and whatever the right is now: its record may stand already (hostile reviews
    // helper-119 F1 and F2, helper-120 F1, helper-121 F1, F3 and F4).
    if (leased.ending !== undefined) return claimHeld(leased.ending, nowMs) ? undefined : endSubscription(this.deps, leased, leased.ending.reason);
    if (leased.endMs !== undefined && leased.endMs <= nowMs) return endSubscription(this.deps, leased, 'ended');
    if (leased.status === 'requested') return this.mayStart(leased, leasedAtMs, 0) ? this.handshake(leased, leasedAtMs) : undefined;
    let s: StoredSubscription | undefined = feedOfTopic(leased.topic) === undefined ? leased : await this.takeFeed(leased);
    // Events ask for their audit record's allowance before their reads, not only after them: a lease with room for
    // the POST but not the record made a turn read the EHR ten times and send nothing (hostile review helper-117,
    // F5). A heartbeat writes no record, so asks for none (helper-118, F1).
    // An end another caller claimed meanwhile is theirs: nothing more goes (hostile review helper-121, F5).
    for (let batch = 0; s !== undefined && isLive(s) && s.ending === undefined && batch < BATCHES_PER_TURN && this.mayStart(s, leasedAtMs, 0); batch++) {
      if (hasUndelivered(s) && (s.nextAttemptMs ?? 0) <= this.deps.clock.now()) {
        if (!this.mayStart(s, leasedAtMs, AUDIT_ALLOWANCE_MS)) break;
        s = await this.deliverEvents(s, leasedAtMs);
      } else if (!hasUndelivered(s) && s.channel.heartbeatSeconds !== undefined && heartbeatDueMs(s, s.channel.heartbeatSeconds) <= this.deps.clock.now()) s = await this.heartbeat(s, leasedAtMs);
      else break;
    }
  }

  /** Numbers the feed's new entries for `s` once its person may still be told of them; undefined when it ended. */
  private async takeFeed(s: StoredSubscription): Promise<StoredSubscription | undefined> {
    const feed = feedOfTopic(s.topic);
    if (feed === undefined) return s;
    const entries = await this.deps.store.feedAfter(s.patient, feed, s.feedPosition ?? 0, DEFAULT_MAX_COUNT * BATCHES_PER_TURN);
    if (entries.length === 0) return s;
    if (!await this.rightHolds(s)) return undefined;
    const nowMs = this.deps.clock.now();
    const change = await this.deps.store.update(s.id, (current) => {
      if (!isLive(current)) return undefined;
      const fresh = entries.filter((e) => e.seq > (current.feedPosition ?? 0));
      const last = fresh.at(-1);
      if (last === undefined) return undefined;
      // What happened before the subscription was made is its baseline, even where the feed learnt of it later;
      // what its person did in the patient's log is no news to them (the patient's own is never in the feed).
      const news = fresh.filter((e) => e.atMs >= current.createdMs && !(feed === 'access' && e.actor === current.subscriber.personId));
      const events: NewEvent[] = news.map((e) => ({ atMs: e.atMs, focus: e.focus, change: e.change ?? 'created' }));
      const next = numbered({ ...current, feedPosition: last.seq }, events, nowMs);
      return next;
    });
    return change?.subscription ?? await this.deps.store.byId(s.id);
  }

  /**
   * Whether a notification may start now, after `extraMs` more of work: before the subscription's end (one
   * under way when it passed went on sending: helper-116), and ending, its timeout counted, within the lease
   * taken at `leasedAtMs`, or another instance would take the subscription and send it again. Asked before each
   * notification's reads and after them, with its audit record's allowance (helper-113 F1, helper-114 F3).
   */
  private mayStart(s: StoredSubscription, leasedAtMs: number, extraMs: number): boolean {
    return (s.endMs === undefined || s.endMs > this.deps.clock.now() + extraMs) && this.leaseHolds(s, leasedAtMs, extraMs);
  }

  /** Whether a POST started after `extraMs` more, its timeout counted, ends within the lease taken at `leasedAtMs`. */
  private leaseHolds(s: StoredSubscription, leasedAtMs: number, extraMs: number): boolean {
    return this.deps.clock.now() - leasedAtMs + extraMs + s.channel.timeoutSeconds * 1000 < this.settings.leaseMs;
  }

  /** Sends `s`'s next undelivered events, after the check at sending and their audit record; none once the lease is too short. */
  private async deliverEvents(s: StoredSubscription, leasedAtMs: number): Promise<StoredSubscription | undefined> {
    const right = await this.rightNow(s);
    if (right === undefined) return undefined;
    const from = s.deliveredThrough + 1;
    const events = await this.deps.store.events(s.id, from, s.eventCount, s.channel.maxCount ?? DEFAULT_MAX_COUNT);
    // Events past SUBSCRIPTION_EVENT_DAYS are forgotten: the next one kept is sent (the numbers tell the gap).
    if (events.length === 0) return this.settle(s, (current) => delivered(current, s.eventCount, this.deps.clock.now()));
    const through = (events.at(-1) as SubscriptionEvent).number;
    // The kept views before the records are read: a poll after that read is one the marks must yield to (helper-112, F2).
    const keptBefore = feedOfTopic(s.topic) === undefined ? await this.deps.store.views(s.id) : {};
    const { told, withheld } = await eventsNow(this.deps, s, right, events);
    if (told.length === 0) return this.keepUntold(s.id, withheld, keptBefore, (current) => passedOver(current, through, this.deps.clock.now()));
    if (!this.mayStart(s, leasedAtMs, AUDIT_ALLOWANCE_MS)) return s;
    // Asked again after the reads, which may take EHR_TIMEOUT_MS each: a grant revoked while they ran let the
    // notification go out seconds after the revoke (hostile review helper-132, F2). Between here and the POST is
    // only the audit record's write and the last look at the subscription.
    const still = await this.rightNow(s);
    if (still === undefined) return undefined;
    const nowMs = this.deps.clock.now();
    await this.deps.audit.append(notifiedRecord(s, still.access.basis, { nowMs, requestId: this.deps.newId() }));
    // Once recorded it goes, its end passed meanwhile or not, so that no record stands for a notification no turn
    // sends (helper-117, F2); only a lease it would outlast holds it back, and a later turn sends it with a record
    // of its own; and an end another caller began meanwhile, since telling is worse than a record of telling: both
    // are asked in `send`, after its last look at the subscription.
    const sent = await this.send(s, leasedAtMs, 'event-notification', told, (current, at) => delivered(current, through, at));
    // Only once taken are the events left out passed over; a refused notification's are checked again at the retry.
    if (sent !== undefined && sent.deliveredThrough >= through && withheld.size > 0) await this.keepUntold(s.id, withheld, keptBefore, (current) => current);
    return sent;
  }

  /**
   * Keeps the foci of events passed over as withheld and never told, so that their release is told,
   * where the poll has not moved them on since `keptBefore`; with `next` of the subscription.
   */
  private async keepUntold(id: string, withheld: ReadonlyMap<ReadName, readonly string[]>, keptBefore: Views,
    next: (current: StoredSubscription) => StoredSubscription): Promise<StoredSubscription | undefined> {
    const change = await this.deps.store.update(id, (current, views) => {
      if (!isLive(current)) return undefined;
      const marked = { ...views };
      for (const [read, foci] of withheld) marked[read] = markedUntold(views[read] ?? {}, foci, keptBefore[read] ?? {});
      return { subscription: next(current), views: marked };
    }, true);
    return change?.subscription;
  }

  /** A heartbeat tells the receiver the subscription lives, so it goes only while its person may still be told. */
  private async heartbeat(s: StoredSubscription, leasedAtMs: number): Promise<StoredSubscription | undefined> {
    if (!await this.rightHolds(s)) return undefined;
    if (!this.mayStart(s, leasedAtMs, 0)) return s;
    return this.send(s, leasedAtMs, 'heartbeat', [], (current, at) => heartbeatSent(current, at));
  }

  /** A handshake tells the receiver the subscription begins, so it too goes only while its person may be told. */
  private async handshake(s: StoredSubscription, leasedAtMs: number): Promise<void> {
    if (!await this.rightHolds(s) || !this.mayStart(s, leasedAtMs, 0)) return;
    await this.send(s, leasedAtMs, 'handshake', [], (current, at) => delivered(current, current.deliveredThrough, at));
  }

  /** Whether `s`'s person may still be told of the patient; if not, its end is begun and finished (rightNow, without its answer). */
  private async rightHolds(s: StoredSubscription): Promise<boolean> {
    const right = await this.deps.right.check(s);
    if (right.kind === 'holds') return true;
    await endSubscription(this.deps, s, right.reason);
    return false;
  }

  /** The right `s`'s person has to the patient now; undefined once it is lost, the subscription's end begun and finished. */
  private async rightNow(s: StoredSubscription): Promise<RightHolds | undefined> {
    const right = await this.deps.right.check(s);
    if (right.kind === 'holds') return right;
    await endSubscription(this.deps, s, right.reason);
    return undefined;
  }

  /**
   * POSTs one notification and keeps what came of it; a failure that ends the subscription is audited first. Not
   * when another caller began its end while the right was checked, the records read and the record written: the
   * subscription is read again just before (hostile reviews helper-122 F1, events; helper-123 F1, heartbeats); nor
   * when that read left too little of the lease taken at `leasedAtMs` for the POST (helper-124, F1).
   */
  private async send(s: StoredSubscription, leasedAtMs: number, type: NotificationType, events: readonly SubscriptionEvent[],
    onDelivered: (current: StoredSubscription, nowMs: number) => StoredSubscription): Promise<StoredSubscription | undefined> {
    const now = await this.deps.store.byId(s.id);
    if (now === undefined || !isLive(now) || now.ending !== undefined || !this.leaseHolds(s, leasedAtMs, 0)) return now;
    const { channel, clock, newId } = this.deps;
    const body = JSON.stringify(notificationBundle(s, type, events, { fhirBase: this.settings.fhirBase(), nowMs: clock.now(), newId }));
    const outcome = await channel.send({ endpoint: s.channel.endpoint, headers: headerPairs(s.channel.headers), body, timeoutMs: s.channel.timeoutSeconds * 1000 });
    this.settings.observe?.(outcome.kind);
    if (outcome.kind === 'delivered') return this.settle(s, (current) => onDelivered(current, clock.now()));
    const atMs = clock.now();
    const next = failed(s, atMs, this.settings.retryMs);
    // Ended as the stored one is: one ended or deleted meanwhile (its right gone, by its person) gets no second record.
    if (!isLive(next) && next.endReason !== undefined) {
      await endSubscription(this.deps, s, next.endReason);
      return undefined;
    }
    // Not ended here, unrecorded, though the stored one's streak would end it: the next attempt ends it, recorded (helper-111).
    return this.settle(s, (current) => failed(current, atMs, this.settings.retryMs, false));
  }

  private async settle(s: StoredSubscription, next: (current: StoredSubscription) => StoredSubscription): Promise<StoredSubscription | undefined> {
    const change = await this.deps.store.update(s.id, (current) => (isLive(current) ? { subscription: next(current) } : undefined));
    return change?.subscription;
  }
}
