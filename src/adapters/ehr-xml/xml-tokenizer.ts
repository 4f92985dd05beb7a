/**
 * The tokenizer of the XML reader (docs/xml-reader.md): walks a document's pieces once, checks that
 * it is well-formed XML 1.0 as the upstream format uses it (docs/upstream-ehr.md#1-rules-every-document-follows),
 * and tells the builder (xml-sink.ts) what it holds: elements opening and closing, attributes and
 * text. Every refusal of a document for what it is as XML is made here or in the parts it reads
 * with, and thrown where it is found, before the builder hears of what was refused: the piece and
 * its text (xml-cursor.ts), markup (xml-markup.ts), names (xml-names.ts), attributes (xml-attributes.ts).
 *
 * Here: the document's outline. Nothing but whitespace, comments and PIs around one root element
 * (no root, or text outside it, is not well-formed XML); an end tag names the element it closes; an
 * element nests at most MAX_DEPTH deep and is not named `__proto__`, `constructor` or `prototype`
 * below the root (both 'not parseable XML'). A root of another name ('unexpected root element') or
 * a second one ('more than one root element') is read to the end as a skipped element and refused
 * once the whole document has shown itself well-formed.
 *
 * Slices: the clock is looked at every PAUSE_EVERY tags, between attributes and at every piece, so
 * a slice reads a bounded amount whatever the document's shape; an explicit stack instead of
 * recursion; every character is read a bounded number of times (issue 20 item 2).
 */
import type { DocumentPieces } from './document-pieces.js';
import { malformed, notWellFormed } from './malformed-document-error.js';
import { AttributeReader } from './xml-attributes.js';
import { PAUSE_EVERY, XmlCursor } from './xml-cursor.js';
import { afterDeclaration, MarkupReader } from './xml-markup.js';
import { isForbiddenName, NameReader } from './xml-names.js';
import { TEXT_ALL, type ElementSink } from './xml-sink.js';
import { MAX_DEPTH } from './xml-text.js';

export class XmlTokenizer {
  private readonly cursor: XmlCursor;
  private readonly markup: MarkupReader;
  private readonly attributes: AttributeReader;
  private readonly name = new NameReader();
  /** The open elements' names as written, for their end tags: the length is the depth. */
  private readonly open: string[] = [];
  private phase: 'prolog' | 'content' | 'epilog' | 'done' = 'prolog';
  /** Paused inside a start tag's attributes. */
  private inTag = false;
  /** Paused in the whitespace before an end tag's `>`. */
  private inEndTag = false;
  private rootSeen = false;
  /** A wrong or second root element: thrown once the document has been read. */
  private rootFault: Error | undefined = undefined;

  /**
   * @param text the document's first piece as `firstPiece` gives it; the rest comes from `pieces`
   * @param root the local name of the root element the document must have
   */
  constructor(text: string, pieces: DocumentPieces, private readonly root: string, private readonly sink: ElementSink) {
    this.cursor = new XmlCursor(text, pieces, sink);
    this.markup = new MarkupReader(this.cursor);
    this.attributes = new AttributeReader(this.cursor, sink);
  }

  /**
   * Reads until the document is done (true) or `deadline` (performance.now()) has passed (false).
   * Throws MalformedDocumentError when the document is refused as XML.
   */
  run(deadline = Number.POSITIVE_INFINITY): boolean {
    this.cursor.startSlice(deadline);
    try {
      while (this.phase !== 'done') {
        if (this.markup.isOpen && !this.markup.goOn()) return false;
        if (this.phase === 'prolog') {
          this.cursor.pos = afterDeclaration(this.cursor.text);
          this.phase = 'epilog';
        } else if (this.phase === 'content') {
          if (!this.content()) return false;
          // Set here, not at the end of content's loop: a store there, reached once per document
          // after the loop had been compiled without feedback for it, threw that compiled code
          // away at the end of every document (issue 56 item 3).
          this.phase = 'epilog';
        } else if (!this.epilog()) {
          return false;
        }
      }
    } catch (err) {
      this.phase = 'done';
      throw err;
    }
    if (this.rootFault !== undefined) throw this.rootFault;
    return true;
  }

