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
