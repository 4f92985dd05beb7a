/** Thrown when a body is larger than the caller is willing to hold in memory. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** Thrown when a body ends before, or runs past, the length its sender declared: a body cut off or corrupt. */
export class BodyLengthMismatchError extends Error {
  override name = 'BodyLengthMismatchError';
  readonly code = 'PDAS_BODY_LENGTH_MISMATCH';
}

type Body = AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void };

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
 * its declared length is refused.
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
  return Buffer.concat(chunks, size);
}

async function readDeclared(body: Body, length: number): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(length);
  let size = 0;
  for await (const chunk of body) {
    if (chunk.byteLength > length - size) {
      throw refuse(body, new BodyLengthMismatchError(`body runs past its declared ${length} bytes`));
    }
    whole.set(chunk, size);
    size += chunk.byteLength;
  }
  if (size !== length) throw new BodyLengthMismatchError(`body ended after ${size} of its declared ${length} bytes`);
  return whole;
}

function refuse(body: Body, err: Error): Error {
  body.destroy?.(err);
  return err;
}
