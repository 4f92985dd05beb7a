/**
 * An XML document as a run of pieces of text, each but the first beginning at a `<`.
 *
 * Why not one string: V8 keeps a string of over 128 KiB in its large-object space, and such an
 * object is promoted to the old generation by the first scavenge it survives. A remote journal of a
 * megabyte was alive for its whole reading, so nearly every read left a dead megabyte in the old
 * generation, and full collections (pauses of 8-14 ms) came every second or two under load
 * (BENCHMARKS.md, round 5). Pieces of a few tens of KiB are ordinary young objects that die young.
 *
 * Cutting only before a `<` byte keeps every piece decodable on its own (0x3C never occurs inside a
 * UTF-8 sequence, so the pieces' text joined is the whole document's text, replacement characters
 * included) and keeps tags, text runs, references, DTD markup and CR LF pairs whole; only a comment
 * or CDATA section holding a `<` can straddle two pieces, and the reader joins those.
 */

/** XML text, or its UTF-8 bytes as they came from upstream. */
export type XmlInput = string | Uint8Array;

/** Bytes per piece before the next `<`: one-byte or two-byte, a piece stays well under 128 KiB. */
export const PIECE_BYTES = 32 * 1024;
const LT = 0x3c;

export class DocumentPieces {
  private wholeText: string | undefined;

  private constructor(
    private readonly bytes: Buffer | undefined,
    /** Piece k is bytes [bounds[k], bounds[k + 1]). */
    private readonly bounds: readonly number[],
    text: string | undefined,
  ) {
    this.wholeText = text;
  }

  /** A string is one piece (nothing to gain by cutting text already in one string); bytes are cut. */
  static of(xml: DocumentInput): DocumentPieces {
    if (xml instanceof DocumentPieces) return xml;
    return typeof xml === 'string' ? new DocumentPieces(undefined, [], xml) : DocumentPieces.fromBytes(xml);
  }

  /** `bytes` cut before the first `<` at or after every `pieceBytes` (tests cut small to reach every boundary). */
  static fromBytes(bytes: Uint8Array, pieceBytes = PIECE_BYTES): DocumentPieces {
    if (!Number.isInteger(pieceBytes) || pieceBytes < 1) throw new RangeError('pieceBytes must be a positive integer');
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const bounds = [0];
    let from = 0;
    while (from + pieceBytes < buf.length) {
      const at = buf.indexOf(LT, from + pieceBytes);
      if (at < 0) break;
      bounds.push(at);
      from = at;
    }
    bounds.push(buf.length);
    return new DocumentPieces(buf, bounds, undefined);
  }

  /** How many pieces there are. */
  get count(): number {
    return this.bytes === undefined ? 1 : this.bounds.length - 1;
  }

  /** Piece `k`'s text (0 <= k < count), decoded anew on every call: the caller holds it only while it reads it. */
  piece(k: number): string {
    if (!(k >= 0 && k < this.count)) throw new RangeError('no such piece');
    if (this.bytes === undefined) return this.wholeText as string;
    return this.bytes.toString('utf8', this.bounds[k], this.bounds[k + 1]);
  }

  /** The whole document as one string: for the reference engine, which reads nothing else. */
  whole(): string {
    this.wholeText ??= (this.bytes as Buffer).toString('utf8');
    return this.wholeText;
  }
}

/** A document as text, as its UTF-8 bytes (read piece by piece, never as one string), or already cut. */
export type DocumentInput = XmlInput | DocumentPieces;
