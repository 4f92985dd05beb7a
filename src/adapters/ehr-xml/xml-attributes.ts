/**
 * The attributes of one start tag, as the tokenizer reads them (xml-tokenizer.ts,
 * docs/xml-reader.md), up to its `>` or `/>`, with a pause point between attributes and a value
 * followed from piece to piece as it runs on.
 *
 * It refuses, as not well-formed XML: an attribute not after whitespace, a name that is not one
 * (xml-names.ts), a missing `=` or quote, `<` in a value, an `&` in a value that is not one of the five
 * entities or a reference to a character XML allows (whether the value is wanted or not), `/`
 * without `>`, and the same attribute twice. By the upstream rules on top of XML
 * (docs/upstream-ehr.md#1-rules-every-document-follows): a prefixed attribute other than `xsi:nil`
 * and namespace declarations ('prefixed attribute': `q:extension` could stand for `extension`),
 * and two attributes of one local name ('repeated attribute': `nil` and `xsi:nil`).
 *
 * A value given to the builder is exact: decoded, its literal tabs and line feeds read as spaces,
 * trimmed at its ends before references are decoded. Namespace declarations are never given.
 */
import { malformed, notWellFormed } from './malformed-document-error.js';
import { TextRun } from './text-run.js';
import { PAUSE_EVERY, type XmlCursor } from './xml-cursor.js';
import { NameReader } from './xml-names.js';
import type { ElementSink } from './xml-sink.js';
import { decodeReferences, isSpace } from './xml-text.js';

/** Attributes of one tag checked for repeats in place; past this many, by a map. */
const INDEXED_ATTRIBUTES = 32;

export class AttributeReader {
  private readonly name = new NameReader();
  /** An attribute value that runs on into later pieces, read on from `pos`: its quote, and its parts (none when it is only checked). */
  private value: { quote: string; run: TextRun | undefined } | undefined = undefined;
  /** Whether the builder wants the value of the attribute being read. */
  private wanted = false;
  /** The current tag's attributes (qname from, local from, to), for the repeat check; past INDEXED_ATTRIBUTES, a map. */
  private readonly names = new Int32Array(3 * INDEXED_ATTRIBUTES);
  private count = 0;
  private map: Map<string, string> | undefined = undefined;

  constructor(private readonly cursor: XmlCursor, private readonly sink: ElementSink) {}

  /**
   * Reads the attributes from `from` up to `>` or `/>` (`first`: of a new tag, none of its
   * attributes read yet): the index of `>` or `/`, or -1 when the deadline passed (looked at every
   * PAUSE_EVERY attributes and at every piece), `pos` then where reading goes on (`read(pos, false)`).
   */
  read(from: number, first: boolean): number {
    if (first) {
      this.count = 0;
      this.map = undefined;
    }
    const cursor = this.cursor;
    let j = from;
    if (this.value !== undefined) {
      if (!this.continueValue()) return -1;
      j = cursor.pos;
    }
    let t = cursor.text;
    let read = 0;
    for (;;) {
      if (j >= t.length) {
        // A cut may fall after a value or in the whitespace before `>` (document-pieces.ts).
        this.tagOnNextPiece();
        t = cursor.text;
        j = 0;
        if (cursor.due()) return -1;
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
        if (cursor.due()) {
          cursor.pos = j;
          return -1;
        }
      }
      // `c` is whitespace; most tags have one space before a name and none around `=` (the
      // checks below spare the whitespace reader's call there: issue 56 item 3).
      j = cursor.skipSpace(j + 1);
      c = t.charCodeAt(j);
      if (c === 62 || c === 47 || j >= t.length) continue;
      const nameFrom = j;
      this.name.read(t, j);
      const nameEnd = this.name.end;
      const colon = this.name.colon;
      j = t.charCodeAt(nameEnd) === 61 ? nameEnd : cursor.skipSpace(nameEnd);
      if (t.charCodeAt(j) !== 61) notWellFormed();
      j++;
      let quote = t.charCodeAt(j);
      if (quote !== 34 && quote !== 39) {
        j = cursor.skipSpace(j);
        quote = t.charCodeAt(j);
      }
      if (quote !== 34 && quote !== 39) notWellFormed();
      const quoteChar = quote === 34 ? '"' : "'";
      const valueEnd = t.indexOf(quoteChar, j + 1);
      if (valueEnd >= 0) {
        this.attribute(nameFrom, colon, nameEnd, j + 1, valueEnd);
        j = valueEnd + 1;
        continue;
      }
      // The value runs on into later pieces.
      this.offer(t, nameFrom, colon, nameEnd);
      this.value = { quote: quoteChar, run: this.wanted ? new TextRun(true) : undefined };
      cursor.pos = j + 1;
      if (!this.continueValue()) return -1;
      t = cursor.text;
      j = cursor.pos;
    }
  }

