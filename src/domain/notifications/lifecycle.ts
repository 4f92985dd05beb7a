/**
 * How a subscription's state moves (docs/notifications.md#delivery): pure functions from one state and
 * a fact (a handshake answered, a delivery taken or failed, events numbered, an end) to the next, each
 * with the time the service next has work for it (`dueMs`), which the store orders its work by.
 */
import { isLive, type EndingClaim, type EndReason, type NewEvent, type StoredSubscription, type SubscriptionEvent } from './subscription.js';

/** The first retry waits this long; each failure doubles it, up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 5_000;
export const MAX_BACKOFF_MS = 5 * 60_000;

/** The wait after the `failures`-th failure in a row. */
export const backoffMs = (failures: number): number => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, Math.min(failures - 1, 16)));

/** Whether events are numbered that its endpoint has not taken yet. */
export const hasUndelivered = (s: StoredSubscription): boolean => s.eventCount > s.deliveredThrough;

/**
 * What a notification's audit record may take, counted into the lease before it is written: more than
 * the PostgreSQL trail waits (2.5 s) before it gives up. A slower one is caught by asking the lease again.
 */
export const AUDIT_ALLOWANCE_MS = 3000;
/**
 * A subscription that could not be served (the EHR or the store did not answer its check) is served again
 * this long after, not at every turn: outside the poll's budget, one document the EHR cannot give read
 * every second (hostile review helper-110, F1). It ends nothing: the work is tried again.
 */
export const UNSERVED_RETRY_MS = 30_000;

/**
 * When the service next has work for `s` as it is: its handshake, its undelivered events (or their
 * retry), a heartbeat, its end. An end begun and not finished comes before all of them, when it may be
 * taken up (endingDueMs): until then the end is another caller's to write (notification-deps.ts,
 * endSubscription), and after it, it is the next thing to do whatever else there is (helper-119).
 */
export function dueOf(s: StoredSubscription, nowMs: number): number | undefined {
  return s.ending === undefined || !isLive(s) ? workDue(s, nowMs) : endingDueMs(s.ending);
}

/** When a turn may take up an end begun and not finished: as its claim lapses, or at its retry. */
export const endingDueMs = (e: EndingClaim): number => Math.max(e.untilMs, e.retryAtMs ?? 0);

/** Whether its claimer still holds `e` at `nowMs`, so that it alone may write the end. */
export const claimHeld = (e: EndingClaim, nowMs: number): boolean => e.retryAtMs === undefined && e.untilMs > nowMs;

function workDue(s: StoredSubscription, nowMs: number): number | undefined {
  if (s.status === 'off' || s.status === 'error') return undefined;
  if (s.status === 'requested') return s.nextAttemptMs ?? nowMs;
  const times: number[] = [];
  if (s.endMs !== undefined) times.push(s.endMs);
  if (hasUndelivered(s)) {
    // Events its end leaves no time to record and send wait for nothing but the end (no turn is leased for them),
    // and while events wait no heartbeat goes (helper-118, F1).
    if (s.endMs === undefined || s.endMs - AUDIT_ALLOWANCE_MS > nowMs) times.push(s.nextAttemptMs ?? nowMs);
  } else if (s.channel.heartbeatSeconds !== undefined) times.push(heartbeatDueMs(s, s.channel.heartbeatSeconds));
  return times.length === 0 ? undefined : Math.min(...times);
}

/**
 * When its next heartbeat is due: `heartbeatSeconds` after the last notification, and after a failed
 * one not before its backoff ends (hostile review helper-109, F1: a failing heartbeat went again at once).
 */
export const heartbeatDueMs = (s: StoredSubscription, heartbeatSeconds: number): number =>
  Math.max((s.lastSentMs ?? s.createdMs) + heartbeatSeconds * 1000, s.nextAttemptMs ?? 0);

/** `s` with `dueMs` set from what it now is. */
export const due = (s: StoredSubscription, nowMs: number): StoredSubscription => {
  const { dueMs: _old, ...rest } = s;
  const next = dueOf(rest, nowMs);
  return next === undefined ? rest : { ...rest, dueMs: next };
};

/** The new events numbered after the ones it has, in order, and the state counting them. */
export function numbered(s: StoredSubscription, events: readonly NewEvent[], nowMs: number): { subscription: StoredSubscription; events: SubscriptionEvent[] } {
  const out = events.map((e, i) => ({ ...e, subscriptionId: s.id, number: s.eventCount + i + 1 }));
  return { subscription: due({ ...s, eventCount: s.eventCount + out.length, changedMs: nowMs }, nowMs), events: out };
}

