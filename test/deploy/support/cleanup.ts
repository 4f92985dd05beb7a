// What a deploy test made (containers, databases, processes), undone in reverse order at its end: each
// step given 60 s, every failure named, none stopping the steps after it.
export type CleanupStep = [what: string, step: () => Promise<unknown>];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the steps last first; resolves with what failed, `what: why` each. */
export async function runCleanup(steps: CleanupStep[]): Promise<string[]> {
  const failed: string[] = [];
  for (const [what, step] of [...steps].reverse()) {
    await Promise.race([step(), sleep(60_000).then(() => { throw new Error('timed out after 60 s'); })])
      .catch((err: unknown) => failed.push(`${what}: ${err instanceof Error ? err.message : String(err)}`));
  }
  return failed;
}
