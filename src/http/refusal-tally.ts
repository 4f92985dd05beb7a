import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditTrail, OutcomeRecord } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import { requestIdOf } from './request-id.js';

const messageOf = (t: Tally): string => {
  if (t.verified === true) return OVER_LIMIT;
  return t.subscription === undefined ? KEYLESS : KEYED;
};

/** One window of the tally: the first refusal of each kind in it is audited, the rest counted. */
export const REFUSAL_WINDOW_MS = 60_000;
/** Kinds tracked per window; refusals of further kinds are counted per status, and audited as that count. */
const MAX_KINDS = 10_000;
/** The operation of the record that counts a window's refusals of kinds past MAX_KINDS. */
export const UNAUDITED_REFUSALS = 'refusalsNotAudited';

const KEYLESS = 'requests without a valid subscription key or token refused';
const KEYED = 'requests with a valid subscription key and no valid token refused';
const OVER_LIMIT = 'requests over the rate limit refused';

interface Tally {
  sourceAddress: string;
  subscription?: string;
  clientId?: string;
  /** A verified caller's refusal (the rate limit's); the person is not logged, their record is in the trail, found by firstRequestId. */
  verified?: true;
  operation: string;
  status: number;
  firstRequestId: string;
  refused: number;
}

/**
 * Refusals before authentication (src/http/audit-record.ts `refusedBeforeAuthentication`: no valid
 * key, or a valid key without a valid token) are audited one per source address (an IPv6 /64),
 * subscription key, operation and status per minute: the first is stored as usual, the
 * others are counted and logged with their number when the minute is over, so a flood of them
 * cannot grow the audit store at the sender's rate (issue 12 item 4 and issue 20 item 4, threats
 * 38 and 45 of docs/threat-model.md#found-by-independent-review). Past MAX_KINDS kinds a minute a
 * refusal is only counted, per status (at most one count per 4xx status, whatever the flood); when
 * the minute is over each count is audited as one record of its own kind, `refusalsNotAudited` with
 * `unaudited` (docs/operations.md#the-audit-store), so the trail shows they happened. Refusals by
 * the rate limit (429) are tallied the same way, per source, key, app, person, operation and status
 * (issue 44 item 4): a caller's flood leaves one record a minute, not one per request.
 */
export class RefusalTally {
  private window = Number.NaN;
  private readonly tallies = new Map<string, Tally>();
  /** Refusals of kinds past MAX_KINDS this window, by status. */
  private readonly overflow = new Map<number, number>();
  /** Counts being stored; close() waits for them before the trail is closed. */
  private readonly pending = new Set<Promise<void>>();
  // A window that ends with no refusal after it is reported all the same.
  private readonly timer = setInterval(() => this.rollOver(), REFUSAL_WINDOW_MS).unref();

  constructor(private readonly trail: AuditTrail, private readonly clock: Clock, private readonly logger: FastifyBaseLogger) {}

  /** Stores the record if it is the first of its kind this window, else counts it. */
  append(record: OutcomeRecord): Promise<void> {
    this.rollOver();
    // A source as the per-address limit counts it: an IPv6 address stands for its /64.
    // A refusal of a verified caller (the rate limit's) is tallied per person too, so each one's first of a minute is audited.
    const kind = JSON.stringify([normalizeIP(record.sourceAddress), record.subscription, record.clientId, record.actor?.issuer, record.actor?.subject, record.operation, record.status]);
    const tally = this.tallies.get(kind);
    if (tally !== undefined) {
      tally.refused += 1;
      return Promise.resolve();
    }
    if (this.tallies.size >= MAX_KINDS) {
      this.overflow.set(record.status, (this.overflow.get(record.status) ?? 0) + 1);
      return Promise.resolve();
    }
    this.tallies.set(kind, {
      sourceAddress: record.sourceAddress, ...(record.subscription === undefined ? {} : { subscription: record.subscription }),
      ...(record.clientId === undefined ? {} : { clientId: record.clientId }), ...(record.actor === undefined ? {} : { verified: true as const }),
      operation: record.operation, status: record.status, firstRequestId: record.requestId, refused: 1,
    });
    // Not stored: the next refusal of this kind is audited instead.
    return this.trail.append(record).catch((err: unknown) => {
      this.tallies.delete(kind);
      throw err;
    });
  }

  /** Reports the window in progress and waits for its counts to be stored; the trail itself is closed by whoever opened it. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.report();
    await Promise.all(this.pending);
  }

  private rollOver(): void {
    const window = Math.floor(this.clock.now() / REFUSAL_WINDOW_MS);
    if (window === this.window) return;
    this.report();
    this.window = window;
  }

  private report(): void {
    for (const t of this.tallies.values()) {
      if (t.refused > 1) this.logger.warn({ ...t, audited: 1, windowMs: REFUSAL_WINDOW_MS }, messageOf(t));
    }
    // At the window's end (or at close, if sooner): the instant the count covers up to.
    const until = Math.min((this.window + 1) * REFUSAL_WINDOW_MS, this.clock.now());
    for (const [status, unaudited] of this.overflow) {
      this.logger.warn({ refused: unaudited, audited: 0, status, windowMs: REFUSAL_WINDOW_MS }, 'requests refused before authentication, of more kinds than are tallied');
      this.storeCount(new Date(until).toISOString(), status, unaudited);
    }
    this.tallies.clear();
    this.overflow.clear();
  }

  /** Appended at once, so the count precedes the next window's records in the trail. */
  private storeCount(time: string, status: number, unaudited: number): void {
    const id = requestIdOf();
    const record: OutcomeRecord = {
      time, requestId: id, serviceRequestId: id, operation: UNAUDITED_REFUSALS, sourceAddress: '', outcome: 'denied', status, unaudited,
    };
    const stored = this.trail.append(record).catch((err: unknown) => {
      this.logger.error({ err, status, unaudited, windowMs: REFUSAL_WINDOW_MS }, 'the count of refusals not audited could not be stored');
    }).finally(() => this.pending.delete(stored));
    this.pending.add(stored);
  }
}
