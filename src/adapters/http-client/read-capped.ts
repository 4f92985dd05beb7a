import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Bytes copied into a body's buffer before the event loop gets a turn. A stream that has received
 * megabytes hands them over chunk after chunk without ever returning to the event loop, and copying
 * into memory touched for the first time is slow: 3.9 ms per MB on the bench machine, where a 9 MiB
 * body copied in one go held the loop 17-29 ms (BENCHMARKS.md, issue 20 item 6, sixth round).
 */
export const COPY_TURN_BYTES = 1 << 20;

/** Thrown when a body is larger than the caller is willing to hold in memory. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** Thrown when a body ends before, or runs past, the length its sender declared: a body cut off or corrupt. */
export class BodyLengthMismatchError extends Error {
  override name = 'BodyLengthMismatchError';
  readonly code = 'PDAS_BODY_LENGTH_MISMATCH';
}

/** A body stream, or chunks already gathered (readCappedBytes without a declared length). */
type Body = (AsyncIterable<Uint8Array> | Iterable<Uint8Array>) & { destroy?: (e?: Error) => void };

/** Reads a body stream into a string, refusing it (and destroying the stream) past `maxBytes`. */
export async function readCapped(body: Body, maxBytes: number): Promise<string> {
  return (await readCappedBytes(body, maxBytes)).toString('utf8');
}

/**
 * Reads a body stream into one buffer (outside the JavaScript heap), refusing it past `maxBytes`.
 *
 * With `declaredBytes` (the sender's Content-Length, at most `maxBytes`) the buffer is allocated
 * once before the first chunk and each chunk is copied in as it arrives. Why: joining the chunks at
 * the end copied the whole body in one go, into memory touched for the first time; for a 9 MiB
 * document that held the event loop 30-60 ms (BENCHMARKS.md, issue 20 item 6, fifth round), and
 * the body was briefly in memory twice. The buffer is handed out only once every declared byte was
 * written, so none of its uninitialised memory ever leaves; a body that ends early or runs past
 * its declared length is refused. Without a declared length the chunks are gathered first and
 * copied the same way once their size is known; either way the event loop gets a turn after every
 * COPY_TURN_BYTES copied.
 */
export async function readCappedBytes(body: Body, maxBytes: number, declaredBytes?: number): Promise<Buffer> {
  if (declaredBytes !== undefined && Number.isSafeInteger(declaredBytes) && declaredBytes >= 0 && declaredBytes <= maxBytes) {
    return readDeclared(body, declaredBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw refuse(body, new BodyTooLargeError(`body exceeds ${maxBytes} bytes`));
    chunks.push(chunk);
  }
  return readDeclared(chunks, size);
}

/** The body's `length` bytes, copied in as they arrive, with a turn of the event loop after every COPY_TURN_BYTES. */
async function readDeclared(body: Body, length: number): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(length);
  let size = 0;
  let sinceTurn = 0;
  for await (const chunk of body) {
    if (chunk.byteLength > length - size) {
      throw refuse(body, new BodyLengthMismatchError(`body runs past its declared ${length} bytes`));
    }
    whole.set(chunk, size);
    size += chunk.byteLength;
    sinceTurn += chunk.byteLength;
    if (sinceTurn >= COPY_TURN_BYTES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  if (size !== length) throw new BodyLengthMismatchError(`body ended after ${size} of its declared ${length} bytes`);
  return whole;
}

function refuse(body: Body, err: Error): Error {
  body.destroy?.(err);
  return err;
}
