import type { Lifecycle } from './lifecycle.js';

/**
 * Runs `turn` every `everyMs` until the service closes, one at a time; a failure goes to `onError` and
 * the next turn tries again. Closing stops the timer and waits for a turn under way: what it writes
 * goes to stores opened before it and closed after it, never to a closed one
 * (test/start/repeated-turns.test.ts).
 */
export function repeatUntilClosed(everyMs: number, turn: () => Promise<unknown>, onError: (err: unknown) => void, life: Lifecycle): void {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) return;
    running = turn().then(() => undefined, onError).finally(() => {
      running = undefined;
    });
  }, everyMs);
  timer.unref();
  life.onClose(async () => {
    clearInterval(timer);
    await running;
  });
}