  /**
   * Goes on with an attribute value that runs past its piece, from `pos`, a piece at a time: true
   * once its closing quote was read (`pos` after it), false when the slice ended first.
   */
  private continueValue(): boolean {
    const cursor = this.cursor;
    const v = this.value as { quote: string; run: TextRun | undefined };
    for (;;) {
      const t = cursor.text;
      const end = t.indexOf(v.quote, cursor.pos);
      const to = end < 0 ? t.length : end;
      const lt = t.indexOf('<', cursor.pos);
      if (lt >= 0 && lt < to) notWellFormed();
      const part = t.slice(cursor.pos, to);
      if (v.run !== undefined) v.run.add(part);
      else if (decodeReferences(part) === undefined) notWellFormed();
      if (end >= 0) {
        this.value = undefined;
        cursor.pos = end + 1;
        if (v.run !== undefined) this.sink.attributeValue(v.run.trimmed());
        return true;
      }
      this.tagOnNextPiece();
      if (cursor.due()) return false;
    }
  }

  /** A start tag runs on into the next piece: the names of its attributes so far become strings first. */
  private tagOnNextPiece(): void {
    this.namesAsStrings();
    this.cursor.nextPieceWithin();
  }

  /** An attribute read within one piece. */
  private attribute(nameFrom: number, colon: number, nameEnd: number, from: number, to: number): void {
    const cursor = this.cursor;
    const t = cursor.text;
    this.offer(t, nameFrom, colon, nameEnd);
    // A value holds no `<`; its literal tabs and line feeds read as spaces. Searched for with
    // indexOf from where the last search ended, not a character at a time (issue 56 item 3).
    if (cursor.hasLt(from, to)) notWellFormed();
    if (!this.wanted) {
      if (cursor.hasAmp(from, to) && decodeReferences(t.slice(from, to)) === undefined) notWellFormed();
      return;
    }
    this.sink.attributeValue(cursor.trimmedValue(from, to, cursor.hasTabOrLf(from, to)));
  }

  /** The attribute's name in `t` (the piece being read), checked and offered to the builder, which says whether it wants its value (`wanted`). */
  private offer(t: string, nameFrom: number, colon: number, nameEnd: number): void {
    // Its first character before `startsWith`: few names begin with `x` (issue 56 item 3).
    const xmlns = t.charCodeAt(nameFrom) === 120 && nameEnd - nameFrom >= 5 && t.startsWith('xmlns', nameFrom) && (nameEnd - nameFrom === 5 || colon === nameFrom + 5);
    let localFrom = nameFrom;
    if (colon >= 0 && !xmlns) {
      // Besides namespace declarations, xsi:nil is the only prefixed attribute upstream (docs/upstream-ehr.md#1-rules-every-document-follows):
      // any other could stand for an unprefixed one (`extension` and `q:extension`).
      if (nameEnd - nameFrom !== 7 || !t.startsWith('xsi:nil', nameFrom)) throw malformed('prefixed attribute');
      localFrom = colon + 1;
    }
    this.noRepeat(t, nameFrom, localFrom, nameEnd);
    this.wanted = !xmlns && this.sink.attribute(t, localFrom, nameEnd);
  }

  /**
   * An attribute repeated by local name: by its whole name too, it is not well-formed XML; otherwise
   * (`nil` and `xsi:nil`) a repeat the mapping could only settle by picking one. A namespace
   * declaration goes by its whole name.
   */
  private noRepeat(t: string, nameFrom: number, localFrom: number, to: number): void {
    const names = this.names;
    if (this.map === undefined && this.count < INDEXED_ATTRIBUTES) {
      for (let a = 0; a < this.count; a++) {
        const f = names[3 * a + 1] as number;
        if (!sameText(t, f, names[3 * a + 2] as number, localFrom, to)) continue;
        repeated(sameText(t, names[3 * a] as number, f, nameFrom, localFrom));
      }
      names[3 * this.count] = nameFrom;
      names[3 * this.count + 1] = localFrom;
      names[3 * this.count + 2] = to;
    } else {
      const map = this.namesAsStrings();
      const local = t.slice(localFrom, to);
      const qname = t.slice(nameFrom, to);
      const before = map.get(local);
      if (before !== undefined) repeated(before === qname);
      map.set(local, qname);
    }
    this.count++;
  }

  /** The current tag's attribute names by local name, as strings (past INDEXED_ATTRIBUTES, or once the tag runs past its piece). */
  private namesAsStrings(): Map<string, string> {
    if (this.map !== undefined) return this.map;
    const t = this.cursor.text;
    const names = this.names;
    const map = new Map<string, string>();
    for (let a = 0; a < Math.min(this.count, INDEXED_ATTRIBUTES); a++) {
      map.set(t.slice(names[3 * a + 1] as number, names[3 * a + 2] as number), t.slice(names[3 * a] as number, names[3 * a + 2] as number));
    }
    this.map = map;
    return map;
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
