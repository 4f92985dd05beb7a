import { openIfExists } from '../fs/if-exists.js';

const TAIL_BYTES = 64 * 1024;

/** The last non-empty line of a file (read from its tail only), or undefined if there is none. */
export async function lastLineOf(file: string): Promise<string | undefined> {
  const handle = await openIfExists(file);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n').filter((l) => l.trim() !== '');
    return lines.at(-1);
  } finally {
    await handle.close();
  }
}
