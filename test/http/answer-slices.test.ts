/**
 * A large answer goes to the socket in slices of at most PUSH_MAX_BYTES (src/http/serialization/pieces-stream.ts),
 * so the send deadline sees it taken as its caller reads (test/security/send-deadline-attacks.test.ts):
 * the same bytes in the same order, whatever the pieces' sizes, packed in the middle of a piece or not.
 */
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inSlices, JsonAnswer, ONE_BUFFER_BYTES } from '../../src/http/serialization/json-answer.js';
import { PUSH_MAX_BYTES, STALL_MS } from '../../src/http/serialization/pieces-stream.js';
import { readThroughStall } from '../support/stalled-reader.js';

/** Every chunk the stream gives, in order, as a pipe to a socket takes them ('data', not read(), which joins what is buffered). */
function chunksOf(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks));
    stream.once('error', reject);
  });
}

/** Bytes that differ from place to place, so a slice out of order or repeated shows. */
const numbered = (bytes: number, from = 0): Buffer => Buffer.from(Array.from({ length: bytes }, (_, i) => (from + i * 7) % 251));

describe('an answer in slices', () => {
  it('streams pieces of every size (none, one byte, around the slice, megabytes) byte for byte, no chunk over PUSH_MAX_BYTES', async () => {
    const sizes = [0, 1, PUSH_MAX_BYTES - 1, PUSH_MAX_BYTES, PUSH_MAX_BYTES + 1, 3 * 2 ** 20 + 5, 17];
    const pieces = sizes.map((n, i) => numbered(n, i));
    const byteLength = sizes.reduce((a, b) => a + b, 0);
    const chunks = await chunksOf(new JsonAnswer(pieces, byteLength).body() as Readable);
    expect(Buffer.concat(chunks).equals(Buffer.concat(pieces))).toBe(true);
    expect(Math.max(...chunks.map((c) => c.length))).toBe(PUSH_MAX_BYTES);
    // A piece that fits is pushed as it is, not copied or cut.
    expect(chunks).toContain(pieces[1]);
  });

  it('turns a string or a buffer over ONE_BUFFER_BYTES into a stream of the same bytes, its length in bytes, and leaves anything smaller as it is', async () => {
    // 3-byte characters: 30,000 of them are 90,000 bytes, over the line though the string is shorter than it.
    const wide = '€'.repeat(30_000);
    const sliced = inSlices(wide);
    expect(sliced?.byteLength).toBe(90_000);
    expect(Buffer.concat(await chunksOf(sliced?.body as Readable)).toString('utf8')).toBe(wide);
    const buffer = numbered(ONE_BUFFER_BYTES + 1);
    const fromBuffer = inSlices(buffer);
    expect(fromBuffer?.byteLength).toBe(ONE_BUFFER_BYTES + 1);
    expect(Buffer.concat(await chunksOf(fromBuffer?.body as Readable)).equals(buffer)).toBe(true);
    for (const small of ['x'.repeat(ONE_BUFFER_BYTES), '€'.repeat(ONE_BUFFER_BYTES / 3), numbered(ONE_BUFFER_BYTES), undefined, null, { a: 1 }]) {
      expect(inSlices(small)).toBeUndefined();
    }
  });

  it(`packed after ${STALL_MS} ms stalled half-way through one long piece, it still gives every byte in order`, async () => {
    // Text that deflates as a journal does, one piece of 2 MiB: the stall comes in its middle.
    const piece = Buffer.from(Array.from({ length: 2 ** 15 }, (_, i) => `rad ${i}: blodtryck 120/80, puls 64; `).join('').slice(0, 2 ** 21));
    const stream = new JsonAnswer([numbered(100), piece], 100 + piece.length).body() as Readable;
    const read = await readThroughStall(stream, 5, STALL_MS + 500);
    expect(read.equals(Buffer.concat([numbered(100), piece]))).toBe(true);
  });
});
