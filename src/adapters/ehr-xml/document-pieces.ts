/**
 * An XML document as a run of pieces of text, cut where the reader can go on from one to the next.
 *
 * Why not one string: V8 keeps a string of over 128 KiB in its large-object space, and such an
 * object is promoted to the old generation by the first scavenge it survives. A remote journal of a
 * megabyte was alive for its whole reading, so nearly every read left a dead megabyte in the old
 * generation, and full collections (pauses of 8-14 ms) came every second or two under load
 * (BENCHMARKS.md, round 5). Pieces of a few tens of KiB are ordinary young objects that die young.
 *
 * Why bounded pieces: the reader pauses between pieces (docs/upstream-ehr.md#5-how-the-service-reads-a-document),
 * so no piece may be megabytes long, whatever the document holds: a 9 MiB attribute value or text
 * without a `<` is cut too (issue 20 item 2).
 *
 * Where a cut falls (`cutsAt`): before a `<`, as before; else, in a run without `<` past the size,
 * before a `&`, or at a place no name, reference or markup delimiter spans: at least QUIET
 * characters after the last `<`, `&` or `=`, not before a `=` a name leads to, not inside
 * `--`, `-->`, `]]`, `]]>`, `?>`, `/>`, a CR LF pair or a character's encoding. So a cut lies in
 * text, an attribute value, a comment, PI or CDATA section (which the reader follows from piece
 * to piece), or before the `>` or `/>` closing a tag; never inside a tag's names or references,
 * except a name or reference longer than QUIET characters, which no real document has: the reader
 * then refuses the document (fail closed). For bytes, 0x3C, 0x26 and the other delimiters never
 * occur inside a UTF-8 sequence and a cut never falls before a continuation byte, so the pieces'
 * text joined is the whole document's text.
 *
 * Bytes that are not UTF-8 are refused before any piece is read: decoded, they would become U+FFFD,
 * and a unit written "µg/L" in Latin-1 would reach a patient as U+FFFD and "g/L" (hostile review helper-213, H1).
 */

import { isUtf8 } from 'node:buffer';
import { malformed } from './malformed-document-error.js';

/**
 * A piece as the reader reads it. `noLoneSurrogate`: known to hold none (decoded from UTF-8 bytes,
 * or copied through them), so the reader spares that search (xml-text.ts, hasOnlyXmlChars).
 */
export interface Piece { text: string; noLoneSurrogate: boolean }

/** XML text, or its UTF-8 bytes as they came from upstream. */
type XmlInput = string | Uint8Array;

/** Characters (bytes) per piece before the next place it may be cut: a piece stays well under 128 KiB. */
export const PIECE_BYTES = 32 * 1024;
/** Characters after the last `<`, `&` or `=` before a cut may fall elsewhere than before `<` or `&`: longer than any real name or reference. */
export const QUIET = 64;

const LT = 0x3c;
const AMP = 0x26;
const EQ = 0x3d;
const GT = 0x3e;
const CR = 0x0d;
const DASH = 0x2d;
const BRACKET = 0x5d;

