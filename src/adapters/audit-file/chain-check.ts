import { open, type FileHandle } from 'node:fs/promises';
import { macHex, unkeyedHex, type ChainKey } from '../audit-chain/chain-keys.js';
import { ChainWalk, type ChainCheck, type ChainCheckOptions, type ChainLink } from '../audit-query/chain-check.js';
import { linesUpTo } from '../audit-query/trail-lines.js';

/** The `prev` of the first line, as in the PostgreSQL trail. */
export const GENESIS = '0'.repeat(64);
const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/**
 * Line `id` (1-based) of the trail as the chain walk takes it: its `prev`, its `hash`, the key it
 * names, and whether the rest of it hashes to that: HMAC-SHA-256 under that key (`keys`), or SHA-256
 * for a line written before the chain had a key.
 */
export function lineLink(text: string, id: number, keys: ReadonlyMap<string, ChainKey> = new Map()): ChainLink {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { id, time: undefined, link: '', hash: '', own: false, unreadable: true };
  const { hash, ...rest } = parsed as { hash?: unknown; prev?: unknown; time?: unknown; key?: unknown };
  const keyId = typeof rest.key === 'string' ? rest.key : undefined;
  const key = keyId === undefined ? undefined : keys.get(keyId);
  const content = JSON.stringify(rest);
  return {
    // The service writes each line as JSON.stringify writes it; the hash is of the parsed record, so a line
    // spelled otherwise (an escape, a space) would hash alike and read otherwise (hostile review helper-133, F3).
    ...(JSON.stringify(parsed) === text ? {} : { respelled: true }),
    id, time: typeof rest.time === 'string' ? rest.time : undefined,
    link: typeof rest.prev === 'string' ? rest.prev : '', hash: typeof hash === 'string' ? hash : '',
    own: typeof hash === 'string' && (keyId === undefined ? unkeyedHex(content) : key !== undefined && macHex(key, content)) === hash,
    ...(keyId === undefined ? {} : { key: keyId, ...(key === undefined ? { unknownKey: true } : {}) }),
  };
}

/** Bytes up to and including the last newline: where the last whole line ends. */
async function wholeLinesEnd(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * The chain check of the file trail, streamed a line at a time so a trail of any size is checked in
 * constant memory. A last line without its newline is still being written, or was torn by a crash
 * (the service sets it aside at its next start): it is left unchecked and said so.
 */
export async function checkFileChain(file: string, options: ChainCheckOptions = {}): Promise<ChainCheck> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const end = await wholeLinesEnd(handle, size);
    const walk = new ChainWalk('line', GENESIS, options);
    if (end > 0) {
      let id = 0;
      for await (const text of linesUpTo(handle, end)) {
        id += 1;
        if (walk.take(lineLink(text, id, options.keys)) !== undefined) break;
      }
    }
    return { ...walk.result(), ...(end < size ? { unfinishedTail: true } : {}) };
  } finally {
    await handle.close();
  }
}
