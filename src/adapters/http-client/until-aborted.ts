/**
 * `work`, or its rejection with `reason()` as soon as `signal` aborts, whatever `work` is waiting for:
 * undici answers the abort of a request still waiting for its connection only once that attempt ends.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
