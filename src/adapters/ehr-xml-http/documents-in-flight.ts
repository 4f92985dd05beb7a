import { AsyncLocalStorage } from 'node:async_hooks';
import { AnswerMemoryFullError, type AnswerMemory, type AnswerSubject } from '../../ports/answer-memory.port.js';
import { ExpectedSizes, FetchRoom, type Place } from './fetch-room.js';
import { ANSWERS_PER_RECORD, recordOf, RecordLanes } from './record-lanes.js';

/**
 * How many bytes of large upstream documents have record trees in memory at once (issue 20 item 6).
 * A 1 MB journal becomes a tree of about 3 MB; with fifty of them read at once the trees, beside the
 * documents and their JSON, took the process to 312 MB. Large documents wait here, first come first
 * served, until the bytes in memory leave room for theirs; the wait holds only the document's bytes.
 * Small documents never wait: their trees are small, and they must not queue behind large ones. A
 * document larger than the whole budget is mapped alone.
 *
 * Inside `answering` (the HTTP layer's read and serialising of one answer) a document's bytes stay
 * counted until the answer ends, since its tree lives until then; and a second large document of an
 * answer that already holds bytes is let in at once, or an answer could wait for its own bytes.
 * Outside it (a caller without an answer to write) they are given back once the tree is built.
 *
 * A document waits with its bytes already fetched, so the wait is bounded too: past
 * `waitingLimit` bytes waiting, a further large document is refused (AnswerMemoryFullError, a 503
 * with Retry-After) instead of held, or two hundred readers of a 1 MB journal would hold two hundred
 * megabytes of documents while they queue. Before any of that, answers of the same record take
 * turns (record-lanes.ts), so many reads of one journal wait without fetching it, and reads of
 * different records take room for the bytes they are expected to fetch (fetch-room.ts), so many
 * patients' large journals wait without being fetched too.
 */

/** Documents of this many bytes or fewer are never held back. */
export const SMALL_DOCUMENT_BYTES = 256 * 1024;
/**
 * Bytes of large documents whose trees are in memory at once, by default: one 1 MB journal. On one
 * event loop, mapping two at once is no faster than one after the other, and holds twice the trees
 * (BENCHMARKS.md, issue 20 item 6: 8 MiB and 2 MiB left more memory in use than 1 MiB).
 */
export const DOCUMENT_BYTES_IN_FLIGHT = 1024 * 1024;
/** Bytes of large documents waiting for the budget, by default, past which the next is refused. */
export const DOCUMENT_BYTES_WAITING = 64 * 1024 * 1024;

/** The bytes one answer holds, when it began to wait for its turn or room (performance.now()), if it had to, and whether its caller left. */
interface Answer {
  held: number;
  waitingSince: number | undefined;
  readonly abandoned: AbortSignal;
}

/** A caller outside `answering`, who never goes away. */
const STAYING = new AbortController().signal;

/**
 * Whether the answer holds mapping budget: then it never waits, for the budget or for room, since
 * what it would wait behind may be waiting for that very budget.
 */
const holdsBudget = (answer: Answer | undefined): boolean => (answer?.held ?? 0) > 0;

/** What an EHR adapter's budget is made of: its calls' deadline, and the budget's and the room's sizes (their defaults when absent). */
export interface AnswerMemorySettings {
  /** EHR_TIMEOUT_MS: a turn or room waited for longer than a call may take fails as `tooLong`. */
  timeoutMs: number;
  tooLong: () => Error;
  documentBytesInFlight?: number | undefined;
  fetchRoomBytes?: number | undefined;
}

/** The budget of an EHR adapter whose large answers hold memory until they are written (xml-http, fhir-r4). */
export function answerMemoryOf(settings: AnswerMemorySettings): DocumentsInFlight {
  const waits = { maxWaitMs: settings.timeoutMs, tooLong: settings.tooLong };
  const lanes = new RecordLanes(ANSWERS_PER_RECORD, waits);
  const room = new FetchRoom(SMALL_DOCUMENT_BYTES, settings.fetchRoomBytes, waits);
  return new DocumentsInFlight(settings.documentBytesInFlight, { lanes, room });
}

