import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { LinkedList, type Linked } from './linked-list.js';

/** SEND_GRACE_MS and SEND_MIN_BYTES_PER_S (docs/contract.md#settings). */
export interface SendLimits {
  graceMs: number;
  minBytesPerS: number;
}

export const DEFAULT_SEND_LIMITS: SendLimits = { graceMs: 10_000, minBytesPerS: 16_384 };

/** Sweeps are at most this far apart; with a short grace, a tenth of it. */
const MAX_SWEEP_MS = 250;
const MIN_SWEEP_MS = 10;

interface OpenAnswer extends Linked<OpenAnswer> {
  readonly res: ServerResponse;
  /** The connection's bytes taken before this answer had it (0 until then). */
  takenBefore: number;
  /** Set once the answer has begun to go out: counted from the sweep before that was seen. */
  firstByteAt: number | undefined;
  /** When it was last seen with nothing written yet. */
  unstartedAt: number;
  /** The process's stalls (SendDeadline.stalledMs) until unstartedAt, then until firstByteAt. */
  stalledBefore: number;
}

/**
 * Bytes of `socket`'s answers the kernel has taken: handed to the socket and written out of the
 * process (into the kernel's send queue, whether or not the caller has read them yet). Node's
 * bytesWritten counts what was handed to the socket, writableLength what of that is still waiting
 * in the process; a chunk counts once all of it is written.
 */
const takenFrom = (socket: Socket): number => socket.bytesWritten - socket.writableLength;

/**
 * A caller that stops reading holds memory (docs/contract.md#what-never-happens): every answer
 * must be taken at SEND_MIN_BYTES_PER_S after a SEND_GRACE_MS, counted from its first byte, i.e.
 * by `grace + n / rate` its first n bytes have been taken; an answer that falls behind has its
 * connection reset and the rest of it dropped, so a caller that never reads is gone within the
 * grace plus the answer's size at that rate. A caller reading at the rate or faster is never cut.
 *
 * It watches every answer Node's HTTP server makes (API answers, errors, documentation), with one
 * sweep timer that runs only while answers are open: no timer per request. The answer's first byte
 * is known to a sweep's precision, and taken as the earlier sweep, so the deadline is never later
 * than the contract's.
 *
 * Time the process itself stood still is not the caller's: while the event loop is held (a long
 * collection, a starved CPU) the service sends nothing and no sweep runs, so a stall counted against
 * the answer would cut a caller that read all it was sent, and a stall just before the first byte
 * would date that byte back to the sweep before it. A sweep that comes more than one period late
 * measures the excess as the process's stall, and every open answer's clock leaves it out. A caller
 * that never reads is then cut within the grace plus the answer's size at the rate of the process's
 * running time; it holds no more meanwhile, as a stalled process sends nothing.
 */
export class SendDeadline {
  /**
   * The answers in flight. Not a Set: one churned by every request (an add, a delete) tripled the
   * process's GC time (4.6 to 11-13.5 % of a small read's CPU profile, 30-55 µs a read; BENCHMARKS.md).
   */
  private readonly open = new LinkedList<OpenAnswer>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  /** When the last sweep ran (or the sweeper started). */
  private sweptAt = 0;
  /** The process's stalls, summed since it started: sweeps' lateness beyond one period. */
  private stalledMs = 0;

  constructor(server: HttpServer, private readonly limits: SendLimits, private readonly log: FastifyBaseLogger) {
    this.sweepMs = Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, limits.graceMs / 10));
    server.on('request', (_request: IncomingMessage, res: ServerResponse) => this.watch(res));
  }

  private watch(res: ServerResponse): void {
    const answer: OpenAnswer = {
      res, prev: undefined, next: undefined, listed: false, takenBefore: 0, firstByteAt: undefined, unstartedAt: performance.now(),
      stalledBefore: this.stalledMs,
    };
    // A pipelined answer gets the connection only once the answers before it are finished (all taken).
    if (res.socket) answer.takenBefore = takenFrom(res.socket);
    else res.once('socket', (socket: Socket) => { answer.takenBefore = takenFrom(socket); });
    this.open.add(answer);
    res.once('close', () => {
      this.open.delete(answer);
      if (this.open.size === 0) this.stop();
    });
    if (this.sweeper === undefined) {
      this.sweptAt = performance.now();
      this.sweeper = setInterval(() => this.sweep(), this.sweepMs).unref();
    }
  }

  private stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private sweep(): void {
    const now = performance.now();
    this.stalledMs += Math.max(0, now - this.sweptAt - 2 * this.sweepMs);
    this.sweptAt = now;
    const { graceMs, minBytesPerS } = this.limits;
    for (const answer of this.open) {
      const { res } = answer;
      const socket = res.socket;
      if (socket === null || !res.headersSent) {
        answer.unstartedAt = now;
        answer.stalledBefore = this.stalledMs;
        continue;
      }
      answer.firstByteAt ??= answer.unstartedAt;
      const afterMs = now - answer.firstByteAt - (this.stalledMs - answer.stalledBefore);
      if (afterMs <= graceMs) continue;
      const taken = takenFrom(socket) - answer.takenBefore;
      if (taken >= ((afterMs - graceMs) * minBytesPerS) / 1000) continue;
      this.cut(answer, socket, afterMs, taken);
    }
  }

  /** afterMs: since the answer's first byte, the process's stalls left out. */
  private cut(answer: OpenAnswer, socket: Socket, afterMs: number, takenBytes: number): void {
    this.open.delete(answer);
    const reqId = answer.res.getHeader('x-request-id');
    const answerBytes = Number(answer.res.getHeader('content-length'));
    this.log.warn({
      ...(typeof reqId === 'string' ? { reqId } : {}), afterMs: Math.round(afterMs), takenBytes,
      processStalledMs: Math.round(this.stalledMs - answer.stalledBefore),
      ...(Number.isSafeInteger(answerBytes) ? { answerBytes } : {}), ...this.limits,
    }, 'answer not taken at SEND_MIN_BYTES_PER_S: connection reset, the rest of the answer dropped');
    resetConnection(socket);
  }
}

/**
 * A reset, not a close: the kernel drops what it still holds for the caller at once (a closed
 * connection would keep trying to deliver it), and the caller learns the answer was cut. A TLS
 * socket cannot be reset from above its TLS layer; it is closed.
 */
function resetConnection(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}
