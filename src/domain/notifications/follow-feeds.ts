/**
 * The service's own feeds (docs/notifications.md#finding-changes), followed by one instance at a time:
 * the audit trail read forward gives the `access` topic each new entry of a followed patient's access
 * log that someone other than the patient made, and brings a patient's next poll forward when a write
 * changed their bookings; the grant store's ordered events give the `proxy` topic each change of a
 * grant, for its grantor and its grantee. Entries are kept once each; the subscriptions that follow
 * them are then due at once, and each decides at sending whether it may be told.
 */
import type { AuditFeed, FedRecord } from '../../ports/audit-feed.port.js';
import type { GrantEvent } from '../../ports/proxy-grants.port.js';
import type { FeedEntry, SubscriptionStore } from '../../ports/subscription-store.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { isOperationName, OPERATIONS } from '../operations/table.js';
import { isNotifyOperation } from '../operations/subscription-operations.js';
import { dueNow } from './lifecycle.js';
import { feedOfTopic, type FeedName } from './topics.js';

/** How many records or grant events one page of a source holds at most. */
export const FEED_PAGE = 500;
/**
 * The most pages of the audit trail one turn reads while the trail's position moves, so a busy moment is
 * caught up on rather than left further behind at each turn (hostile review helper-155, F2: one page a
 * turn fell 17,500 records behind after a minute's load).
 */
export const AUDIT_PAGES_PER_TURN = 20;
/**
 * How long one person's (or one app's, where no person acted) repeated refusals of one operation on one
 * patient are told once: the first is news, the next ones within this while are in the access log alone.
 * A refusal is anyone's to cause, so each kept as an event let one caller grow every follower's events
 * without end (helper-155, F1: 50,000 refusals, 20.8 MB; helper-158, F2: a client's token too). What was
 * allowed is told every time.
 */
export const REFUSALS_TOLD_ONCE_MS = 10 * 60_000;
/**
 * Since when the audit trail has not been read to its end (a turn ended with pages waiting, or failed),
 * empty once a turn reads it to its end: kept with the cursors so every instance tells the same lag
 * whichever holds the turn (helper-158, F1), and written only when that changes, so an idle feed writes
 * nothing (helper-159, F2).
 */
const BEHIND_CURSOR = 'audit-feed-behind-since';
const AUDIT_CURSOR = 'audit-feed';
const GRANT_CURSOR = 'grant-feed';

/** The grant store's events, in order (src/ports/proxy-grants.port.ts). */
export interface GrantEvents {
  events(afterSeq: number, limit: number): Promise<GrantEvent[]>;
}

export interface FeedSources {
  audit: AuditFeed;
  /** Absent while sharing is off (PROXY_GRANTS): the `proxy` topic is not offered then. */
  grants?: GrantEvents;
  /** The AuditEvent id the FHIR API gives an access-log entry (docs/fhir-api.md#interactions). */
  auditEventId: (timeMs: number, requestId: string, operation: string) => string;
}

/** Whether a record changed a patient's bookings: an arrival or a payment that went through. */
const changedBookings = (r: FedRecord): boolean => r.outcome === 'allowed' && r.status === 200 && isOperationName(r.operation)
  && (OPERATIONS[r.operation].handler === 'arrival' || OPERATIONS[r.operation].handler === 'payment');

/**
 * Whether an access-log entry is news to the patient: someone else's doing, and not an app being told
 * of a change (telling one app of another's notification would tell again, without end).
 */
const newsOf = (r: FedRecord): boolean => r.actorPersonId !== r.patientId && !isNotifyOperation(r.operation);

