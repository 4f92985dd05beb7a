import { EhrError } from '../../domain/ehr-error.js';
import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';
import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';
import { waitInLine, type WaitLimits } from '../waiting-line/waiting-line.js';

export interface InProcessCoordinatorOptions {
  /** How long a write waits for its turn before the caller is told to retry (503). */
  waitMs: number;
}

/** The writes waiting, in order, behind the one of their key being made. */
interface Turns {
  readonly waiting: (() => void)[];
}

/** What a write that waited its longest is told: the same as when another instance holds the key. */
export const stillInProgress = (): EhrError => new EhrError('unavailable', 'an identical write is still in progress', 1);

/**
 * Identical writes take turns within this process: enough for one instance, the fallback for many.
 * A wait is bounded and dropped when its caller leaves, since a write made for nobody, or long after
 * its caller was told to retry, is a change the caller cannot know about (hostile review helper-127).
 */
export class InProcessCoordinator implements WriteCoordinator {
  /** A key is here while one of its writes is being made; gone once the last has ended, so the map stays small. */
  private readonly keys = new Map<string, Turns>();
  private readonly limits: Required<WaitLimits>;

  constructor(options: InProcessCoordinatorOptions) {
    if (!(options.waitMs > 0)) throw new RangeError('the longest wait must be positive');
    this.limits = { maxWaitMs: options.waitMs, tooLong: stillInProgress };
  }

  async exclusive<T>(key: string, abandoned: AbortSignal, write: () => Promise<T>): Promise<T> {
    if (abandoned.aborted) throw new AnswerAbandonedError();
    const turns = this.keys.get(key);
    if (turns === undefined) this.keys.set(key, { waiting: [] });
    // The write being made hands its turn straight to the next (`pass`): a waiter that leaves the line changes nothing else.
    else await waitInLine(turns.waiting, (go) => go, abandoned, this.limits);
    try {
      // Given the turn in the same moment its caller left: still dropped, never begun.
      if (abandoned.aborted) throw new AnswerAbandonedError();
      return await write();
    } finally {
      this.pass(key);
    }
  }

  /** Keys with a write being made now (for tests: a key whose writes have all ended leaves nothing behind). */
  get pending(): number {
    return this.keys.size;
  }

  private pass(key: string): void {
    const turns = this.keys.get(key);
    const next = turns?.waiting.shift();
    if (next !== undefined) next();
    else this.keys.delete(key);
  }
}
