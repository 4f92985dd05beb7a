import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRecord, AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';

/** One window of the tally: the first refusal of each kind in it is audited, the rest counted. */
export const KEYLESS_WINDOW_MS = 60_000;
/** Kinds tracked per window; refusals of further kinds are counted together and not audited. */
const MAX_KINDS = 10_000;

interface Tally {
  sourceAddress: string;
  operation: string;
  status: number;
  firstRequestId: string;
  refused: number;
}

/** Refused before a valid subscription key was identified: no key, a wrong one, the per-address limit. */
function isKeylessRefusal(record: AuditRecord): boolean {
  return record.subscription === undefined && record.status !== undefined && record.status >= 400 && record.status < 500;
}

/**
 * The audit trail as the HTTP layer writes it. Requests refused before a valid subscription key was
 * identified read nothing, and are audited one per source address (an IPv6 /64), operation and
 * status per minute: the first is stored as usual, the others are counted and logged with their
 * number when the minute is over, so a flood of them cannot grow the audit store without bound
 * (issue 12 item 4, THREATS #38). Every other record goes to the trail unchanged.
 */
export class KeylessRefusalTally implements AuditTrail {
  private window = Number.NaN;
  private readonly tallies = new Map<string, Tally>();
  private overflow = 0;
  // A window that ends with no refusal after it is reported all the same.
  private readonly timer = setInterval(() => this.rollOver(), KEYLESS_WINDOW_MS).unref();

  constructor(private readonly trail: AuditTrail, private readonly clock: Clock, private readonly logger: FastifyBaseLogger) {}

  append(record: AuditRecord): Promise<void> {
    if (!isKeylessRefusal(record)) return this.trail.append(record);
    this.rollOver();
    // A source as the per-address limit counts it: an IPv6 address stands for its /64.
    const kind = `${normalizeIP(record.sourceAddress)} ${record.operation} ${String(record.status)}`;
    const tally = this.tallies.get(kind);
    if (tally !== undefined) {
      tally.refused += 1;
      return Promise.resolve();
    }
    if (this.tallies.size >= MAX_KINDS) {
      this.overflow += 1;
      return Promise.resolve();
    }
    this.tallies.set(kind, { sourceAddress: record.sourceAddress, operation: record.operation, status: record.status ?? 0, firstRequestId: record.requestId, refused: 1 });
    // Not stored: the next refusal of this kind is audited instead.
    return this.trail.append(record).catch((err: unknown) => {
      this.tallies.delete(kind);
      throw err;
    });
  }

  ping(): Promise<boolean> {
    return this.trail.ping();
  }

  /** Reports the window in progress; the trail itself is closed by whoever opened it. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.report();
  }

  private rollOver(): void {
    const window = Math.floor(this.clock.now() / KEYLESS_WINDOW_MS);
    if (window === this.window) return;
    this.report();
    this.window = window;
  }

  private report(): void {
    for (const t of this.tallies.values()) {
      if (t.refused > 1) this.logger.warn({ ...t, audited: 1, windowMs: KEYLESS_WINDOW_MS }, 'requests without a valid subscription key refused');
    }
    if (this.overflow > 0) {
      this.logger.warn({ refused: this.overflow, audited: 0, windowMs: KEYLESS_WINDOW_MS }, 'requests without a valid subscription key refused, of more kinds than are tallied');
    }
    this.tallies.clear();
    this.overflow = 0;
  }
}
