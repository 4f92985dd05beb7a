/**
 * The XML reader: the one engine that reads every upstream document (docs/upstream-ehr.md#5-how-the-service-reads-a-document). XML text goes
 * straight to the mapped records, driven by the compiled shape (no intermediate tree), with an
 * explicit stack instead of recursion and a pause point between tags (and between attributes) so a
 * large document is read in slices.
 *
 * It reads XML 1.0 as the upstream format uses it (docs/upstream-ehr.md#1-rules-every-document-follows: a declaration, comments, processing
 * instructions, CDATA, the five entities and character references, names in any script, prefixes)
 * and refuses whatever is not well-formed, itself: an undeclared entity such as `&nbsp;`, a
 * character XML forbids, a DTD, a mismatched tag. Those refusals are thrown where they are found.
 * A document that is well-formed but cannot be mapped (a repeated element, a missing required one,
 * a failed conversion) is refused only once the whole of it has been read, so the first refusal a
 * document earns for being malformed XML always wins. A conforming third-party parser (saxes) is
 * its differential oracle in the tests (test/adapters/ehr-xml/reference/).
 */
import type { DocumentPieces } from './document-pieces.js';
import { malformed } from './malformed-document-error.js';
import { rawValue, type RawValue } from './raw-leaf.js';
import { KeptTexts } from './kept-text.js';
import { TextRun } from './text-run.js';
import type { CompiledField, CompiledObject, MapContext } from './shape.js';
import { attributeKey, elementField, lookUp, lookupOf, type ShapeLookup } from './shape-lookup.js';
import {
  decodeReferences, FORBIDDEN_NAMES, hasDtdMarkup, hasOnlyXmlChars, isNamePair, isNonAsciiNameChar, isNonAsciiNameStart,
  isSpace, isTrimSpace, MAX_DEPTH, NAME_CHAR, NAME_START, normaliseLineEnds, RESERVED_NAMES, withoutBom,
} from './xml-text.js';

type Out = Record<string, unknown>;

const notWellFormed = (): never => {
  throw malformed('not well-formed XML');
};

/**
 * A piece of the document as the reader reads it: DTD markup and characters XML forbids refused,
 * line ends normalised (`\r\n?` -> `\n`). A cut never falls inside a CR LF pair or within QUIET
 * characters of a `<` (document-pieces.ts), so DTD markup and line ends lie within one piece.
 */
export function readablePiece(piece: string): string {
  if (hasDtdMarkup(piece)) throw malformed('DTD markup is not accepted');
  if (!hasOnlyXmlChars(piece)) notWellFormed();
  return normaliseLineEnds(piece);
}

/** The first piece of a document, its byte-order mark removed. */
export const firstPiece = (pieces: DocumentPieces): string => readablePiece(withoutBom(pieces.piece(0)));

/** A slot of a single field that was present but mapped to nothing (kept apart from "never seen"). */
const ABSENT: unique symbol = Symbol('absent');

const OBJECT = 0;
const LEAF = 1;
const SKIP = 2;

/** One open element: an object collects its fields' values, a leaf the makings of its raw value. */
class Frame {
  slots: unknown[] | undefined = undefined;
  lookup: ShapeLookup | undefined = undefined;
  hasAttrs = false;
  hasChildren = false;
  /** Text other than whitespace in an object element (refused when it has nothing else). */
  hasText = false;
  nil = false;
  text: string | undefined = undefined;
  kids: (string | RawValue)[] | undefined = undefined;
  attrs: string[] | undefined = undefined;
  /** An object whose shape has `$self`: its text is collected as a leaf's is. */
  collectsText = false;

  constructor(
    readonly kind: number,
    /** The tag's name as written (with its prefix), for the end tag. */
    readonly qname: string,
    /** For a leaf's inner elements: the name its parent keys it by. */
    readonly local: string,
    /** The field this element fills in the enclosing object (objects and a leaf's top element). */
    readonly field: CompiledField | undefined,
    readonly fieldIndex: number,
    readonly shape: CompiledObject | undefined,
  ) {
    if (shape !== undefined) {
      this.slots = new Array<unknown>(shape.fields.length);
      this.lookup = lookupOf(shape);
      this.collectsText = shape.selfIndex >= 0;
    }
  }
}

/** The frame of an element that fills field `k` of its parent object, written as `qname`. */
const fieldFrame = (f: CompiledField, k: number, qname: string): Frame =>
  new Frame(f.object ? OBJECT : LEAF, qname, f.name, f, k, f.object);

/** XML 1.0's XMLDecl after `<?xml`: version 1.0, then optionally encoding and standalone, in that order. */
const DECLARATION_BODY = /^[ \t\n]+version[ \t\n]*=[ \t\n]*(?:"1\.0"|'1\.0')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"[A-Za-z][\w.-]*"|'[A-Za-z][\w.-]*'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\n]*$/;
/**
 * Tags (or attributes of one tag) read between two looks at the clock. The clock is also looked at
 * every time the reader moves on to the next piece, so a slice reads at most PAUSE_EVERY tags and
 * about one piece of text, whatever the document's shape (issue 20 item 2).
 */
