import { open } from 'node:fs/promises';
import path from 'node:path';
import { openIfExists } from '../fs/if-exists.js';
import { chainTailOf } from './chain-tail.js';

/** What opening the trail found at its end. */
export interface TrailEnd {
  /** Hash of the last whole record; undefined for an empty or new trail. */
  lastHash: string | undefined;
  /** Length of the trail once a torn tail is cut off. */
  size: number;
  /** Set when a torn tail was found, copied aside and cut off. */
  tornTail?: { bytes: number; setAsideIn: string };
}

/**
 * Reads the end of the trail and, if its last write was torn (a crash or a full disk mid-write),
 * copies the torn bytes to `<file>.torn-at-<offset>` (durably, owner-only) and cuts the trail back to
 * its last whole record, so the chain can go on from there and nothing is thrown away unseen.
 * The torn bytes belong to requests that were never answered with data: their records never
 * counted as stored.
 */
export async function repairTrailEnd(file: string): Promise<TrailEnd> {
  const reader = await openIfExists(file);
  if (!reader) return { lastHash: undefined, size: 0 };
  let torn: Buffer;
  let tail;
  try {
    const { size } = await reader.stat();
    tail = await chainTailOf(reader, size);
    if (tail.intactBytes === size) return { lastHash: tail.lastHash, size };
    torn = Buffer.alloc(size - tail.intactBytes);
    await reader.read(torn, 0, torn.length, tail.intactBytes);
  } finally {
    await reader.close();
  }
  const aside = `${file}.torn-at-${tail.intactBytes}`;
  // 'w': a repair interrupted after this copy and run again writes the same bytes again.
  const copy = await open(aside, 'w', 0o600);
  try {
    await copy.writeFile(torn);
    await copy.sync();
  } finally {
    await copy.close();
  }
  const writer = await open(file, 'r+');
  try {
    await writer.truncate(tail.intactBytes);
    await writer.sync();
  } finally {
    await writer.close();
  }
  return { lastHash: tail.lastHash, size: tail.intactBytes, tornTail: { bytes: torn.length, setAsideIn: path.basename(aside) } };
}
