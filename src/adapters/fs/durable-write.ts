import { open, rename, writeFile } from 'node:fs/promises';

/**
 * Replaces `file` with `text` so that a crash leaves the old file or the new one, never half of one:
 * a temp file beside it (0600), fsynced, then renamed over it.
 */
export async function writeDurably(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  const handle = await open(tmp, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}
