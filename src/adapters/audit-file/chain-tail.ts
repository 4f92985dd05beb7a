import type { FileHandle } from 'node:fs/promises';
import { openIfExists } from '../fs/if-exists.js';

const FIRST_WINDOW = 64 * 1024;
// A torn write is at most one group-commit batch (hundreds of KiB); far more than that after the
// last record is not a torn tail but a damaged or foreign file, which must not be moved aside unseen.
const MAX_TORN_BYTES = 8 * 1024 * 1024;
const HASH = /^[0-9a-f]{64}$/;
const NEWLINE = 0x0a;

/** Where the trail's last whole record ends, and its hash; bytes after it are a torn tail. */
export interface ChainTail {
  /** Bytes from the start of the file up to and including the newline of the last whole record. */
  intactBytes: number;
  /** Hash of that record; undefined when the file holds none. */
  lastHash: string | undefined;
}

function hashOfLine(line: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(line.toString('utf8'));
    const hash = (parsed as { hash?: unknown } | null)?.hash;
    return typeof hash === 'string' && HASH.test(hash) ? hash : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the last whole, newline-terminated record of a trail of `size` bytes, reading backwards from
 * the end in growing windows. A line that was cut short (a crash or a failed write: no newline, half
 * a JSON object, zero-filled blocks) is not a record, and neither is anything after it. Refuses a
 * file whose last MAX_TORN_BYTES hold no record at all.
 */
export async function chainTailOf(handle: FileHandle, size: number): Promise<ChainTail> {
  for (let window = FIRST_WINDOW; ; window = Math.min(window * 4, MAX_TORN_BYTES)) {
    const start = Math.max(0, size - window);
    const bytes = Buffer.alloc(size - start);
    await handle.read(bytes, 0, bytes.length, start);
    for (let end = bytes.lastIndexOf(NEWLINE); end >= 0;) {
      const lineStart = end === 0 ? 0 : bytes.lastIndexOf(NEWLINE, end - 1) + 1;
      // The window may begin inside this line: read a larger one.
      if (lineStart === 0 && start > 0) break;
      const hash = hashOfLine(bytes.subarray(lineStart, end));
      if (hash !== undefined) return { intactBytes: start + end + 1, lastHash: hash };
      end = lineStart - 1;
    }
    if (start === 0) return { intactBytes: 0, lastHash: undefined };
    if (window === MAX_TORN_BYTES) {
      throw new Error(`the last ${MAX_TORN_BYTES} bytes of the audit trail hold no whole record: not a torn write; inspect the file`);
    }
  }
}

/** chainTailOf the file at `file`, of `size` bytes (its length now when not given), and that length; undefined when there is no file. */
export async function fileChainTail(file: string, size?: number): Promise<(ChainTail & { size: number }) | undefined> {
  const reader = await openIfExists(file);
  if (!reader) return undefined;
  try {
    const length = size ?? (await reader.stat()).size;
    return { ...(await chainTailOf(reader, length)), size: length };
  } finally {
    await reader.close();
  }
}
