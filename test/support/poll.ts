import { SCHEDULING_SLACK_MS } from './scheduling.js';

/**
 * Polls `probe` until it returns a value `done` accepts, at most `timeoutMs` (what a quiet machine
 * needs) plus the scheduling slack a busy one may take; resolves the last value either way, so the
 * caller's assertion on it fails with something to read. A value accepted early ends the wait, so the
 * slack costs nothing when the test passes.
 */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs + SCHEDULING_SLACK_MS;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await probe();
  }
  return value;
}