const PAUSE_EVERY = 128;
/** Attributes of one tag checked for repeats in place; past this many, by a map. */
const INDEXED_ATTRIBUTES = 32;
const NO_SLOTS: readonly unknown[] = [];

/** Markup the reader follows from piece to piece, and the text that closes each. */
type Markup = 'comment' | 'pi' | 'cdata';
const CLOSES: Readonly<Record<Markup, string>> = { comment: '--', pi: '?>', cdata: ']]>' };


export class FastReader {
  private pos = 0;
  /** Index of the next `&` at or after the last place asked about (2^32 - 1 when there is none). */
  private nextAmp = -1;
  /** The same for `]]>`, which may end a CDATA section only, never stand in text. */
  private nextCdataEnd = -1;
  private readonly stack: Frame[] = [];
  /**
   * Text since the last markup: a range of the piece, or, once a comment, PI or the end of a piece
   * split it, the parts read so far, decoded.
   */
  private pendingFrom = -1;
  private pendingTo = -1;
  private pendingRun: TextRun | undefined = undefined;
  /** A comment, PI or CDATA section that runs on into later pieces, read on from `pos`. */
  private markup: Markup | undefined = undefined;
  /** An attribute value that runs on into later pieces, read on from `pos`: its quote, and its parts (none when it is only checked). */
  private value: { quote: string; run: TextRun | undefined } | undefined = undefined;
  /** What the attribute being read goes to, set from its name by `attributeName`. */
  private attrDiscard = false;
  private attrKey = '';
  private attrNil = false;
  private attrField: number | undefined = undefined;
  /** The current tag's attributes (qname from, local from, to), for the repeat check; past INDEXED_ATTRIBUTES, a map. */
  private readonly attrNames = new Int32Array(3 * INDEXED_ATTRIBUTES);
  private attrCount = 0;
  private attrMap: Map<string, string> | undefined = undefined;
  /** Set by `name`: where the name ends and where its colon is (-1 when unprefixed). */
  private nameEnd = 0;
  private nameColon = -1;
  private phase: 'prolog' | 'content' | 'epilog' | 'done' = 'prolog';
  /** Paused inside a start tag's attributes (at `pos`). */
  private inTag = false;
  private deadline = Number.POSITIVE_INFINITY;
  private out: Out | undefined;
  /** The first mapping refusal, thrown once the rest of the document has shown itself well-formed. */
  private fault: { error: unknown } | undefined = undefined;
  /** A wrong or second root element: thrown at the end too, before any mapping refusal. */
  private rootFault: Error | undefined = undefined;
  private rootSeen = false;
  /** The index of the piece after the one being read. */
  private nextPiece = 1;
  /** Where the texts the records keep get strings of their own (kept-text.ts); none for a one-piece document. */
  private readonly kept: KeptTexts | undefined;

  /**
   * @param text the document's first piece as `firstPiece` gives it; the rest of the document comes
   *   from `pieces` and is read piece by piece (document-pieces.ts)
   */
  constructor(
    /** The piece being read: positions (pos, pending text, nextAmp) are positions in it. */
    private text: string,
    private readonly pieces: DocumentPieces,
    private readonly root: string,
    private readonly shape: CompiledObject,
    private readonly ctx: MapContext,
  ) {
    this.kept = pieces.count > 1 ? new KeptTexts() : undefined;
  }

  /** The mapped root, once `run` has returned true. */
  get result(): Out | undefined {
    return this.out;
  }

  /**
   * Reads until the document is done (true) or `deadline` (performance.now()) has passed (false).
   * Throws MalformedDocumentError (or what a converter threw) when the document is refused.
   */
  run(deadline = Number.POSITIVE_INFINITY): boolean {
    this.deadline = deadline;
    try {
      while (this.phase !== 'done') {
        if (this.markup !== undefined && !this.continueMarkup()) return false;
        if (this.phase === 'prolog') this.prolog();
        else if (this.phase === 'content') {
          if (!this.content()) return false;
        } else if (!this.epilog()) {
          return false;
        }
      }
    } catch (err) {
      this.phase = 'done';
      throw err;
    }
    if (this.rootFault !== undefined) throw this.rootFault;
    if (this.fault !== undefined) throw this.fault.error;
    return true;
  }

  private prolog(): void {
    const t = this.text;
    let i = 0;
    if (t.startsWith('<?xml', 0) && (isSpace(t.charCodeAt(5)) || t.charCodeAt(5) === 63)) {
      const end = t.indexOf('?>', 5);
      if (end < 0 || !DECLARATION_BODY.test(t.slice(5, end))) notWellFormed();
      i = end + 2;
    }
    this.pos = i;
    this.phase = 'epilog';
  }

