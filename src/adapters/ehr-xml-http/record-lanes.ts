import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';
import { waitInLine, withDefaults, type WaitLimits } from '../waiting-line/waiting-line.js';

/**
 * At most a few answers of one record (one read of one patient) are made at once; the rest wait in
 * order of arrival, before anything is fetched for them (issue 20 item 6). Fifty callers reading the
 * same 1 MB journal at once otherwise fetched fifty documents that then waited, bytes in hand, for
 * the budget of documents-in-flight.ts: 40-50 MB held for answers the event loop could only make one
 * after another anyway. A wait here holds nothing but the request, and it is per record, so one
 * patient's many reads never make another patient's read wait. A caller that leaves while its
 * answer waits is dropped without asking the EHR, and one that has waited `maxWaitMs` (the EHR's
 * deadline) is told so as if it had asked itself: it learns no later than the call it waited behind.
 */

/** Two: the next answer's document is fetched while one is mapped; more would only wait in memory. */
export const ANSWERS_PER_RECORD = 2;

interface Lane {
  running: number;
  readonly waiting: (() => void)[];
}

/** A record: one read of one patient. Its answers take turns here, and fetch-room.ts remembers its size. */
export const recordOf = (read: string, patientId: string): string => `${read} ${patientId}`;

export class RecordLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly limits: Required<WaitLimits>;

  constructor(private readonly width = ANSWERS_PER_RECORD, limits: WaitLimits = {}) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError('the width must be a positive integer');
    this.limits = withDefaults(limits, 'its turn');
    if (!(this.limits.maxWaitMs > 0)) throw new RangeError('the longest wait must be positive');
  }

  /**
   * `work`'s result, begun once fewer than `width` answers of `record` are being made; `work` is told
   * when it began to wait (performance.now()), or undefined when it had its turn at once.
   */
  async through<T>(record: string, abandoned: AbortSignal, work: (waitingSince: number | undefined) => Promise<T>): Promise<T> {
    if (abandoned.aborted) throw new AnswerAbandonedError();
    let lane = this.lanes.get(record);
    if (lane === undefined) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(record, lane);
    }
    let waitingSince: number | undefined;
    if (lane.running < this.width) {
      lane.running++;
    } else {
      waitingSince = performance.now();
      await this.waitIn(lane, abandoned);
    }
    try {
      return await work(waitingSince);
    } finally {
      this.leave(record, lane);
    }
  }

  /** Records with answers being made or waiting now (for tests: an idle record leaves nothing behind). */
  get records(): number {
    return this.lanes.size;
  }

  /** Answers waiting for their turn now (for tests). */
  get waiting(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.waiting.length;
    return n;
  }

  /** The place passes to the next in line, or is given up. */
  private leave(record: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next !== undefined) {
      next();
      return;
    }
    lane.running--;
    if (lane.running === 0) this.lanes.delete(record);
  }

  /** Resolves when a place is passed on to this waiter; rejects, out of line, when its caller leaves or it waited too long. */
  private waitIn(lane: Lane, abandoned: AbortSignal): Promise<void> {
    return waitInLine(lane.waiting, (go) => go, abandoned, this.limits);
  }
}
