/**
 * The document's text as the tokenizer walks it (xml-tokenizer.ts, docs/xml-reader.md): the piece
 * being read and the position in it, the next piece once it is done, the clock of the slice, and
 * the text between markup, which it checks and gives the builder exactly as written.
 *
 * It refuses, before a piece is read (`readablePiece`), DTD markup ('DTD markup is not accepted')
 * and any character XML forbids; a document that ends inside markup or a tag (`nextPieceWithin`);
 * and in text, kept or not: `]]>`, and an `&` that is not one of the five
 * entities or a reference to a character XML allows (decodeReferences, xml-text.ts). All as not
 * well-formed XML.
 *
 * Exact text: line ends are normalised (`\r\n?` -> `\n`) as XML says, references decoded once, and
 * an element's text is all its parts in document order (text, CDATA sections as written, text
 * around comments, PIs and cuts between pieces joined as one part), only its whole text trimmed at
 * its ends, and that before references are decoded, so a space written `&#x20;` stays
 * (docs/upstream-ehr.md#1-rules-every-document-follows).
 */
import type { DocumentPieces } from './document-pieces.js';
import { malformed, notWellFormed } from './malformed-document-error.js';
import { TextRun } from './text-run.js';
import { TEXT_ALL, TEXT_ANY, type ElementSink } from './xml-sink.js';
import { decodeReferences, hasDtdMarkup, hasOnlyXmlChars, isSpace, isTrimSpace, normaliseLineEnds, withoutBom } from './xml-text.js';

/**
 * A piece of the document as the reader reads it (`noLoneSurrogate`: known to hold none, document-pieces.ts, hasOnlyXmlChars):
 * DTD markup and characters XML forbids refused,
 * line ends normalised (`\r\n?` -> `\n`). A cut never falls inside a CR LF pair or within QUIET
 * characters of a `<` (document-pieces.ts), so DTD markup and line ends lie within one piece.
 */
export function readablePiece(piece: string, noLoneSurrogate = false): string {
  if (hasDtdMarkup(piece)) throw malformed('DTD markup is not accepted');
  if (!hasOnlyXmlChars(piece, noLoneSurrogate)) notWellFormed();
  return normaliseLineEnds(piece);
}

/** The first piece of a document, its byte-order mark removed. */
export function firstPiece(pieces: DocumentPieces): string {
  const first = pieces.read(0);
  return readablePiece(withoutBom(first.text), first.noLoneSurrogate);
}

/**
 * Tags (or attributes of one tag) read between two looks at the clock. The clock is also looked at
 * every time the reader moves on to the next piece, so a slice reads at most PAUSE_EVERY tags and
 * about one piece of text, whatever the document's shape (issue 20 item 2).
 */
export const PAUSE_EVERY = 128;

export class XmlCursor {
  /** The piece being read: every position here (pos, the pending text, nextAmp) is a position in it. */
  text: string;
  /** Where reading goes on from. */
  pos = 0;
  /** The index of the piece after the one being read. */
  private next = 1;
  private deadline = Number.POSITIVE_INFINITY;
  /** Index of the next `&` at or after the last place asked about (2^32 - 1 when there is none). */
  private nextAmp = -1;
  /** The same for `]]>`, which may end a CDATA section only, never stand in text. */
  private nextCdataEnd = -1;
  /** The same for `<`, a tab and a line feed, which an attribute value is searched for (xml-attributes.ts). */
  private nextLt = -1;
  private nextTab = -1;
  private nextLf = -1;
  /**
   * Text since the last markup, in TEXT_ALL: a range of the piece, or, once a comment, PI or the end
   * of a piece split it, the parts read so far, decoded.
   */
  private pendingFrom = -1;
  private pendingTo = -1;
  private pendingRun: TextRun | undefined = undefined;

  /** `text`: the document's first piece as `firstPiece` gives it; the rest comes from `pieces`, one at a time. */
  constructor(text: string, private readonly pieces: DocumentPieces, private readonly sink: ElementSink) {
    this.text = text;
  }

  /** A slice begins that ends at `deadline` (performance.now()). */
  startSlice(deadline: number): void {
    this.deadline = deadline;
  }

  /** Whether the slice is over. */
  due(): boolean {
    return performance.now() > this.deadline;
  }

  /** The next piece, checked and normalised as the first one was; undefined after the last. Read it with `moveTo`. */
  load(): string | undefined {
    if (this.next >= this.pieces.count) return undefined;
    const piece = this.pieces.read(this.next++);
    return readablePiece(piece.text, piece.noLoneSurrogate);
  }

  /** Reading goes on at the start of `piece` (from `load`). Positions in the old piece mean nothing in the new one: pending text is decoded into its run. */
  moveTo(piece: string): void {
    this.pendingToRun();
    this.text = piece;
    this.pos = 0;
    this.nextAmp = -1;
    this.nextCdataEnd = -1;
    this.nextLt = -1;
    this.nextTab = -1;
    this.nextLf = -1;
  }

  /** The next piece, which must exist (the document may not end here), read from its start. */
  nextPieceWithin(): void {
    const piece = this.load();
    if (piece === undefined) notWellFormed();
    this.moveTo(piece as string);
  }

  skipSpace(i: number): number {
    const t = this.text;
    while (i < t.length && isSpace(t.charCodeAt(i))) i++;
    return i;
  }

  /** Whether `text[from, to)` holds an `&`; asked with ever larger `from`. */
  hasAmp(from: number, to: number): boolean {
    if (this.nextAmp < from) this.nextAmp = this.text.indexOf('&', from) >>> 0;
    return this.nextAmp < to;
  }

