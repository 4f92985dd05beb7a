import type { ChainPoint } from '../audit-query/chain-check.js';
import type { ChainKey } from './chain-keys.js';
import { signHead, type SignedHead } from './signed-head.js';

/** A trail that can say which record it stored last (the file's line count, the row id PostgreSQL drew). */
export interface ChainHeadSource {
  /** The newest record this trail stored, or id 0 and the chain's start when it holds none. */
  head(): Promise<ChainPoint>;
}

export interface HeadSignerOptions {
  source: ChainHeadSource;
  key: ChainKey;
  /** `file` or `postgresql:<schema>` (signed-head.ts). */
  store: string;
  /** AUDIT_HEAD_INTERVAL_MS. */
  intervalMs: number;
  now: () => Date;
  /** Writes the head where the region's log platform collects it: the service's log. */
  onHead: (head: SignedHead) => void;
  /** A head that could not be made (the store away); the next interval tries again. */
  onFailure: (err: unknown) => void;
}

/**
 * Signs the trail's head at start, every `intervalMs` after, and once more when the service stops
 * (after the last records are stored), so that the log holds a head at most one interval old and
 * one for the end of each run. Heads are never made concurrently and never after close.
 */
export class HeadSigner {
  private timer: NodeJS.Timeout | undefined;
  private signing: Promise<SignedHead | undefined> = Promise.resolve(undefined);
  private closed = false;

  constructor(private readonly options: HeadSignerOptions) {}

  start(): void {
    void this.signNow();
    this.timer = setInterval(() => void this.signNow(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Signs and hands on the head now (after a head being made, if one is); undefined when it could not be made. */
  signNow(): Promise<SignedHead | undefined> {
    this.signing = this.signing.then(() => this.sign());
    return this.signing;
  }

  /** Stops the interval and signs a last head; the trail must still be open. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.closed) return;
    await this.signNow();
    this.closed = true;
  }

  private async sign(): Promise<SignedHead | undefined> {
    if (this.closed) return undefined;
    const { source, key, store, now, onHead, onFailure } = this.options;
    try {
      const point = await source.head();
      const head = signHead(key, { store, id: point.id, hash: point.hash, ...(point.time === undefined ? {} : { time: point.time }), at: now().toISOString() });
      onHead(head);
      return head;
    } catch (err) {
      onFailure(err);
      return undefined;
    }
  }
}