export class FollowFeeds {
  /** BEHIND_CURSOR as this instance last read or wrote it, told while the store cannot be read (helper-159, F1). */
  private behindSinceMs: number | undefined;
  /** When each caller's refusal (by patient, caller and operation) was last told, within REFUSALS_TOLD_ONCE_MS of the newest record read. */
  private readonly refusalsTold = new Map<string, number>();
  private newestReadMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly store: SubscriptionStore, private readonly sources: FeedSources, private readonly clock: Clock) {}

  /** One turn, if no other instance holds it: reads what each source added and keeps it. */
  async turn(): Promise<void> {
    await this.store.inTurn('feeds', async () => {
      await this.followAudit();
      if (this.sources.grants !== undefined) await this.followGrants(this.sources.grants);
    });
  }

  /**
   * Seconds the access feed has been behind the audit trail's end, or unable to read it (pdas_subscription_feed_lag_seconds):
   * 0 while it keeps up, growing while it is behind or cannot read the trail, the same on every instance
   * (helper-157, F2, F3; helper-158, F1). While the store cannot be read, from what this instance knew last.
   */
  async lagSeconds(): Promise<number> {
    try {
      this.behindSinceMs = behindSinceOf(await this.store.cursor(BEHIND_CURSOR));
    } catch {
      // Told from memory: the store down is no caught-up feed.
    }
    return this.behindSinceMs === undefined ? 0 : Math.max(0, (this.clock.now() - this.behindSinceMs) / 1000);
  }

  /** Page after page while the trail's position moves, up to AUDIT_PAGES_PER_TURN: a short page is no end, as a page skips records that name nobody. */
  private async followAudit(): Promise<void> {
    this.forgetToldRefusals();
    try {
      for (let pages = 0; pages < AUDIT_PAGES_PER_TURN; pages++) {
        if (!await this.followAuditPage()) return await this.behind(false);
      }
      await this.behind(true);
    } catch (error) {
      this.behindSinceMs ??= this.clock.now();
      await this.behind(true).catch(() => undefined);
      throw error;
    }
  }

  /** Keeps whether the feed is behind the trail's end: the time it fell behind, kept until a turn reads to the end. */
  private async behind(behind: boolean): Promise<void> {
    const kept = behindSinceOf(await this.store.cursor(BEHIND_CURSOR));
    if (behind && kept === undefined) {
      const nowMs = this.behindSinceMs ?? this.clock.now();
      await this.store.setCursor(BEHIND_CURSOR, String(nowMs));
      this.behindSinceMs = nowMs;
    } else if (!behind && kept !== undefined) {
      await this.store.setCursor(BEHIND_CURSOR, '');
      this.behindSinceMs = undefined;
    } else {
      this.behindSinceMs = kept;
    }
  }

  /** Reads and keeps one page of the audit trail; whether the trail's position moved (more may be waiting). */
  private async followAuditPage(): Promise<boolean> {
    const cursor = await this.store.cursor(AUDIT_CURSOR);
    const page = await this.sources.audit.after(cursor, FEED_PAGE);
    const nowMs = this.clock.now();
    for (const patient of new Set(page.records.filter(changedBookings).map((r) => r.patientId))) await this.store.pollSoon(patient, nowMs);
    const news = page.records.filter(newsOf);
    const followed = await this.store.feedFollowers([...new Set(news.map((r) => r.patientId))], 'access');
    // A refusal counts as told only once its page is kept: a page that fails is read again, and told then (helper-157, F1).
    const told = new Map<string, number>();
    const entries = news.filter((r) => followed.has(r.patientId) && this.toldNow(r, told)).map((r): FeedEntry => ({
      feed: 'access', patient: r.patientId, focus: `AuditEvent/${this.sources.auditEventId(r.timeMs, r.requestId, r.operation)}`, atMs: r.timeMs,
      ...(r.actorPersonId === undefined ? {} : { actor: r.actorPersonId }), sourceId: `audit:${r.requestId}:${r.operation}:${r.patientId}`,
    }));
    await this.keep(entries, 'access');
    await this.store.setCursor(AUDIT_CURSOR, page.position);
    for (const [key, at] of told) this.refusalsTold.set(key, at);
    for (const r of page.records) if (r.timeMs > this.newestReadMs) this.newestReadMs = r.timeMs;
    return page.position !== cursor;
  }

  /**
   * Whether `r` is told: anything allowed or failed; a refusal unless its caller's like (the person's, else
   * the app's: one app's never hides another's, helper-157, F4) was told within REFUSALS_TOLD_ONCE_MS, here
   * or earlier in `told` (this page's). A refusal naming neither is told every time.
   */
  private toldNow(r: FedRecord, told: Map<string, number>): boolean {
    const caller = r.actorPersonId ?? (r.clientId === undefined ? undefined : `app ${r.clientId}`);
    if (r.outcome !== 'denied' || caller === undefined) return true;
    const key = `${r.patientId}\n${caller}\n${r.operation}`;
    const last = told.get(key) ?? this.refusalsTold.get(key);
    if (last !== undefined && r.timeMs - last < REFUSALS_TOLD_ONCE_MS) return false;
    told.set(key, r.timeMs);
    return true;
  }

  /** Forgets the refusals told longer before the newest record read than the while (a backlog is judged by its records' times). */
  private forgetToldRefusals(): void {
    const before = this.newestReadMs - REFUSALS_TOLD_ONCE_MS;
    for (const [key, at] of this.refusalsTold) if (at < before) this.refusalsTold.delete(key);
  }

  private async followGrants(grants: GrantEvents): Promise<void> {
    const after = Number(await this.store.cursor(GRANT_CURSOR) ?? '0');
    const events = await grants.events(after, FEED_PAGE);
    if (events.length === 0) return;
    const followed = await this.store.feedFollowers([...new Set(events.flatMap((e) => [e.grantor, e.grantee]))], 'proxy');
    const entries = events.flatMap((e) => [e.grantor, e.grantee].filter((p) => followed.has(p)).map((patient): FeedEntry => {
      const actor = e.by === 'grantor' ? e.grantor : e.by === 'grantee' ? e.grantee : undefined;
      // A grant's every change but its making is a change of its Consent, told as one (helper-126, F1: a revoke was told as a new grant).
      return {
        feed: 'proxy', patient, focus: `Consent/${e.grantId}`, atMs: e.atMs, ...(actor === undefined ? {} : { actor }),
        sourceId: `grant:${e.seq ?? ''}:${e.grantId}:${e.kind}:${patient}`, ...(e.kind === 'granted' ? {} : { change: 'updated' as const }),
      };
    }));
    await this.keep(entries, 'proxy');
    await this.store.setCursor(GRANT_CURSOR, String(events.at(-1)?.seq ?? after));
  }

  /** Keeps the entries, then makes each followed patient's subscriptions of the feed due at once. */
  private async keep(entries: readonly FeedEntry[], feed: FeedName): Promise<void> {
    if (entries.length === 0) return;
    await this.store.appendFeed(entries);
    const nowMs = this.clock.now();
    for (const patient of new Set(entries.map((e) => e.patient))) {
      for (const s of await this.store.liveFor(patient)) {
        if (feedOfTopic(s.topic) === feed) await this.store.update(s.id, (current) => ({ subscription: dueNow(current, nowMs) }));
      }
    }
  }
}

/** The time BEHIND_CURSOR holds; undefined when it holds none (caught up, or never behind). */
const behindSinceOf = (kept: string | undefined): number | undefined => {
  const ms = kept === undefined || kept === '' ? Number.NaN : Number(kept);
  return Number.isFinite(ms) ? ms : undefined;
};
