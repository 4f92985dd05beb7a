/** Thrown when a body is larger than the caller is willing to hold in memory. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

type Body = AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void };

/** Reads a body stream into a string, refusing it (and destroying the stream) past `maxBytes`. */
export async function readCapped(body: Body, maxBytes: number): Promise<string> {
  return (await readCappedBytes(body, maxBytes)).toString('utf8');
}

/** Reads a body stream into one buffer (outside the JavaScript heap), refusing it past `maxBytes`. */
export async function readCappedBytes(body: Body, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      const err = new BodyTooLargeError(`body exceeds ${maxBytes} bytes`);
      body.destroy?.(err);
      throw err;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size);
}
