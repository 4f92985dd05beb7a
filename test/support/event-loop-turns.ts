/**
 * What work leaves of the event loop to others, measured without a wall-clock timer: the turns the
 * loop takes meanwhile (one immediate a turn), and the longest stretch of this thread's CPU time
 * between two of them. Counted in turns and CPU time because a fast runtime finishes in a few
 * milliseconds and a CPU shared with other suites stretches the wall clock, not the work.
 */

/** `work`'s result, and how many turns the event loop took while it ran. */
export async function turnsWhile<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const count = (): void => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  try {
    return { result: await work(), turns };
  } finally {
    counting = false;
  }
}

/** The longest stretch of this thread's CPU time (wall time where Node cannot tell it) between two turns while `work` runs, in ms. */
export async function longestStretchMs(work: () => Promise<unknown>): Promise<number> {
  const thread = process as { threadCpuUsage?: () => NodeJS.CpuUsage };
  const now = (): number => {
    const used = thread.threadCpuUsage?.();
    return used === undefined ? performance.now() : (used.user + used.system) / 1000;
  };
  let last = now();
  let longest = 0;
  let turning = true;
  const turn = (): void => {
    const at = now();
    longest = Math.max(longest, at - last);
    last = at;
    if (turning) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    turning = false;
  }
  return Math.max(longest, now() - last);
}
