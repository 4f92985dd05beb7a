import { AnswerAbandonedError } from '../../ports/answer-memory.port.js';

/** How long a waiter may wait in a line, and what it fails with when that time is up. */
export interface WaitLimits {
  /** How long one may wait; unbounded unless set. */
  maxWaitMs?: number;
  /** What a waiter that waited that long fails with. */
  tooLong?: () => Error;
}

/** `limits` with their defaults: no longest wait, and an error naming what was waited for. */
export function withDefaults(limits: WaitLimits, waitedFor: string): Required<WaitLimits> {
  return {
    maxWaitMs: limits.maxWaitMs ?? Number.POSITIVE_INFINITY,
    tooLong: limits.tooLong ?? (() => new Error(`waited too long for ${waitedFor}`)),
  };
}

/**
 * Joins `line` (record-lanes.ts, fetch-room.ts, in-process-coordinator.ts) with the entry
 * `entryFor(go)` makes, and resolves once whoever passes a place on calls its `go`. Taken out of the line and rejected when its caller
 * leaves (AnswerAbandonedError) or it has waited `maxWaitMs` (`tooLong()`); `afterLeaving` then runs,
 * since a waiter that leaves the head of a line may let those behind it in.
 */
export function waitInLine<E>(
  line: E[],
  entryFor: (go: () => void) => E,
  abandoned: AbortSignal,
  limits: Required<WaitLimits>,
  afterLeaving?: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry = entryFor(() => {
      clearTimeout(timer);
      abandoned.removeEventListener('abort', leave);
      resolve();
    });
    const outOfLine = (err: Error): void => {
      clearTimeout(timer);
      abandoned.removeEventListener('abort', leave);
      line.splice(line.indexOf(entry), 1);
      afterLeaving?.();
      reject(err);
    };
    const leave = (): void => outOfLine(new AnswerAbandonedError());
    const timer = Number.isFinite(limits.maxWaitMs) ? setTimeout(() => outOfLine(limits.tooLong()), limits.maxWaitMs) : undefined;
    abandoned.addEventListener('abort', leave, { once: true });
    line.push(entry);
  });
}
