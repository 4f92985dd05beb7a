import { open, stat, unlink } from 'node:fs/promises';

const RETRY_MS = 5;
const STALE_MS = 10_000;

/** The lock was held by another process past the wait: the state is busy for now, not broken. */
export class FileLockBusyError extends Error {
  override name = 'FileLockBusyError';
}

/**
 * A lock file next to `file`, so several service processes sharing one DATA_DIR take turns.
 * A lock older than STALE_MS is taken to be left by a process that died holding it.
 */
export async function withFileLock<T>(file: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > STALE_MS) await unlink(lock).catch(() => undefined);
      if (Date.now() > deadline) throw new FileLockBusyError(`${file} is locked by another process`);
      await new Promise((r) => setTimeout(r, RETRY_MS + Math.random() * RETRY_MS));
    }
  }
  try {
    return await run();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