export class DocumentsInFlight implements AnswerMemory {
  private inUse = 0;
  private waitingBytes = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];
  private readonly answers = new AsyncLocalStorage<Answer>();

  private readonly waitingLimit: number;
  /** Where answers of the same record take their turns. */
  private readonly lanes: RecordLanes;
  /** Where reads wait for room before the EHR is asked for their documents. */
  readonly room: FetchRoom;
  private readonly sizes = new ExpectedSizes();

  constructor(private readonly limit = DOCUMENT_BYTES_IN_FLIGHT, more: { waitingLimit?: number; lanes?: RecordLanes; room?: FetchRoom } = {}) {
    this.waitingLimit = more.waitingLimit ?? DOCUMENT_BYTES_WAITING;
    this.lanes = more.lanes ?? new RecordLanes();
    this.room = more.room ?? new FetchRoom(SMALL_DOCUMENT_BYTES);
    if (!(limit > 0) || !(this.waitingLimit > 0)) throw new RangeError('the budget must be positive');
  }

  answering<T>(subject: AnswerSubject, abandoned: AbortSignal, answer: () => Promise<T>): Promise<T> {
    return this.lanes.through(recordOf(subject.read, subject.patientId), abandoned, async (waitingSince) => {
      const own: Answer = { held: 0, waitingSince, abandoned };
      try {
        return await this.answers.run(own, answer);
      } finally {
        this.giveBack(own.held);
      }
    });
  }

  /**
   * How long ago the answer being made now began to wait for its turn or for room, in ms; undefined
   * when it waited for neither (or outside `answering`). Its EHR calls get what is left of one
   * deadline, so waiting never adds a deadline of its own.
   */
  waited(): number | undefined {
    const since = this.answers.getStore()?.waitingSince;
    return since === undefined ? undefined : performance.now() - since;
  }

  /** Records whose answers are being made or wait their turn now (for tests). */
  get recordsAnswering(): number {
    return this.lanes.records;
  }

  /** Answers waiting for their record's turn now (for tests). */
  get answersWaiting(): number {
    return this.lanes.waiting;
  }

  /**
   * Before the EHR is asked for `read` of `patientId`: a place in the room for the bytes its document
   * is expected to have, once there is room (fetch-room.ts). The caller hands it to `run` with the
   * document, and leaves it when the read ends however it ends.
   */
  async asking(read: string, patientId: string): Promise<Place> {
    const answer = this.answers.getStore();
    const waitedMs = answer?.waitingSince === undefined ? 0 : performance.now() - answer.waitingSince;
    const { place, waitedSince } = await this.room.take(this.sizes.of(read, patientId), answer?.abandoned ?? STAYING, waitedMs, !holdsBudget(answer));
    if (answer !== undefined) answer.waitingSince ??= waitedSince;
    return {
      fetched: (bytes) => {
        this.sizes.note(read, patientId, bytes);
        place.fetched(bytes);
      },
      leave: place.leave,
    };
  }

  /**
   * `map`'s result, run once a document of `bytes` fits the budget (at once when it is small). A read
   * that took a place in the room (`asking`) gives it here: it leaves the room once the document is
   * let in to be mapped.
   */
  async run<T>(bytes: number, map: () => Promise<T>, place?: Place): Promise<T> {
    place?.fetched(bytes);
    if (bytes <= SMALL_DOCUMENT_BYTES) {
      place?.leave();
      return map();
    }
    const weight = Math.min(bytes, this.limit);
    const answer = this.answers.getStore();
    if (holdsBudget(answer) || (this.waiting.length === 0 && this.inUse + weight <= this.limit)) this.inUse += weight;
    else await this.wait(weight, bytes);
    place?.leave();
    if (answer !== undefined) {
      answer.held += weight;
      return map();
    }
    try {
      return await map();
    } finally {
      this.giveBack(weight);
    }
  }

  /** Bytes of large documents whose trees are in memory now (for tests). */
  get bytesInFlight(): number {
    return this.inUse;
  }

  /** Bytes of large documents waiting for the budget now (for tests). */
  get bytesWaiting(): number {
    return this.waitingBytes;
  }

  private wait(weight: number, bytes: number): Promise<void> {
    // The first waiter always gets in line: a document larger than the waiting limit is refused only behind others.
    if (this.waiting.length > 0 && this.waitingBytes + bytes > this.waitingLimit) return Promise.reject(new AnswerMemoryFullError());
    this.waitingBytes += bytes;
    return new Promise<void>((go) => this.waiting.push({ bytes: weight, go: () => {
      this.waitingBytes -= bytes;
      go();
    } }));
  }

  private giveBack(bytes: number): void {
    if (bytes === 0) return;
    this.inUse -= bytes;
    this.admit();
  }

  private admit(): void {
    for (let next = this.waiting[0]; next !== undefined && this.inUse + next.bytes <= this.limit; next = this.waiting[0]) {
      this.waiting.shift();
      this.inUse += next.bytes;
      next.go();
    }
  }
}