/** Its endpoint took a notification: events through `through` are delivered, and failures are forgotten. */
export function delivered(s: StoredSubscription, through: number, nowMs: number): StoredSubscription {
  const { failingSinceMs: _f, nextAttemptMs: _n, ...rest } = s;
  const status = s.status === 'requested' ? 'active' : s.status;
  return due({ ...rest, status, deliveredThrough: Math.max(s.deliveredThrough, through), lastSentMs: nowMs, failures: 0, changedMs: nowMs }, nowMs);
}

/**
 * Its endpoint did not take a notification. A handshake that fails makes it `error` at once (the
 * endpoint never agreed to receive); any other failure is retried with backoff until `retryMs` has
 * passed since the first failure in a row, then it is `error`. The last attempt falls at that time, not a
 * whole backoff after it (hostile review helper-126, F2). With `mayEnd` false (one whose end must be
 * recorded first), a streak past its time is tried again at once instead, and that attempt ends it.
 */
export function failed(s: StoredSubscription, nowMs: number, retryMs: number, mayEnd = true): StoredSubscription {
  if (s.status === 'requested') return ended(s, 'handshake-failed', nowMs);
  const since = s.failingSinceMs ?? nowMs;
  const failures = s.failures + 1;
  if (mayEnd && nowMs - since >= retryMs) return ended(s, 'delivery-failed', nowMs);
  const nextAttemptMs = Math.max(nowMs, Math.min(nowMs + backoffMs(failures), since + retryMs));
  return due({ ...s, failingSinceMs: since, failures, nextAttemptMs, changedMs: nowMs }, nowMs);
}

/** It stops: `error` when its endpoint failed it, `off` for every other reason. */
export function ended(s: StoredSubscription, reason: EndReason, nowMs: number): StoredSubscription {
  const { dueMs: _d, nextAttemptMs: _n, ending: _e, ...rest } = s;
  const status = reason === 'handshake-failed' || reason === 'delivery-failed' ? 'error' : 'off';
  return { ...rest, status, endReason: reason, changedMs: nowMs };
}

/**
 * Events through `through` go untold, their records withheld now (seen-records.ts stillTold): passed
 * over as if taken, with nothing sent, so its last notification stays as it was; its failures too while
 * events are left to retry.
 */
export function passedOver(s: StoredSubscription, through: number, nowMs: number): StoredSubscription {
  const next = { ...s, deliveredThrough: Math.max(s.deliveredThrough, through), changedMs: nowMs };
  if (hasUndelivered(next)) return due(next, nowMs);
  // Nothing left to retry: a failure streak ends here, or one failure long after would end the subscription
  // at once as past the retry time (hostile review helper-109, F2).
  const { failingSinceMs: _f, nextAttemptMs: _n, ...rest } = next;
  return due({ ...rest, failures: 0 }, nowMs);
}

/** A heartbeat went: the next is counted from now. */
export const heartbeatSent = (s: StoredSubscription, nowMs: number): StoredSubscription => delivered(s, s.deliveredThrough, nowMs);

/**
 * Something new to do now (a feed's entry arrived): due at once unless it already is, or its next
 * attempt is later (a backoff, or a pause after the EHR could not answer its check), but never after
 * its end; and with an end begun and not finished, when that may be taken up, its end passed or not.
 */
export const dueNow = (s: StoredSubscription, nowMs: number): StoredSubscription => {
  if (!isLive(s)) return s;
  if (s.ending !== undefined) return { ...s, dueMs: endingDueMs(s.ending) };
  return { ...s, dueMs: Math.min(Math.max(Math.min(s.dueMs ?? nowMs, nowMs), s.nextAttemptMs ?? 0), s.endMs ?? Number.POSITIVE_INFINITY) };
};

/**
 * `s` with its end no longer held, to be tried again at `retryAtMs` (its record or its end could not be written):
 * any caller may try it from now, a turn from then.
 */
export const endToRetry = (s: StoredSubscription, nowMs: number, retryAtMs: number): StoredSubscription =>
  s.ending === undefined ? s : due({ ...s, ending: { ...s.ending, untilMs: Math.min(s.ending.untilMs, nowMs), retryAtMs } }, nowMs);