  private content(): boolean {
    const cursor = this.cursor;
    let tags = 0;
    if (this.inTag && !this.resumeTag()) return false;
    if (this.inEndTag && !this.endTagEnd()) return false;
    while (this.open.length > 0) {
      if (++tags === PAUSE_EVERY) {
        tags = 0;
        if (cursor.due()) return false;
      }
      const t = cursor.text;
      const i = cursor.pos;
      // The commonest text, whitespace between tags, is read here up to its `<`, without a search
      // for it; only text that is more than that, or that the builder takes whole, is a segment
      // (whitespace holds no `&` or `]]>` for it to check): issue 56 item 3.
      const blankTo = cursor.skipSpace(i);
      const lt = t.charCodeAt(blankTo) === 60 ? blankTo : t.indexOf('<', blankTo);
      if (lt < 0) {
        if (!this.toNextPiece(i)) notWellFormed();
        if (cursor.due()) return false;
        continue;
      }
      if (lt > i && (lt > blankTo || this.sink.textMode === TEXT_ALL)) cursor.textSegment(i, lt);
      const c1 = t.charCodeAt(lt + 1);
      if (c1 === 47) {
        if (!this.endTag(lt)) return false;
      } else if (c1 === 33) {
        if (!this.markup.bang(lt)) return false;
      } else if (c1 === 63) {
        if (!this.markup.pi(lt)) return false;
      } else {
        this.startTag(lt, false);
      }
      if (this.inTag) return false;
    }
    return true;
  }

  /**
   * Before and after the root: whitespace, comments and PIs, then the root element (or a second one,
   * refused once it has been read too), or the end of the document. False when the slice ended
   * before the next element or the end of the document.
   */
  private epilog(): boolean {
    const cursor = this.cursor;
    const i = this.skipMisc(cursor.pos);
    if (i < 0) return false;
    if (i >= cursor.text.length) {
      if (!this.rootSeen && this.rootFault === undefined) notWellFormed();
      this.phase = 'done';
      return true;
    }
    if (cursor.text.charCodeAt(i) !== 60) notWellFormed();
    this.phase = 'content';
    this.startTag(i, true);
    if (this.open.length === 0 && !this.inTag) this.phase = 'epilog';
    return true;
  }

  /**
   * Past whitespace, comments and PIs before or after the root, into further pieces as needed: the
   * index of the first other character, the text's length when the document ends first, or -1 when
   * the slice ended (inside a comment or PI, or at a piece; it goes on from `pos`).
   */
  private skipMisc(from: number): number {
    const cursor = this.cursor;
    let i = from;
    for (;;) {
      i = cursor.skipSpace(i);
      if (i >= cursor.text.length) {
        const piece = cursor.load();
        if (piece === undefined) return i;
        cursor.moveTo(piece);
        i = 0;
        if (cursor.due()) return -1;
        continue;
      }
      if (cursor.text.startsWith('<!--', i)) {
        if (!this.markup.comment(i)) return -1;
      } else if (cursor.text.startsWith('<?', i)) {
        if (!this.markup.pi(i)) return -1;
      } else {
        return i;
      }
      i = cursor.pos;
    }
  }

  /** At the end of a piece: its trailing text, then the next piece from its start. False when it was the last. */
  private toNextPiece(i: number): boolean {
    const cursor = this.cursor;
    const piece = cursor.load();
    if (piece === undefined) return false;
    if (i < cursor.text.length) cursor.textSegment(i, cursor.text.length);
    cursor.moveTo(piece);
    return true;
  }

  /**
   * The start tag at `lt`: its name, matched in place when it is one the builder knows there, else
   * read, then its attributes. The text before it is a part of its parent's.
   */
  private startTag(lt: number, isRoot: boolean): void {
    const open = this.open;
    if (open.length >= MAX_DEPTH) throw malformed('not parseable XML');
    const cursor = this.cursor;
    const sink = this.sink;
    const name = this.name;
    if (!isRoot && sink.textMode === TEXT_ALL) cursor.giveText(false);
    const t = cursor.text;
    const known = isRoot ? undefined : sink.knownNames;
    const id = known === undefined ? -1 : name.readKnown(t, lt + 1, known);
    if (id >= 0) {
      if (t.charCodeAt(name.end) === 62 && sink.isLeaf(id) && this.wholeLeaf(t, name.end + 1, name.known, id)) return;
      open.push(name.known);
      sink.openKnown(id);
    } else {
      name.read(t, lt + 1);
      const end = name.end;
      const localFrom = name.colon < 0 ? lt + 1 : name.colon + 1;
      const qname = t.slice(lt + 1, end);
      if (isRoot) {
        this.openRoot(t, localFrom, end);
      } else {
        if (isForbiddenName(t, localFrom, end)) throw malformed('not parseable XML');
        sink.openOther(qname, t, localFrom, end);
      }
      open.push(qname);
    }
    // Most tags have no attributes: their `>` is read here, without the attribute reader.
    const end = name.end;
    this.afterAttributes(t.charCodeAt(end) === 62 ? end : this.attributes.read(end, true));
  }

