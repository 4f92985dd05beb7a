/** Thrown when a body is larger than the caller is willing to hold in memory. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** Reads a body stream into a string, refusing it (and destroying the stream) past `maxBytes`. */
export async function readCapped(body: AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void }, maxBytes: number): Promise<string> {
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
  return Buffer.concat(chunks, size).toString('utf8');
}