  /** Whether `text[from, to)` holds a `<`; asked with ever larger `from`. */
  hasLt(from: number, to: number): boolean {
    if (this.nextLt < from) this.nextLt = this.text.indexOf('<', from) >>> 0;
    return this.nextLt < to;
  }

  /** Whether `text[from, to)` holds a tab or a line feed; asked with ever larger `from`. */
  hasTabOrLf(from: number, to: number): boolean {
    if (this.nextTab < from) this.nextTab = this.text.indexOf('\t', from) >>> 0;
    if (this.nextLf < from) this.nextLf = this.text.indexOf('\n', from) >>> 0;
    return this.nextTab < to || this.nextLf < to;
  }

  private hasCdataEnd(from: number, to: number): boolean {
    if (this.nextCdataEnd < from) this.nextCdataEnd = this.text.indexOf(']]>', from) >>> 0;
    return this.nextCdataEnd < to;
  }

  /** Refuses text `text[from, to)` that holds `]]>`, which may end a CDATA section only. */
  checkText(from: number, to: number): void {
    if (this.hasCdataEnd(from, to)) notWellFormed();
  }

  /** Text between markup: collected for the builder in TEXT_ALL, looked at in TEXT_ANY, checked everywhere. */
  textSegment(from: number, to: number): void {
    const t = this.text;
    this.checkText(from, to);
    const mode = this.sink.textMode;
    if (mode === TEXT_ALL) {
      if (this.pendingFrom < 0 && this.pendingRun === undefined) {
        this.pendingFrom = from;
        this.pendingTo = to;
      } else {
        // A comment, PI or cut between parts of text: they are one text.
        this.pendingToRun();
        (this.pendingRun as TextRun).add(t.slice(from, to));
      }
      return;
    }
    let blank = true;
    if (mode === TEXT_ANY) for (let k = from; k < to && blank; k++) blank = isSpace(t.charCodeAt(k));
    if (blank && !this.hasAmp(from, to)) return;
    const decoded = decodeReferences(t.slice(from, to));
    if (decoded === undefined) notWellFormed();
    if (mode === TEXT_ANY && (decoded as string).trim() !== '') this.sink.textInObject();
  }

  /** A part of a CDATA section: in TEXT_ALL text as it stands, neither trimmed nor decoded; in TEXT_ANY, text unless blank. */
  cdataPart(from: number, to: number): void {
    const t = this.text;
    const mode = this.sink.textMode;
    if (mode === TEXT_ALL) {
      if (to > from) this.sink.text(t.slice(from, to));
    } else if (mode === TEXT_ANY) {
      for (let k = from; k < to; k++) {
        if (!isSpace(t.charCodeAt(k))) {
          if (t.slice(from, to).trim() !== '') this.sink.textInObject();
          break;
        }
      }
    }
  }

  /**
   * In TEXT_ALL, the text collected since the last markup, decoded, given to the builder: before a
   * child element or a CDATA section as a part of the element's text, kept untrimmed; at the
   * element's end (`atEnd`) trimmed when it is the whole of it. An element's text is all its parts
   * joined in document order (docs/upstream-ehr.md#1-rules-every-document-follows): a part beside
   * CDATA or a child keeps its spaces (`Dos: <![CDATA[<5 mg]]> per dygn`), and the leaf's conversion
   * trims the joined ends.
   */
  giveText(atEnd: boolean): void {
    const sink = this.sink;
    if (sink.textMode !== TEXT_ALL) return;
    const whole = atEnd && !sink.textBegun;
    let s: string;
    if (this.pendingRun !== undefined) {
      this.pendingToRun();
      s = whole ? this.pendingRun.trimmed() : this.pendingRun.untrimmed();
      this.pendingRun = undefined;
    } else if (this.pendingFrom >= 0) {
      s = whole ? this.trimmedValue(this.pendingFrom, this.pendingTo) : this.decoded(this.text.slice(this.pendingFrom, this.pendingTo), this.pendingFrom, this.pendingTo);
      this.pendingFrom = -1;
    } else {
      return;
    }
    if (s !== '') sink.text(s);
  }

  /** The pending range of this piece, if any, decoded into the pending run. */
  private pendingToRun(): void {
    if (this.pendingFrom < 0) return;
    (this.pendingRun ??= new TextRun(false)).add(this.text.slice(this.pendingFrom, this.pendingTo));
    this.pendingFrom = -1;
  }

  /**
   * `text[from, to)` trimmed (String.prototype.trim) and decoded; '' when blank. `normalise`: an
   * attribute value, whose literal tabs and line feeds XML reads as spaces.
   */
  trimmedValue(from: number, to: number, normalise = false): string {
    const t = this.text;
    while (from < to && isTrimSpace(t.charCodeAt(from))) from++;
    while (to > from && isTrimSpace(t.charCodeAt(to - 1))) to--;
    if (from === to) return '';
    let s = t.slice(from, to);
    // Past ASCII whitespace, trim() also takes Unicode spaces: let it decide at a non-ASCII edge.
    if (t.charCodeAt(from) >= 128 || t.charCodeAt(to - 1) >= 128) s = s.trim();
    if (normalise) s = s.replace(/[\t\n]/g, ' ');
    return this.decoded(s, from, to);
  }

  /** `s`, the text of `[from, to)` or part of it, with its references decoded. */
  private decoded(s: string, from: number, to: number): string {
    if (!this.hasAmp(from, to)) return s;
    const decoded = decodeReferences(s);
    if (decoded === undefined) notWellFormed();
    return decoded as string;
  }
}
