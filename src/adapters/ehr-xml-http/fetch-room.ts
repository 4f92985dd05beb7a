import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';
import { recordOf } from './record-lanes.js';
import { waitInLine, withDefaults, type WaitLimits } from '../waiting-line/waiting-line.js';

/**
 * Room for the large documents asked of the EHR, or fetched and waiting to be mapped (issue 20
 * item 6). The mapping budget (documents-in-flight.ts) lets one 1 MB document be mapped at a time;
 * fifty patients reading their 1 MB journals at once had their fifty documents fetched at once, and
 * each waited for that budget with its megabyte in hand: 268 MB where fifty readers of one journal
 * took 229 (BENCHMARKS.md, issue 20 item 6, tenth round). Here a read takes room for the bytes its
 * document is expected to have *before* the EHR is asked, and waits, holding nothing but its request,
 * while the room is full. Its place leaves the room once its document is let into the mapping budget.
 *
 * What a document is expected to have (ExpectedSizes): the size of the same record's last answer, or
 * else the last answer's of the same read for anyone, or else FIRST_GUESS_BYTES. Expected small, a read
 * never waits (as small documents never wait for the mapping budget): other patients' small reads are
 * not held behind large ones. A document larger than expected keeps room for what it really has.
 */

/** Bytes of large documents asked for or waiting to be mapped, by default: eight 1 MB journals. */
export const FETCH_ROOM_BYTES = 8 * 1024 * 1024;
/** What a document of a read nobody has had an answer of yet is taken to be: a large one, until one comes. */
export const FIRST_GUESS_BYTES = 1024 * 1024;
/** Records whose last size is remembered (read and patient id, in memory only): the one noted longest ago is forgotten first. */
export const REMEMBERED_RECORDS = 1000;

/** A read's room, held from before the EHR is asked until its document is mapped or the read ends. */
export interface Place {
  /** Holds room for what the document really has (none when it is small). */
  fetched(bytes: number): void;
  /** Gives the room back (again: nothing). */
  leave(): void;
}

/** The sizes documents are expected to have: from the record's last answer, or the read's. */
export class ExpectedSizes {
  private readonly records = new Map<string, number>();
  private readonly reads = new Map<string, number>();

  constructor(private readonly remembered = REMEMBERED_RECORDS) {}

  of(read: string, patientId: string): number {
    return this.records.get(recordOf(read, patientId)) ?? this.reads.get(read) ?? FIRST_GUESS_BYTES;
  }

  note(read: string, patientId: string, bytes: number): void {
    const record = recordOf(read, patientId);
    this.reads.set(read, bytes);
    // Small records too: a patient with a short journal never waits behind other patients' long ones.
    this.records.delete(record);
    this.records.set(record, bytes);
    if (this.records.size > this.remembered) this.records.delete(this.records.keys().next().value as string);
  }
}

interface Waiter {
  readonly bytes: number;
  readonly go: () => void;
}

export class FetchRoom {
  private held = 0;
  private readonly waiting: Waiter[] = [];
  private readonly limits: Required<WaitLimits>;

  constructor(
    private readonly small: number,
    private readonly limit = FETCH_ROOM_BYTES,
    limits: WaitLimits = {},
  ) {
    if (!(limit > 0)) throw new RangeError('the room must be positive');
    this.limits = withDefaults(limits, 'room');
  }

  /** Bytes held now (for tests). */
  get bytesHeld(): number {
    return this.held;
  }

  /** Reads waiting for room now (for tests). */
  get readsWaiting(): number {
    return this.waiting.length;
  }

  /**
   * A place for `expected` bytes: at once when they are small, or fit beside what is held and nobody
   * waits, or the room is empty (a document larger than the room goes alone); otherwise in order of
   * arrival. `waitedMs` is what the read already waited elsewhere: its wait here ends with the deadline.
   * `mayWait` false: room at once, whatever is held (for an answer that holds mapping budget the
   * documents in the room may be waiting for: waiting for them would wait for itself).
   */
  async take(expected: number, abandoned: AbortSignal, waitedMs = 0, mayWait = true): Promise<{ place: Place; waitedSince?: number }> {
    if (abandoned.aborted) throw new AnswerAbandonedError();
    if (expected <= this.small) return { place: this.placeOf(0) };
    if (!mayWait || (this.waiting.length === 0 && (this.held === 0 || this.held + expected <= this.limit))) {
      this.held += expected;
      return { place: this.placeOf(expected) };
    }
    const waitedSince = performance.now();
    await this.waitFor(expected, abandoned, this.limits.maxWaitMs - waitedMs);
    return { place: this.placeOf(expected), waitedSince };
  }

  private placeOf(taken: number): Place {
    let holding = taken;
    return {
      fetched: (bytes) => {
        const now = bytes <= this.small ? 0 : bytes;
        const shrank = now < holding;
        this.held += now - holding;
        holding = now;
        if (shrank) this.admit();
      },
      leave: () => {
        if (holding === 0) return;
        this.held -= holding;
        holding = 0;
        this.admit();
      },
    };
  }

  private admit(): void {
    for (let next = this.waiting[0]; next !== undefined && (this.held === 0 || this.held + next.bytes <= this.limit); next = this.waiting[0]) {
      this.waiting.shift();
      this.held += next.bytes;
      next.go();
    }
  }

  /** Resolves once room is given to this waiter (its bytes already counted); rejects, out of line, when its caller leaves or the deadline passes. */
  private waitFor(bytes: number, abandoned: AbortSignal, maxWaitMs: number): Promise<void> {
    const { tooLong } = this.limits;
    if (!(maxWaitMs > 0)) return Promise.reject(tooLong());
    // A large waiter leaving the head of the line may let smaller ones behind it in.
    return waitInLine(this.waiting, (go) => ({ bytes, go }), abandoned, { maxWaitMs, tooLong }, () => this.admit());
  }
}