  /**
   * A leaf's start tag without attributes ending at `from`: when its text and end tag follow in
   * this piece with no markup between (`<name>text</name>`, most elements of a document), all of
   * it is read here and given the builder in one call, without the frame, the open name and the
   * pending text the general path keeps for it (issue 56 item 3). The same checks and the same
   * text as that path: `]]>` refused, trimmed, then references decoded. False, nothing read, when
   * anything else follows: the general path reads it.
   */
  private wholeLeaf(t: string, from: number, qname: string, id: number): boolean {
    const lt = t.indexOf('<', from);
    if (lt < 0 || t.charCodeAt(lt + 1) !== 47 || !t.startsWith(qname, lt + 2)) return false;
    const end = lt + 2 + qname.length;
    if (t.charCodeAt(end) !== 62) return false;
    const cursor = this.cursor;
    cursor.checkText(from, lt);
    this.sink.knownLeaf(id, cursor.trimmedValue(from, lt));
    cursor.pos = end + 1;
    return true;
  }

  /** A root element named `t[localFrom, end)`; a wrong or second root is read as a skipped element and refused at the end. */
  private openRoot(t: string, localFrom: number, end: number): void {
    const named = end - localFrom === this.root.length && t.startsWith(this.root, localFrom);
    if (!named || this.rootSeen) {
      this.rootFault ??= malformed(named ? 'more than one root element' : 'unexpected root element');
      this.sink.openRoot(false);
      return;
    }
    this.rootSeen = true;
    this.sink.openRoot(true);
  }

  /** After a start tag's attributes: `close` is its `>` or `/`, or -1 when reading paused inside it. */
  private afterAttributes(close: number): void {
    this.inTag = close < 0;
    if (this.inTag) return;
    const cursor = this.cursor;
    if (cursor.text.charCodeAt(close) === 47) {
      cursor.pos = close + 2;
      this.close();
    } else {
      cursor.pos = close + 1;
    }
  }

  /** Goes on with the attributes of the tag reading paused in; false when it pauses again. */
  private resumeTag(): boolean {
    this.afterAttributes(this.attributes.read(this.cursor.pos, false));
    return !this.inTag;
  }

  /** The end tag at `lt`, which must name the open element; false when the slice ended inside it. */
  private endTag(lt: number): boolean {
    const cursor = this.cursor;
    const qname = this.open[this.open.length - 1] as string;
    const t = cursor.text;
    if (!t.startsWith(qname, lt + 2)) notWellFormed();
    const end = lt + 2 + qname.length;
    // Most end tags have their `>` right after the name.
    if (t.charCodeAt(end) === 62) {
      cursor.pos = end + 1;
      this.close();
      return true;
    }
    cursor.pos = end;
    return this.endTagEnd();
  }

  /**
   * The rest of an end tag from `pos`: whitespace, into further pieces as needed, then `>`. False
   * when the slice ended at a piece first (reading goes on here).
   */
  private endTagEnd(): boolean {
    const cursor = this.cursor;
    let j = cursor.skipSpace(cursor.pos);
    while (j >= cursor.text.length) {
      // A cut may fall in the whitespace before `>` (document-pieces.ts).
      cursor.nextPieceWithin();
      if (cursor.due()) {
        this.inEndTag = true;
        return false;
      }
      j = cursor.skipSpace(0);
    }
    this.inEndTag = false;
    if (cursor.text.charCodeAt(j) !== 62) notWellFormed();
    cursor.pos = j + 1;
    this.close();
    return true;
  }

  /** The open element ends: its text, then its end, to the builder. */
  private close(): void {
    if (this.sink.textMode === TEXT_ALL) this.cursor.giveText(true);
    this.open.pop();
    this.sink.close();
  }
}
