import type { ServerResponse } from 'node:http';
import { AnswerMemoryFullError } from '../../ports/answer-memory.port.js';

/**
 * An answer counts as large above this: one the kernel's send buffer (Linux's tcp_wmem grows to 4 MiB)
 * cannot take whole from a caller that stops reading, so the process keeps the rest.
 */
export const LARGE_ANSWER_BYTES = 4 * 1024 * 1024;
/** SEND_MAX_LARGE_ANSWERS's default: 40 never-reading callers of a 9 MiB journal added 65 MB (BENCHMARKS.md, part 9). */
export const DEFAULT_MAX_LARGE_ANSWERS = 32;

/** How long a caller refused for want of room is told to wait: about what a normal reader takes of one. */
export const LARGE_ANSWERS_RETRY_AFTER_S = 5;

/**
 * How many large answers (more than LARGE_ANSWER_BYTES) may be on their way out at once
 * (SEND_MAX_LARGE_ANSWERS, issue 44 item 12). A caller that stops reading keeps its answer until
 * the send deadline cuts it (grace plus the answer at SEND_MIN_BYTES_PER_S: minutes for a 9 MiB
 * journal), packed but still some megabytes each: 60 such callers added 142 MB to the peak RSS,
 * over the < 100 MB of docs/contract.md#what-never-happens. Past the limit a large answer is not
 * sent but answered 503 with Retry-After, as the answer memory refuses (AnswerMemoryFullError),
 * before its bytes are handed to the connection; a normal reader frees its room within a second,
 * so the limit bites only while many connections hold answers they do not read. Smaller answers are
 * never counted.
 */
export class LargeAnswers {
  private inFlight = 0;

  constructor(readonly max: number, private readonly largeBytes = LARGE_ANSWER_BYTES) {
    if (!(max >= 1)) throw new RangeError('at least one large answer must be allowed');
  }

  /** Room for an answer of `bytes` to go out on `res` until it closes; throws AnswerMemoryFullError when there is none. */
  admit(bytes: number, res: ServerResponse): void {
    if (bytes <= this.largeBytes) return;
    if (this.inFlight >= this.max) throw new AnswerMemoryFullError(LARGE_ANSWERS_RETRY_AFTER_S);
    this.inFlight += 1;
    res.once('close', () => {
      this.inFlight -= 1;
    });
  }

  /** `admit` for an answer written as text: its UTF-8 bytes counted only where its length leaves them in doubt. */
  admitText(text: string, res: ServerResponse): void {
    if (text.length * 3 <= this.largeBytes) return;
    this.admit(text.length > this.largeBytes ? text.length : Buffer.byteLength(text), res);
  }

  /** Large answers on their way out now (for tests and metrics). */
  get size(): number {
    return this.inFlight;
  }
}
