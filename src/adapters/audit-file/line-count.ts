import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK = 1024 * 1024;

/**
 * The lines in the first `size` bytes of `file` (every line of the trail ends in a newline), read a
 * mebibyte at a time: a trail of any size is counted in constant memory, about a second a gigabyte.
 */
export async function countLines(file: string, size: number): Promise<number> {
  if (size === 0) return 0;
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK);
    let lines = 0;
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      for (let i = chunk.indexOf(NEWLINE); i >= 0 && i < bytesRead; i = chunk.indexOf(NEWLINE, i + 1)) lines += 1;
      at += bytesRead;
    }
    return lines;
  } finally {
    await handle.close();
  }
}
