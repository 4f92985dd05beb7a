import { isUnconfirmedWrite } from '../../domain/ehr-error.js';
import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';
import { WriteStillInProgressError, type WriteCoordinator } from '../../ports/write-coordinator.port.js';
import { waitInLine, type WaitLimits } from '../waiting-line/waiting-line.js';

export interface InProcessCoordinatorOptions {
  /** How long a write waits for its turn before the caller is told to retry (503). */
  waitMs: number;
  /**
   * How long a key's turn stays held after a write whose outcome is unknown (EhrError `unconfirmedWrite`): what
   * a lock across instances would live. Passed at once when absent, where another turn (a Redis lock) holds it.
   */
  inDoubtMs?: number;
}

/** The writes waiting, in order, behind the one of their key being made. */
interface Turns {
  readonly waiting: (() => void)[];
}

/** What a write that waited its longest is told: the same as when another instance holds the key. */
export const stillInProgress = (): WriteStillInProgressError => new WriteStillInProgressError();

/**
 * Identical writes take turns within this process: enough for one instance, the fallback for many.
 * A wait is bounded and dropped when its caller leaves, since a write made for nobody, or long after
 * its caller was told to retry, is a change the caller cannot know about (hostile review helper-127).
 */
export class InProcessCoordinator implements WriteCoordinator {
  /** A key is here while one of its writes is being made; gone once the last has ended, so the map stays small. */
  private readonly keys = new Map<string, Turns>();
  private readonly limits: Required<WaitLimits>;
  private readonly inDoubtMs: number;

  constructor(options: InProcessCoordinatorOptions) {
    if (!(options.waitMs > 0)) throw new RangeError('the longest wait must be positive');
    this.limits = { maxWaitMs: options.waitMs, tooLong: stillInProgress };
    this.inDoubtMs = options.inDoubtMs ?? 0;
  }

  async exclusive<T>(key: string, abandoned: AbortSignal, write: () => Promise<T>): Promise<T> {
    if (abandoned.aborted) throw new AnswerAbandonedError();
    const turns = this.keys.get(key);
    if (turns === undefined) this.keys.set(key, { waiting: [] });
    // The write being made hands its turn straight to the next (`pass`): a waiter that leaves the line changes nothing else.
    else await waitInLine(turns.waiting, (go) => go, abandoned, this.limits);
    let inDoubt = false;
    try {
      // Given the turn in the same moment its caller left: still dropped, never begun.
      if (abandoned.aborted) throw new AnswerAbandonedError();
      return await write();
    } catch (err) {
      // A repeat in the meantime would ask the EHR beside a write that may still be made (hostile review helper-134, F3).
      inDoubt = this.inDoubtMs > 0 && isUnconfirmedWrite(err);
      throw err;
    } finally {
      if (inDoubt) setTimeout(() => this.pass(key), this.inDoubtMs).unref();
      else this.pass(key);
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