  /** Whether the slice is over. */
  private due(): boolean {
    return performance.now() > this.deadline;
  }

  private content(): boolean {
    let tags = 0;
    if (this.inTag && !this.resumeTag()) return false;
    while (this.stack.length > 0) {
      if (++tags === PAUSE_EVERY) {
        tags = 0;
        if (this.due()) return false;
      }
      const t = this.text;
      const i = this.pos;
      const lt = t.indexOf('<', i);
      if (lt < 0) {
        if (!this.toNextPiece(i)) notWellFormed();
        if (this.due()) return false;
        continue;
      }
      if (lt > i) this.textSegment(i, lt);
      const c1 = t.charCodeAt(lt + 1);
      if (c1 === 47) this.closeTag(lt);
      else if (c1 === 33) {
        if (!this.bang(lt)) return false;
      } else if (c1 === 63) {
        if (!this.pi(lt)) return false;
      } else {
        this.openTag(lt, false);
      }
      if (this.inTag) return false;
    }
    this.phase = 'epilog';
    return true;
  }

  /**
   * Before and after the root: whitespace, comments and PIs, then the root element (or a second one,
   * refused once it has been read too), or the end of the document. False when the slice ended
   * before the next element or the end of the document.
   */
  private epilog(): boolean {
    const i = this.skipMisc(this.pos);
    if (i < 0) return false;
    if (i >= this.text.length) {
      if (!this.rootSeen && this.rootFault === undefined) notWellFormed();
      this.phase = 'done';
      return true;
    }
    if (this.text.charCodeAt(i) !== 60) notWellFormed();
    this.phase = 'content';
    this.openTag(i, true);
    if (this.stack.length === 0 && !this.inTag) this.phase = 'epilog';
    return true;
  }

  /**
   * Past whitespace, comments and PIs before or after the root, into further pieces as needed: the
   * index of the first other character, the text's length when the document ends first, or -1 when
   * the slice ended (inside a comment or PI, or at a piece; it goes on from `pos`).
   */
  private skipMisc(from: number): number {
    let i = from;
    for (;;) {
      i = this.skipSpace(i);
      if (i >= this.text.length) {
        const piece = this.load();
        if (piece === undefined) return i;
        this.switchTo(piece);
        i = 0;
        this.pos = 0;
        if (this.due()) return -1;
        continue;
      }
      if (this.text.startsWith('<!--', i)) {
        if (!this.openMarkup('comment', i + 4)) return -1;
      } else if (this.text.startsWith('<?', i)) {
        if (!this.pi(i)) return -1;
      } else {
        return i;
      }
      i = this.pos;
    }
  }

  /** The next piece, checked and normalised as the first one was; undefined after the last. */
  private load(): string | undefined {
    if (this.nextPiece >= this.pieces.count) return undefined;
    return readablePiece(this.pieces.piece(this.nextPiece++));
  }

  /** Positions in the old piece mean nothing in the new one: pending text is decoded into its run. */
  private switchTo(text: string): void {
    this.pendingToRun();
    this.text = text;
    this.nextAmp = -1;
    this.nextCdataEnd = -1;
  }

  /** At the end of a piece: its trailing text, then the next piece from its start. False when it was the last. */
  private toNextPiece(i: number): boolean {
    const piece = this.load();
    if (piece === undefined) return false;
    if (i < this.text.length) this.textSegment(i, this.text.length);
    this.switchTo(piece);
    this.pos = 0;
    return true;
  }

  /** The next piece, which must exist, read from its start. */
  private toNextPieceWithin(): void {
    const piece = this.load();
    if (piece === undefined) notWellFormed();
    this.switchTo(piece as string);
    this.pos = 0;
  }

  private skipSpace(i: number): number {
    const t = this.text;
    while (i < t.length && isSpace(t.charCodeAt(i))) i++;
    return i;
  }

  /**
   * Reads a comment, PI or CDATA section whose body starts at `bodyFrom` to its end, from piece to
   * piece as it runs on (a cut may fall before a `<` in it, or anywhere in a long one), each part
   * searched once: true once it ended (`pos` past it), false when the slice ended first.
   */
  private openMarkup(markup: Markup, bodyFrom: number): boolean {
    if (markup === 'cdata') {
      const top = this.top();
      if (top.kind === LEAF || top.collectsText) this.flush(top);
    }
    this.markup = markup;
    this.pos = bodyFrom;
    return this.continueMarkup();
  }

  /** Goes on with the open markup from `pos`; false when the slice ends before it does. */
  private continueMarkup(): boolean {
    const markup = this.markup as Markup;
    const close = CLOSES[markup];
    for (;;) {
      const t = this.text;
      const end = t.indexOf(close, this.pos);
      if (markup === 'cdata') this.cdataText(this.pos, end < 0 ? t.length : end);
      if (end >= 0) {
        // `--` may only close a comment.
        if (markup === 'comment' && t.charCodeAt(end + 2) !== 62) notWellFormed();
        this.pos = end + close.length + (markup === 'comment' ? 1 : 0);
        this.markup = undefined;
        return true;
      }
      this.toNextPieceWithin();
      if (this.due()) return false;
    }
  }

