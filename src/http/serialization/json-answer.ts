import type { Readable } from 'node:stream';
import { PiecesStream } from './pieces-stream.js';

/**
 * Answers up to this many bytes are sent as one buffer of their own: one write, and a copy that
 * costs nothing worth saving.
 */
export const ONE_BUFFER_BYTES = 64 * 1024;

/**
 * A serialised answer: its UTF-8 bytes as pieces in order. Some pieces are remembered JSON that
 * other answers hold too (sliced-json.ts), so they are written, never changed; and a large answer
 * is never copied into one buffer. Fifty 1 MB journal answers in flight were fifty megabytes of
 * copies beside the remembered pieces they were made of (issue 20 item 6).
 */
export class JsonAnswer {
  constructor(private readonly pieces: readonly Buffer[], readonly byteLength: number) {}

  /** What a reply sends: a buffer of its own when small, else a stream of the pieces themselves. */
  body(): Buffer | Readable {
    return this.byteLength <= ONE_BUFFER_BYTES ? this.copy() : new PiecesStream(this.pieces);
  }

  /** The bytes, copied into one buffer of the answer's own. */
  copy(): Buffer {
    return Buffer.concat(this.pieces, this.byteLength);
  }
}

/**
 * A string or buffer answer over ONE_BUFFER_BYTES (a FHIR resource written by `JSON.stringify`, the
 * OpenAPI document), as a stream of slices and its length; undefined for anything else. Written whole,
 * such an answer showed the send deadline nothing taken until its caller had read nearly all of it
 * (pieces-stream.ts, PUSH_MAX_BYTES), and a slow but steady caller was cut.
 */
export function inSlices(payload: unknown): { body: Readable; byteLength: number } | undefined {
  // A UTF-16 unit is at most 3 bytes of UTF-8: a shorter string cannot be over the line.
  if (typeof payload === 'string' && payload.length > ONE_BUFFER_BYTES / 3) {
    const byteLength = Buffer.byteLength(payload);
    return byteLength > ONE_BUFFER_BYTES ? { body: new PiecesStream([Buffer.from(payload)]), byteLength } : undefined;
  }
  if (Buffer.isBuffer(payload) && payload.length > ONE_BUFFER_BYTES) return { body: new PiecesStream([payload]), byteLength: payload.length };
  return undefined;
}