/** Characters of names (ASCII name characters, `:`, anything non-ASCII) and whitespace: what lies between a cut and a `=` it must not come before. */
const isNameOrSpace = (c: number): boolean =>
  c >= 128 || (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46
  || c === 32 || c === 9 || c === 10 || c === CR;

/** Whether `a` then `b` is part of a delimiter the reader must see whole: `--`, `-->`, `]]`, `]]>`, `?>`, `/>`. */
const isDelimiterPair = (a: number, b: number): boolean =>
  (a === DASH && (b === DASH || b === GT)) || (a === BRACKET && (b === BRACKET || b === GT)) || ((a === 0x3f || a === 0x2f) && b === GT);

/**
 * The cuts of a text of `length` code units (`at(i)` the i-th; `isTrail` a unit that continues a
 * character): the first allowed place at or after every `size`, see above. Every unit is looked at
 * a bounded number of times, so cutting costs linear time.
 */
export function cutsAt(length: number, size: number, at: (i: number) => number, isTrail: (c: number) => boolean): number[] {
  const bounds = [0];
  let from = 0;
  while (from + size < length) {
    let c = from + size;
    // The last `<`, `&` or `=` before c (or further back than QUIET).
    let loud = c - QUIET - 1;
    for (let k = Math.max(0, c - QUIET); k < c; k++) {
      const u = at(k);
      if (u === LT || u === AMP || u === EQ) loud = k;
    }
    for (; c < length; c++) {
      const u = at(c);
      if (u === LT || u === AMP) break;
      if (u === EQ) loud = c;
      else if (c - loud > QUIET && !isTrail(u) && at(c - 1) !== CR && !isDelimiterPair(at(c - 1), u) && !leadsToEquals(c, length, at)) break;
    }
    if (c >= length) break;
    bounds.push(c);
    from = c;
  }
  bounds.push(length);
  return bounds;
}

/** Whether a `=` follows `c` after fewer than QUIET name characters and whitespace: c is then in or before an attribute's name. */
function leadsToEquals(c: number, length: number, at: (i: number) => number): boolean {
  const end = Math.min(length, c + QUIET);
  for (let k = c; k < end; k++) {
    const u = at(k);
    if (u === EQ) return true;
    if (!isNameOrSpace(u)) return false;
  }
  return false;
}

export class DocumentPieces {
  private wholeText: string | undefined;

  private constructor(
    private readonly bytes: Buffer | undefined,
    /** Piece k is bytes (or characters of the text) [bounds[k], bounds[k + 1]). */
    private readonly bounds: readonly number[],
    text: string | undefined,
  ) {
    this.wholeText = text;
  }

  /** Text and bytes are cut alike (a text of PIECE_BYTES characters or less is one piece). */
  static of(xml: DocumentInput): DocumentPieces {
    if (xml instanceof DocumentPieces) return xml;
    return typeof xml === 'string' ? DocumentPieces.fromText(xml) : DocumentPieces.fromBytes(xml);
  }

  /** `bytes`, refused unless UTF-8, cut at the first allowed place at or after every `pieceBytes` (tests cut small to reach every boundary). */
  static fromBytes(bytes: Uint8Array, pieceBytes = PIECE_BYTES): DocumentPieces {
    checkSize(pieceBytes);
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!isUtf8(buf)) throw malformed('bytes that are not UTF-8');
    const bounds = cutsAt(buf.length, pieceBytes, (i) => buf[i] as number, (c) => c >= 0x80 && c < 0xc0);
    return new DocumentPieces(buf, bounds, undefined);
  }

  /** `text` cut as bytes are, never between the halves of a surrogate pair. */
  static fromText(text: string, pieceChars = PIECE_BYTES): DocumentPieces {
    checkSize(pieceChars);
    const bounds = cutsAt(text.length, pieceChars, (i) => text.charCodeAt(i), (c) => c >= 0xdc00 && c <= 0xdfff);
    return new DocumentPieces(undefined, bounds, text);
  }

  /** Whether the pieces are decoded from UTF-8 bytes, and so hold no lone surrogate (xml-text.ts, hasOnlyXmlChars). */
  get decoded(): boolean {
    return this.bytes !== undefined;
  }

  /** How many pieces there are. */
  get count(): number {
    return this.bounds.length - 1;
  }

  /**
   * Piece `k` (0 <= k < count) as the reader reads it: its text, made anew on every call (the caller
   * holds it only while it reads it), and what is known of it.
   */
  read(k: number): Piece {
    if (!(k >= 0 && k < this.count)) throw new RangeError('no such piece');
    const from = this.bounds[k] as number;
    const to = this.bounds[k + 1] as number;
    if (this.bytes !== undefined) return { text: this.bytes.toString('utf8', from, to), noLoneSurrogate: true };
    const whole = this.wholeText as string;
    return this.count === 1 ? { text: whole, noLoneSurrogate: false } : textPiece(whole.slice(from, to));
  }

  /** The whole document as one string: for the reference engine, which reads nothing else. */
  whole(): string {
    this.wholeText ??= (this.bytes as Buffer).toString('utf8');
    return this.wholeText;
  }
}

/** A character past U+00FF: a piece without one is stored one byte a character. */
const WIDE = /[^\0-\xff]/;

/**
 * A piece of text as the reader reads it: the same characters, in a string of their own.
 *
 * Why a copy: `slice` gives a view into the whole text (a sliced string), and the reader's every
 * `charCodeAt`, search and substring in a view goes through it to the text's storage; and a text
 * with one character past U+00FF (an en dash in a megabyte will do) is stored two bytes a
 * character, so all its views are, and the lone-surrogate search (`isWellFormed`) reads each of
 * them at about ten instructions a character. Mapping the 1 MB journal from text cost a fifth more
 * instructions than from one string (cachegrind, issue 56 item 3).
 *
 * A piece without a character past U+00FF is copied as Latin-1, one byte a character, and holds no
 * surrogate at all; any other piece as UTF-16, code unit for code unit, lone surrogates included,
 * which the reader searches it for as before. Both copies are exact, and cost about a memory copy
 * (through UTF-8, as pieces of bytes are made, cost five times as much).
 */
function textPiece(piece: string): Piece {
  if (!WIDE.test(piece)) return { text: Buffer.from(piece, 'latin1').toString('latin1'), noLoneSurrogate: true };
  return { text: Buffer.from(piece, 'utf16le').toString('utf16le'), noLoneSurrogate: false };
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('pieceBytes must be a positive integer');
}

/** A document as text, as its UTF-8 bytes (read piece by piece, never as one string), or already cut. */
export type DocumentInput = XmlInput | DocumentPieces;