  /** The processing instruction at `lt`, skipped (see openMarkup). Its target may not be `xml` in any case. */
  private pi(lt: number): boolean {
    this.name(lt + 2);
    const t = this.text;
    const targetLength = this.nameEnd - lt - 2;
    if (targetLength === 3 && t.slice(lt + 2, this.nameEnd).toLowerCase() === 'xml') notWellFormed();
    const c = t.charCodeAt(this.nameEnd);
    if (c === 63) {
      if (t.charCodeAt(this.nameEnd + 1) !== 62) notWellFormed();
      this.pos = this.nameEnd + 2;
      return true;
    }
    if (!isSpace(c)) notWellFormed();
    return this.openMarkup('pi', this.nameEnd);
  }

  /** Whether `text[from, to)` holds an `&`; asked with ever larger `from`. */
  private hasAmp(from: number, to: number): boolean {
    if (this.nextAmp < from) this.nextAmp = this.text.indexOf('&', from) >>> 0;
    return this.nextAmp < to;
  }

  private hasCdataEnd(from: number, to: number): boolean {
    if (this.nextCdataEnd < from) this.nextCdataEnd = this.text.indexOf(']]>', from) >>> 0;
    return this.nextCdataEnd < to;
  }

  /**
   * `text[from, to)` trimmed (String.prototype.trim) and decoded; '' when blank. `normalise`: an
   * attribute value, whose literal tabs and line feeds XML reads as spaces.
   */
  private trimmedValue(from: number, to: number, normalise = false): string {
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

  /** `text[from, to)` decoded, untrimmed: a piece of a text that CDATA or a child continues. */
  private decodedValue(from: number, to: number): string {
    return this.decoded(this.text.slice(from, to), from, to);
  }

  /** `s`, the text of `[from, to)` or part of it, with its references decoded. */
  private decoded(s: string, from: number, to: number): string {
    if (!this.hasAmp(from, to)) return s;
    const decoded = decodeReferences(s);
    if (decoded === undefined) notWellFormed();
    return decoded as string;
  }

  /** `<!--` or `<![CDATA[` (see openMarkup); any other `<!` (DTD markup was refused before) is not well-formed. */
  private bang(at: number): boolean {
    if (this.text.startsWith('<!--', at)) return this.openMarkup('comment', at + 4);
    if (!this.text.startsWith('<![CDATA[', at)) notWellFormed();
    return this.openMarkup('cdata', at + 9);
  }

  /** A part of a CDATA section: text of a leaf, neither trimmed nor decoded; in an object, text unless blank. */
  private cdataText(from: number, to: number): void {
    const t = this.text;
    const top = this.top();
    if (top.kind === LEAF || top.collectsText) {
      if (to > from) this.addText(top, t.slice(from, to));
    } else if (top.kind === OBJECT && !top.hasText) {
      for (let k = from; k < to; k++) {
        if (!isSpace(t.charCodeAt(k))) {
          if (t.slice(from, to).trim() !== '') top.hasText = true;
          break;
        }
      }
    }
  }

  /** A text or attribute value the records may keep, in a string of its own when the document has several pieces. */
  private keep(s: string): string {
    return this.kept === undefined ? s : this.kept.keep(s);
  }

  private top(): Frame {
    return this.stack[this.stack.length - 1] as Frame;
  }

  private addText(frame: Frame, part: string): void {
    const s = this.keep(part);
    frame.text = frame.text === undefined ? s : frame.text + s;
  }

  /** Text between markup: kept for a leaf, only whitespace allowed in an object, checked everywhere. */
  private textSegment(from: number, to: number): void {
    const t = this.text;
    if (this.hasCdataEnd(from, to)) notWellFormed();
    const top = this.top();
    if (top.kind === LEAF || top.collectsText) {
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
    if (top.kind === OBJECT) for (let k = from; k < to && blank; k++) blank = isSpace(t.charCodeAt(k));
    if (blank && !this.hasAmp(from, to)) return;
    const decoded = decodeReferences(t.slice(from, to));
    if (decoded === undefined) notWellFormed();
    if (top.kind === OBJECT && (decoded as string).trim() !== '') top.hasText = true;
  }

  /**
   * The text collected since the last markup, decoded, added to `frame`'s text. An element's text is
   * all its pieces joined in document order (docs/upstream-ehr.md#1-rules-every-document-follows):
   * only a lone piece, the whole text, may be trimmed here; a piece beside CDATA or a child keeps
   * its spaces (`Dos: <![CDATA[<5 mg]]> per dygn`), and the leaf's conversion trims the joined ends.
   */
  private flush(frame: Frame, whole = false): void {
    let s: string;
    if (this.pendingRun !== undefined) {
      this.pendingToRun();
      s = whole ? this.pendingRun.trimmed() : this.pendingRun.untrimmed();
      this.pendingRun = undefined;
    } else if (this.pendingFrom >= 0) {
      s = whole ? this.trimmedValue(this.pendingFrom, this.pendingTo) : this.decodedValue(this.pendingFrom, this.pendingTo);
      this.pendingFrom = -1;
    } else {
      return;
    }
    if (s !== '') this.addText(frame, s);
  }

  /** The pending range of this piece, if any, decoded into the pending run. */
  private pendingToRun(): void {
    if (this.pendingFrom < 0) return;
    (this.pendingRun ??= new TextRun(false)).add(this.text.slice(this.pendingFrom, this.pendingTo));
    this.pendingFrom = -1;
  }

  /** Reads an XML name with at most one `prefix:` into nameEnd / nameColon. */
  private name(from: number): void {
    const t = this.text;
    let j = this.nameStart(from);
    let colon = -1;
    for (;;) {
      const c = t.charCodeAt(j);
      if (c < 128) {
        if (NAME_CHAR[c] === 1) {
          j++;
        } else if (c === 58 && colon < 0) {
          colon = j;
          j = this.nameStart(j + 1);
        } else {
          break;
        }
      } else if (isNonAsciiNameChar(c)) {
        j++;
      } else if (isNamePair(t, j)) {
        j += 2;
      } else {
        break;
      }
    }
    this.nameEnd = j;
    this.nameColon = colon;
  }

  /** Past the name start character at `i`. */
  private nameStart(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c < 128) {
      if (NAME_START[c] !== 1) notWellFormed();
      return i + 1;
    }
    if (isNonAsciiNameStart(c)) return i + 1;
    if (!isNamePair(this.text, i)) notWellFormed();
    return i + 2;
  }

  private openTag(lt: number, isRoot: boolean): void {
    if (this.stack.length >= MAX_DEPTH) throw malformed('not parseable XML');
    if (!isRoot) {
      const parent = this.top();
      if (parent.kind === LEAF || parent.collectsText) this.flush(parent);
    }
    let frame = isRoot ? undefined : this.knownChildFrame(lt);
    let end = this.nameEnd;
    if (frame === undefined) {
      this.name(lt + 1);
      end = this.nameEnd;
      const localFrom = this.nameColon < 0 ? lt + 1 : this.nameColon + 1;
      frame = isRoot ? this.rootFrame(lt, localFrom, end) : this.childFrame(lt, localFrom, end);
    }
    this.stack.push(frame);
    this.attrCount = 0;
    this.attrMap = undefined;
    this.endTag(this.attributes(end, frame));
  }

  /** After a start tag's attributes: `close` is its `>` or `/`, or -1 when reading paused inside it. */
  private endTag(close: number): void {
    this.inTag = close < 0;
    if (this.inTag) return;
    if (this.text.charCodeAt(close) === 47) {
      this.pos = close + 2;
      this.finish();
    } else {
      this.pos = close + 1;
    }
  }

  /** Goes on with the attributes of the tag reading paused in; false when it pauses again. */
  private resumeTag(): boolean {
    this.endTag(this.attributes(this.pos, this.top()));
    return !this.inTag;
  }

  /** The root element's frame; a wrong or second root is read as a skipped element and refused at the end. */
  private rootFrame(lt: number, localFrom: number, end: number): Frame {
    const t = this.text;
    const named = end - localFrom === this.root.length && t.startsWith(this.root, localFrom);
    if (!named || this.rootSeen) {
      this.rootFault ??= malformed(named ? 'more than one root element' : 'unexpected root element');
      return new Frame(SKIP, t.slice(lt + 1, end), t.slice(localFrom, end), undefined, -1, undefined);
    }
    this.rootSeen = true;
    return new Frame(OBJECT, t.slice(lt + 1, end), this.root, undefined, -1, this.shape);
  }

  /**
   * The common case without reading the name character by character: an unprefixed child of an
   * object whose name is one of its fields, matched in place. Anything else (a prefix, an unknown
   * name, a leaf's inner element, a name running on in non-ASCII) goes the general way, which would
   * reach the same frame for the same tag.
   */
  private knownChildFrame(lt: number): Frame | undefined {
    const parent = this.top();
    if (parent.kind !== OBJECT) return undefined;
    const t = this.text;
    const first = t.charCodeAt(lt + 1);
    const candidates = first < 128 ? (parent.lookup as ShapeLookup).elementsByFirst[first] : undefined;
    if (candidates === undefined) return undefined;
    for (let i = 0; i < candidates.length; i += 2) {
      const name = candidates[i] as string;
      const end = lt + 1 + name.length;
      const after = t.charCodeAt(end);
      // The name must end where the field's does: not run on into more name characters or a prefix colon.
      if (after >= 128 || NAME_CHAR[after] === 1 || after === 58 || !t.startsWith(name, lt + 1)) continue;
      const k = candidates[i + 1] as number;
      const f = (parent.shape as CompiledObject).fields[k] as CompiledField;
      parent.hasChildren = true;
      this.nameEnd = end;
      this.nameColon = -1;
      return fieldFrame(f, k, f.name);
    }
    return undefined;
  }

  private childFrame(lt: number, localFrom: number, end: number): Frame {
    const t = this.text;
    const parent = this.top();
    const prefixed = localFrom !== lt + 1;
    if (parent.kind === OBJECT) {
      parent.hasChildren = true;
      const k = elementField(parent.lookup as ShapeLookup, t, localFrom, end);
      if (k !== undefined) {
        const f = (parent.shape as CompiledObject).fields[k] as CompiledField;
        const qname = prefixed ? t.slice(lt + 1, end) : f.name;
        return fieldFrame(f, k, qname);
      }
    }
    let local = t.slice(localFrom, end);
    if (FORBIDDEN_NAMES.has(local)) throw malformed('not parseable XML');
    const qname = prefixed ? t.slice(lt + 1, end) : local;
    if (parent.kind === LEAF) {
      if (RESERVED_NAMES.has(local)) local = `__${local}`;
      return new Frame(LEAF, qname, local, undefined, -1, undefined);
    }
    return new Frame(SKIP, qname, local, undefined, -1, undefined);
  }

  /**
   * Reads the attributes up to `>` or `/>` into `frame`; returns the index of `>` or `/`, or -1 when
   * the deadline passed (every PAUSE_EVERY attributes), `pos` then at the space before the next one.
   */
  private attributes(from: number, frame: Frame): number {
    let j = from;
    if (this.value !== undefined) {
      if (!this.continueValue(frame)) return -1;
      j = this.pos;
    }
    let t = this.text;
    let read = 0;
    for (;;) {
      if (j >= t.length) {
        // A cut may fall after a value or in the whitespace before `>` (document-pieces.ts).
        this.tagOnNextPiece();
        t = this.text;
        j = 0;
        if (this.due()) return -1;
      }
      let c = t.charCodeAt(j);
      if (c === 62) return j;
      if (c === 47) {
        if (t.charCodeAt(j + 1) !== 62) notWellFormed();
        return j;
      }
      if (!isSpace(c)) notWellFormed();
      if (++read === PAUSE_EVERY) {
        read = 0;
        if (this.due()) {
          this.pos = j;
          return -1;
        }
      }
      j = this.skipSpace(j);
      c = t.charCodeAt(j);
      if (c === 62 || c === 47 || j >= t.length) continue;
      const nameFrom = j;
      this.name(j);
      const nameEnd = this.nameEnd;
      const colon = this.nameColon;
      j = this.skipSpace(nameEnd);
      if (t.charCodeAt(j) !== 61) notWellFormed();
      j = this.skipSpace(j + 1);
      const quote = t.charCodeAt(j);
      if (quote !== 34 && quote !== 39) notWellFormed();
      const quoteChar = quote === 34 ? '"' : "'";
      const valueEnd = t.indexOf(quoteChar, j + 1);
      if (valueEnd >= 0) {
        this.attribute(frame, nameFrom, colon, nameEnd, j + 1, valueEnd);
        j = valueEnd + 1;
        continue;
      }
      // The value runs on into later pieces.
      this.attributeName(frame, nameFrom, colon, nameEnd);
      this.value = { quote: quoteChar, run: this.attrDiscard ? undefined : new TextRun(true) };
      this.pos = j + 1;
      if (!this.continueValue(frame)) return -1;
      t = this.text;
      j = this.pos;
    }
  }

  /**
   * Goes on with an attribute value that runs past its piece, from `pos`, a piece at a time: true
   * once its closing quote was read (`pos` after it), false when the slice ended first.
   */
  private continueValue(frame: Frame): boolean {
    const v = this.value as { quote: string; run: TextRun | undefined };
    for (;;) {
      const t = this.text;
      const end = t.indexOf(v.quote, this.pos);
      const to = end < 0 ? t.length : end;
      const lt = t.indexOf('<', this.pos);
      if (lt >= 0 && lt < to) notWellFormed();
      const part = t.slice(this.pos, to);
      if (v.run !== undefined) v.run.add(part);
      else if (decodeReferences(part) === undefined) notWellFormed();
      if (end >= 0) {
        this.value = undefined;
        this.pos = end + 1;
        if (v.run !== undefined) this.attributeValue(frame, v.run.trimmed());
        return true;
      }
      this.tagOnNextPiece();
      if (this.due()) return false;
    }
  }

  /** A start tag runs on into the next piece: the names of its attributes so far become strings first. */
  private tagOnNextPiece(): void {
    this.attributeNamesAsStrings();
    this.toNextPieceWithin();
  }

  /** An attribute read within one piece. */
  private attribute(frame: Frame, nameFrom: number, colon: number, nameEnd: number, from: number, to: number): void {
    this.attributeName(frame, nameFrom, colon, nameEnd);
    const t = this.text;
    // A value holds no `<`; its literal tabs and line feeds read as spaces.
    let spaces = false;
    for (let k = from; k < to; k++) {
      const c = t.charCodeAt(k);
      if (c === 60) notWellFormed();
      if (c === 9 || c === 10) spaces = true;
    }
    if (this.attrDiscard) {
      if (this.hasAmp(from, to) && decodeReferences(t.slice(from, to)) === undefined) notWellFormed();
      return;
    }
    this.attributeValue(frame, this.trimmedValue(from, to, spaces));
  }

  /** From an attribute's name: whether its value is only checked (attrDiscard), else where it goes (attrKey, attrNil, attrField). */
  private attributeName(frame: Frame, nameFrom: number, colon: number, nameEnd: number): void {
    const t = this.text;
    const xmlns = nameEnd - nameFrom >= 5 && t.startsWith('xmlns', nameFrom) && (nameEnd - nameFrom === 5 || colon === nameFrom + 5);
    let localFrom = nameFrom;
    if (colon >= 0 && !xmlns) {
      // Besides namespace declarations, xsi:nil is the only prefixed attribute upstream (docs/upstream-ehr.md#1-rules-every-document-follows):
      // any other could stand for an unprefixed one (`extension` and `q:extension`).
      if (nameEnd - nameFrom !== 7 || !t.startsWith('xsi:nil', nameFrom)) throw malformed('prefixed attribute');
      localFrom = colon + 1;
    }
    this.noRepeat(nameFrom, localFrom, nameEnd);
    this.attrDiscard = xmlns || frame.kind === SKIP;
    if (this.attrDiscard) return;
    if (frame.kind === LEAF) {
      this.attrKey = attributeKey(t, localFrom, nameEnd);
      return;
    }
    this.attrNil = nameEnd - localFrom === 3 && t.startsWith('nil', localFrom);
    this.attrField = lookUp((frame.lookup as ShapeLookup).attributes, t, localFrom, nameEnd);
  }

  /** The value of the attribute attributeName read, trimmed and decoded, given to `frame`. */
  private attributeValue(frame: Frame, value: string): void {
    if (frame.kind === LEAF) {
      (frame.attrs ??= []).push(this.attrKey, this.keep(value));
      return;
    }
    frame.hasAttrs = true;
    if (this.attrNil) frame.nil = value === 'true' || value === '1';
    const k = this.attrField;
    if (k === undefined || this.fault !== undefined) return;
    const f = (frame.shape as CompiledObject).fields[k] as CompiledField;
    try {
      const v = f.convert?.(this.keep(value), f.name, this.ctx);
      // Left unset when empty: a member that may be an attribute or an element is repeated only when both say something.
      if (v !== undefined) (frame.slots as unknown[])[k] = v;
    } catch (err) {
      this.fault = { error: err };
    }
  }

  /**
   * An attribute repeated by local name: by its whole name too, it is not well-formed XML; otherwise
   * (`nil` and `xsi:nil`) a repeat the mapping could only settle by picking one. A namespace
   * declaration goes by its whole name.
   */
  private noRepeat(nameFrom: number, localFrom: number, to: number): void {
    const t = this.text;
    const names = this.attrNames;
    if (this.attrMap === undefined && this.attrCount < INDEXED_ATTRIBUTES) {
      for (let a = 0; a < this.attrCount; a++) {
        const f = names[3 * a + 1] as number;
        if (!sameText(t, f, names[3 * a + 2] as number, localFrom, to)) continue;
        repeated(sameText(t, names[3 * a] as number, f, nameFrom, localFrom));
      }
      names[3 * this.attrCount] = nameFrom;
      names[3 * this.attrCount + 1] = localFrom;
      names[3 * this.attrCount + 2] = to;
    } else {
      const map = this.attributeNamesAsStrings();
      const local = t.slice(localFrom, to);
      const qname = t.slice(nameFrom, to);
      const before = map.get(local);
      if (before !== undefined) repeated(before === qname);
      map.set(local, qname);
    }
    this.attrCount++;
  }

  /** The current tag's attribute names by local name, as strings (past INDEXED_ATTRIBUTES, or once the tag runs past its piece). */
  private attributeNamesAsStrings(): Map<string, string> {
    if (this.attrMap !== undefined) return this.attrMap;
    const t = this.text;
    const names = this.attrNames;
    const map = new Map<string, string>();
    for (let a = 0; a < Math.min(this.attrCount, INDEXED_ATTRIBUTES); a++) {
      map.set(t.slice(names[3 * a + 1] as number, names[3 * a + 2] as number), t.slice(names[3 * a] as number, names[3 * a + 2] as number));
    }
    this.attrMap = map;
    return map;
  }

  private closeTag(lt: number): void {
    const t = this.text;
    const frame = this.top();
    if (!t.startsWith(frame.qname, lt + 2)) notWellFormed();
    let j = this.skipSpace(lt + 2 + frame.qname.length);
    while (j >= this.text.length) {
      // A cut may fall in the whitespace before `>` (document-pieces.ts).
      this.toNextPieceWithin();
      j = this.skipSpace(0);
    }
    if (this.text.charCodeAt(j) !== 62) notWellFormed();
    this.pos = j + 1;
    this.finish();
  }

  /** Closes the top element and hands its value to its parent (unless a mapping refusal came first). */
  private finish(): void {
    const frame = this.stack.pop() as Frame;
    if (frame.kind === SKIP) return;
    if (frame.kind === LEAF || frame.collectsText) this.flush(frame, frame.text === undefined);
    if (this.fault !== undefined) return;
    try {
      this.hand(frame);
    } catch (err) {
      this.fault = { error: err };
    }
  }

  private hand(frame: Frame): void {
    const parent = this.stack[this.stack.length - 1];
    if (frame.kind === LEAF) {
      const raw = rawValue(frame.text, frame.kids, frame.attrs);
      const f = frame.field;
      if (f === undefined) ((parent as Frame).kids ??= []).push(frame.local, raw);
      else this.store(parent as Frame, frame, f.convert?.(raw, f.name, this.ctx));
      return;
    }
    const value = this.build(frame);
    if (parent === undefined) this.out = value;
    else this.store(parent, frame, value);
  }

  private store(parent: Frame, frame: Frame, value: unknown): void {
    const f = frame.field as CompiledField;
    const slots = parent.slots as unknown[];
    const k = frame.fieldIndex;
    if (f.options.many) {
      if (value === undefined) return;
      const items = slots[k] as unknown[] | undefined;
      if (items === undefined) slots[k] = [value];
      else items.push(value);
      return;
    }
    if (slots[k] !== undefined) {
      // An empty element beside the same member's attribute adds nothing (it is absent); a second value repeats it.
      if (value === undefined && f.alsoAttribute) return;
      throw malformed(`repeated ${f.name}`);
    }
    slots[k] = value === undefined ? ABSENT : value;
  }

  /**
   * An object element's mapped value: undefined when it is empty (no attributes, children or text
   * its shape takes) or xsi:nil; text where its shape takes none is refused.
   */
  private build(frame: Frame): Out | undefined {
    const shape = frame.shape as CompiledObject;
    const bare = !frame.hasAttrs && !frame.hasChildren;
    const isRoot = frame.field === undefined;
    if (frame.collectsText) {
      if (!isRoot && (frame.nil || (bare && (frame.text === undefined || frame.text.trim() === '')))) return undefined;
      const self = shape.fields[shape.selfIndex] as CompiledField;
      const v = self.convert?.(frame.text, self.name, this.ctx);
      (frame.slots as unknown[])[shape.selfIndex] = v === undefined ? ABSENT : v;
    } else if (bare && frame.hasText) {
      throw malformed(`unexpected text in ${frame.field?.name ?? this.root}`);
    } else if (!isRoot && (bare || frame.nil)) {
      return undefined;
    }
    return this.fill(shape, frame.slots as unknown[], !isRoot);
  }

  /** The object of `slots` (field values by index); with `orAbsent`, undefined when the shape says so and none was found. */
  private fill(shape: CompiledObject, slots: readonly unknown[], orAbsent: boolean): Out | undefined {
    const out: Out = {};
    const fields = shape.fields;
    let found = 0;
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k] as CompiledField;
      const slot = slots[k];
      const { options } = f;
      if (options.many) {
        out[f.outKey] = slot === undefined ? [] : slot;
        if (slot !== undefined) found++;
        continue;
      }
      let v = slot === ABSENT ? undefined : slot;
      if (v === undefined) {
        if (options.wrapper && f.object) v = this.fill(f.object, NO_SLOTS, false);
        else if (options.required) throw malformed(`missing ${f.name}`);
        else continue;
      } else {
        found++;
      }
      if (f.flattenKey !== undefined) out[f.outKey] = (v as Out)[f.flattenKey];
      else if (options.spread) Object.assign(out, v);
      else out[f.outKey] = v;
    }
    return orAbsent && found === 0 && shape.absentWhenEmpty ? undefined : out;
  }
}

/** `same`: the very same name twice, which XML itself forbids. */
function repeated(same: boolean): never {
  throw malformed(same ? 'not well-formed XML' : 'repeated attribute');
}

/** Whether `t[a, aEnd)` and `t[b, bEnd)` are the same text. */
function sameText(t: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let c = 0; c < aEnd - a; c++) if (t.charCodeAt(a + c) !== t.charCodeAt(b + c)) return false;
  return true;
}
