/**
 * The single-pass reader: XML text straight to the mapped records, driven by the compiled shape
 * (no intermediate tree), with an explicit stack instead of recursion and a pause point between
 * tags so a large document can be read in slices.
 *
 * It reads a strict SUBSET of what the reference engine (fast-xml-parser + its validator, through
 * xml-parser.ts and walk.ts) accepts, and for every document it finishes it produces exactly what
 * the reference engine produces. Anything else — a well-formedness error, a repeated element, a
 * missing required one, a failed conversion, and constructs it does not handle itself (processing
 * instructions, HTML entities, non-ASCII names, reserved names, text beside child elements ...) —
 * makes it GIVE THE DOCUMENT BACK: the caller then runs the reference engine, which decides, with
 * its own error messages. The reader can therefore never accept a document the reference engine
 * refuses, nor map one differently; test/adapters/ehr-xml/fast-reader.test.ts checks the second
 * half against the reference engine on the examples, their edits and generated documents.
 */
import type { DocumentPieces } from './document-pieces.js';
import { rawValue, type RawValue } from './raw-leaf.js';
import type { CompiledField, CompiledObject, MapContext } from './shape.js';
import { attributeKey, elementField, lookUp, lookupOf, type ShapeLookup } from './shape-lookup.js';
import { mapRoot } from './walk.js';
import {
  decodeReferences, hasDtdMarkup, isSpace, isTrimSpace, NAME_CHAR, NAME_START, normaliseLineEnds, RESERVED_NAMES,
} from './xml-text.js';
import { MAX_DEPTH } from './xml-parser.js';

type Out = Record<string, unknown>;

/** Thrown inside the reader only: the document goes back to the reference engine. */
const GIVE_BACK: unique symbol = Symbol('give back');
const giveBack = (): never => {
  throw GIVE_BACK;
};

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
  nil = false;
  text: string | undefined = undefined;
  kids: (string | RawValue)[] | undefined = undefined;
  attrs: string[] | undefined = undefined;

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
    }
  }
}

/** The frame of an element that fills field `k` of its parent object, written as `qname`. */
const fieldFrame = (f: CompiledField, k: number, qname: string): Frame =>
  new Frame(f.object ? OBJECT : LEAF, qname, f.name, f, k, f.object);

const DECLARATION_BODY = /^(?:[ \t\n]+[A-Za-z]+[ \t\n]*=[ \t\n]*(?:"[^"?<>&]*"|'[^'?<>&]*'))*[ \t\n]*$/;
const PAUSE_EVERY = 128;
const MAX_ATTRIBUTES = 32;

export class FastReader {
  private pos = 0;
  /** Index of the next `&` at or after the last place asked about (2^32 - 1 when there is none). */
  private nextAmp = -1;
  private readonly stack: Frame[] = [];
  /** Leaf text since the last markup: a range of the document, or a string once a comment split it. */
  private pendingFrom = -1;
  private pendingTo = -1;
  private pendingText: string | undefined = undefined;
  /** The local names (from, to) of the current tag's attributes, for the duplicate check. */
  private readonly attrNames = new Int32Array(2 * MAX_ATTRIBUTES);
  private attrCount = 0;
  /** Set by `name`: where the name ends and where its colon is (-1 when unprefixed). */
  private nameEnd = 0;
  private nameColon = -1;
  private phase: 'prolog' | 'content' | 'epilog' | 'done' = 'prolog';
  private out: Out | undefined;
  private deeperThanAllowed = false;
  /** The index of the piece after the one being read. */
  private nextPiece = 1;

  /**
   * @param text the document's first piece, BOM removed, DTD markup refused and line ends
   *   normalised (`\r\n?` -> `\n`) as the reference parser normalises them; the rest of the
   *   document comes from `pieces` and is read piece by piece (document-pieces.ts)
   * @param emptyRootOk how the reference engine judges a root without content (xml-parser.ts)
   */
  constructor(
    /** The piece being read: positions (pos, pending text, nextAmp) are positions in it. */
    private text: string,
    private readonly pieces: DocumentPieces,
    private readonly root: string,
    private readonly shape: CompiledObject,
    private readonly ctx: MapContext,
    private readonly emptyRootOk: () => boolean,
  ) {}

  /** The mapped root, once `run` has returned true. */
  get result(): Out | undefined {
    return this.out;
  }

  /** Whether the document was given back on opening an element one level deeper than MAX_DEPTH. */
  get tooDeep(): boolean {
    return this.deeperThanAllowed;
  }

  /**
   * Reads until the document is done (true) or `deadline` (performance.now()) has passed (false).
   * Returns undefined when the document must go back to the reference engine.
   */
  run(deadline = Number.POSITIVE_INFINITY): boolean | undefined {
    try {
      if (this.phase === 'prolog') this.prolog();
      if (this.phase === 'content' && !this.content(deadline)) return false;
      if (this.phase === 'epilog') this.epilog();
      return this.phase === 'done' ? true : undefined;
    } catch {
      // GIVE_BACK, or anything a converter threw: the reference engine repeats it or decides otherwise.
      this.phase = 'done';
      this.out = undefined;
      return undefined;
    }
  }

  private prolog(): void {
    const t = this.text;
    let i = 0;
    if (t.startsWith('<?xml', 0) && isSpace(t.charCodeAt(5))) {
      const end = t.indexOf('?>', 5);
      if (end < 0 || !DECLARATION_BODY.test(t.slice(5, end))) giveBack();
      i = end + 2;
    }
    i = this.skipMisc(i);
    if (this.text.charCodeAt(i) !== 60) giveBack();
    this.openTag(i, true);
    this.phase = this.stack.length === 0 ? 'epilog' : 'content';
  }

  private content(deadline: number): boolean {
    let tags = 0;
    while (this.stack.length > 0) {
      if (++tags === PAUSE_EVERY) {
        tags = 0;
        if (performance.now() > deadline) return false;
      }
      const t = this.text;
      const i = this.pos;
      const lt = t.indexOf('<', i);
      if (lt < 0) {
        if (!this.toNextPiece(i)) giveBack();
        continue;
      }
      if (lt > i) this.textSegment(i, lt);
      const c1 = t.charCodeAt(lt + 1);
      if (c1 === 47) this.closeTag(lt);
      else if (c1 === 33) this.bang(lt);
      else this.openTag(lt, false);
    }
    this.phase = 'epilog';
    return true;
  }

  private epilog(): void {
    if (this.skipMisc(this.pos) < this.text.length) giveBack();
    this.phase = 'done';
  }

  /**
   * Past whitespace and comments before or after the root, into further pieces as needed: the index
   * of the first other character, or the text's length when the document ends first.
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
      } else if (this.text.startsWith('<!--', i)) {
        i = this.commentEnd(i);
      } else {
        return i;
      }
    }
  }

  /** The next piece, checked and normalised as the first one was; undefined after the last. */
  private load(): string | undefined {
    if (this.nextPiece >= this.pieces.count) return undefined;
    const piece = this.pieces.piece(this.nextPiece++);
    // Pieces are cut before a `<`, so DTD markup and a CR LF pair lie within one piece.
    if (hasDtdMarkup(piece)) giveBack();
    return normaliseLineEnds(piece);
  }

  /** Positions in the old piece mean nothing in the new one: pending leaf text becomes a string. */
  private switchTo(text: string): void {
    if (this.pendingFrom >= 0) {
      this.pendingText = this.text.slice(this.pendingFrom, this.pendingTo);
      this.pendingFrom = -1;
    }
    this.text = text;
    this.nextAmp = -1;
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

  /**
   * A comment or CDATA section from `from` that runs on past its piece (it holds a `<` a cut fell
   * before): the rest of this piece joined with the next, `from` now at 0. False when there is none.
   */
  private joinNext(from: number): boolean {
    const piece = this.load();
    if (piece === undefined) return false;
    this.switchTo(this.text.slice(from) + piece);
    return true;
  }

  private skipSpace(i: number): number {
    const t = this.text;
    while (i < t.length && isSpace(t.charCodeAt(i))) i++;
    return i;
  }

  /** Where the comment at `lt` ends; a comment that runs past its piece is joined with the next first. */
  private commentEnd(lt: number): number {
    let from = lt;
    let end = this.text.indexOf('-->', from + 4);
    while (end < 0 && this.joinNext(from)) {
      from = 0;
      end = this.text.indexOf('-->', 4);
    }
    if (end < 0) giveBack();
    return end + 3;
  }

  /** Whether `text[from, to)` holds an `&`; asked with ever larger `from`. */
  private hasAmp(from: number, to: number): boolean {
    if (this.nextAmp < from) this.nextAmp = this.text.indexOf('&', from) >>> 0;
    return this.nextAmp < to;
  }

  /**
   * `text[from, to)` trimmed (String.prototype.trim, as fast-xml-parser trims) and decoded; '' when
   * blank. Gives back on an `&` outside the decoded subset.
   */
  private trimmedValue(from: number, to: number): string {
    const t = this.text;
    while (from < to && isTrimSpace(t.charCodeAt(from))) from++;
    while (to > from && isTrimSpace(t.charCodeAt(to - 1))) to--;
    if (from === to) return '';
    let s = t.slice(from, to);
    // Past ASCII whitespace, trim() also takes Unicode spaces: let it decide at a non-ASCII edge.
    if (t.charCodeAt(from) >= 128 || t.charCodeAt(to - 1) >= 128) s = s.trim();
    if (!this.hasAmp(from, to)) return s;
    const decoded = decodeReferences(s);
    if (decoded === undefined) giveBack();
    return decoded as string;
  }

  /** `<!--` or `<![CDATA[`; any other `<!` (DTD markup was refused before) is given back. */
  private bang(at: number): void {
    if (this.text.startsWith('<!--', at)) {
      this.pos = this.commentEnd(at);
      return;
    }
    if (!this.text.startsWith('<![CDATA[', at)) giveBack();
    let lt = at;
    let end = this.text.indexOf(']]>', lt + 9);
    while (end < 0 && this.joinNext(lt)) {
      lt = 0;
      end = this.text.indexOf(']]>', 9);
    }
    if (end < 0) giveBack();
    const t = this.text;
    const top = this.top();
    if (top.kind === LEAF) {
      this.flush(top);
      // CDATA is neither trimmed nor decoded.
      if (end > lt + 9) this.addText(top, t.slice(lt + 9, end));
    } else if (top.kind === OBJECT) {
      for (let k = lt + 9; k < end; k++) if (!isSpace(t.charCodeAt(k))) giveBack();
    }
    this.pos = end + 3;
  }

  private top(): Frame {
    return this.stack[this.stack.length - 1] as Frame;
  }

  private addText(frame: Frame, s: string): void {
    frame.text = frame.text === undefined ? s : frame.text + s;
  }

  /** Text between markup: kept for a leaf, only whitespace allowed in an object, checked in a skipped element. */
  private textSegment(from: number, to: number): void {
    const t = this.text;
    const top = this.top();
    if (top.kind === LEAF) {
      if (this.pendingFrom < 0 && this.pendingText === undefined) {
        this.pendingFrom = from;
        this.pendingTo = to;
      } else {
        // Only a comment can split a text: fast-xml-parser joins the pieces before trimming.
        const before = this.pendingText ?? t.slice(this.pendingFrom, this.pendingTo);
        this.pendingText = before + t.slice(from, to);
        this.pendingFrom = -1;
      }
    } else if (top.kind === OBJECT) {
      for (let k = from; k < to; k++) if (!isSpace(t.charCodeAt(k))) giveBack();
    } else if (this.hasAmp(from, to) && decodeReferences(t.slice(from, to)) === undefined) {
      giveBack();
    }
  }

  /** The text collected since the last markup, trimmed and decoded, as fast-xml-parser saves it. */
  private flush(frame: Frame): void {
    let s: string;
    if (this.pendingText !== undefined) {
      const decoded = decodeReferences(this.pendingText.trim());
      this.pendingText = undefined;
      if (decoded === undefined) giveBack();
      s = decoded as string;
    } else if (this.pendingFrom >= 0) {
      s = this.trimmedValue(this.pendingFrom, this.pendingTo);
      this.pendingFrom = -1;
    } else {
      return;
    }
    if (s !== '') this.addText(frame, s);
  }

  /** Reads `[A-Za-z_][\w.-]*` with at most one `prefix:` into nameEnd / nameColon. */
  private name(from: number): void {
    const t = this.text;
    let c = t.charCodeAt(from);
    if (c >= 128 || NAME_START[c] !== 1) giveBack();
    let j = from + 1;
    let colon = -1;
    for (;;) {
      c = t.charCodeAt(j);
      if (c < 128 && NAME_CHAR[c] === 1) {
        j++;
      } else if (c === 58 && colon < 0) {
        colon = j;
        c = t.charCodeAt(j + 1);
        if (c >= 128 || NAME_START[c] !== 1) giveBack();
        j += 2;
      } else {
        break;
      }
    }
    this.nameEnd = j;
    this.nameColon = colon;
  }

  private openTag(lt: number, isRoot: boolean): void {
    if (this.stack.length >= MAX_DEPTH) {
      this.deeperThanAllowed = true;
      giveBack();
    }
    let frame = isRoot ? undefined : this.knownChildFrame(lt);
    let end = this.nameEnd;
    if (frame === undefined) {
      this.name(lt + 1);
      end = this.nameEnd;
      const localFrom = this.nameColon < 0 ? lt + 1 : this.nameColon + 1;
      frame = isRoot ? this.rootFrame(lt, localFrom, end) : this.childFrame(lt, localFrom, end);
    }
    const close = this.attributes(end, frame);
    this.stack.push(frame);
    if (this.text.charCodeAt(close) === 47) {
      this.pos = close + 2;
      this.finish();
    } else {
      this.pos = close + 1;
    }
  }

  private rootFrame(lt: number, localFrom: number, end: number): Frame {
    const t = this.text;
    if (end - localFrom !== this.root.length || !t.startsWith(this.root, localFrom)) giveBack();
    return new Frame(OBJECT, t.slice(lt + 1, end), this.root, undefined, -1, this.shape);
  }

  /**
   * The common case without reading the name character by character: an unprefixed child of an
   * object whose name is one of its fields, matched in place. Anything else (a prefix, an unknown
   * or reserved name, a leaf's inner element) is undefined and goes the general way, which would
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
      if ((after < 128 && NAME_CHAR[after] === 1) || after === 58 || !t.startsWith(name, lt + 1)) continue;
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
    const local = t.slice(localFrom, end);
    if (RESERVED_NAMES.has(local)) giveBack();
    const qname = prefixed ? t.slice(lt + 1, end) : local;
    if (parent.kind === LEAF) {
      this.flush(parent);
      return new Frame(LEAF, qname, local, undefined, -1, undefined);
    }
    return new Frame(SKIP, qname, local, undefined, -1, undefined);
  }

  /** Reads the attributes up to `>` or `/>` into `frame`; returns the index of `>` or `/`. */
  private attributes(from: number, frame: Frame): number {
    const t = this.text;
    let j = from;
    this.attrCount = 0;
    for (;;) {
      let c = t.charCodeAt(j);
      if (c === 62) return j;
      if (c === 47) {
        if (t.charCodeAt(j + 1) !== 62) giveBack();
        return j;
      }
      if (!isSpace(c)) giveBack();
      j = this.skipSpace(j);
      c = t.charCodeAt(j);
      if (c === 62 || c === 47) continue;
      const nameFrom = j;
      this.name(j);
      const nameEnd = this.nameEnd;
      const colon = this.nameColon;
      j = this.skipSpace(nameEnd);
      if (t.charCodeAt(j) !== 61) giveBack();
      j = this.skipSpace(j + 1);
      const quote = t.charCodeAt(j);
      if (quote !== 34 && quote !== 39) giveBack();
      const valueEnd = t.indexOf(quote === 34 ? '"' : "'", j + 1);
      if (valueEnd < 0) giveBack();
      this.attribute(frame, nameFrom, colon, nameEnd, j + 1, valueEnd);
      j = valueEnd + 1;
    }
  }

  private attribute(frame: Frame, nameFrom: number, colon: number, nameEnd: number, from: number, to: number): void {
    const t = this.text;
    // fast-xml-parser drops namespace declarations (removeNSPrefix) and keys the rest by local name.
    const xmlns = nameEnd - nameFrom >= 5 && t.startsWith('xmlns', nameFrom) && (nameEnd - nameFrom === 5 || colon === nameFrom + 5);
    const localFrom = xmlns || colon < 0 ? nameFrom : colon + 1;
    this.noDuplicate(localFrom, nameEnd);
    if (xmlns || frame.kind === SKIP) return;
    const value = this.trimmedValue(from, to);
    if (frame.kind === LEAF) {
      (frame.attrs ??= []).push(attributeKey(t, localFrom, nameEnd), value);
      return;
    }
    frame.hasAttrs = true;
    if (nameEnd - localFrom === 3 && t.startsWith('nil', localFrom)) frame.nil = value === 'true' || value === '1';
    const k = lookUp((frame.lookup as ShapeLookup).attributes, t, localFrom, nameEnd);
    if (k === undefined) return;
    const f = (frame.shape as CompiledObject).fields[k] as CompiledField;
    const v = f.convert?.(value, f.name, this.ctx);
    (frame.slots as unknown[])[k] = v === undefined ? ABSENT : v;
  }

  /** A repeated attribute (by local name; a namespace declaration by its whole name) is given back. */
  private noDuplicate(from: number, to: number): void {
    const t = this.text;
    const names = this.attrNames;
    const len = to - from;
    for (let a = 0; a < this.attrCount; a++) {
      const f = names[2 * a] as number;
      if ((names[2 * a + 1] as number) - f !== len) continue;
      let same = true;
      for (let c = 0; c < len && same; c++) same = t.charCodeAt(f + c) === t.charCodeAt(from + c);
      if (same) giveBack();
    }
    if (this.attrCount === MAX_ATTRIBUTES) giveBack();
    names[2 * this.attrCount] = from;
    names[2 * this.attrCount + 1] = to;
    this.attrCount++;
  }

  private closeTag(lt: number): void {
    const t = this.text;
    const frame = this.top();
    if (!t.startsWith(frame.qname, lt + 2)) giveBack();
    const j = this.skipSpace(lt + 2 + frame.qname.length);
    if (t.charCodeAt(j) !== 62) giveBack();
    this.pos = j + 1;
    this.finish();
  }

  /** Closes the top element and hands its value to its parent. */
  private finish(): void {
    const frame = this.stack.pop() as Frame;
    if (frame.kind === SKIP) return;
    const parent = this.stack[this.stack.length - 1];
    if (frame.kind === LEAF) {
      this.flush(frame);
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
    // fast-xml-parser would have made an array: the walk's "repeated" refusal.
    if (slots[k] !== undefined) giveBack();
    slots[k] = value === undefined ? ABSENT : value;
  }

  /** An object element's mapped value, as walk.ts maps the reference engine's node for it. */
  private build(frame: Frame): Out | undefined {
    if (frame.field === undefined) {
      // The root: without content the reference engine also checks the text around it.
      if (!frame.hasChildren && !this.emptyRootOk()) giveBack();
    } else if ((!frame.hasAttrs && !frame.hasChildren) || frame.nil) {
      return undefined;
    }
    const out: Out = {};
    const fields = (frame.shape as CompiledObject).fields;
    const slots = frame.slots as unknown[];
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k] as CompiledField;
      const slot = slots[k];
      const { options } = f;
      if (options.many) {
        out[f.outKey] = slot === undefined ? [] : slot;
        continue;
      }
      let v = slot === ABSENT ? undefined : slot;
      if (v === undefined) {
        if (options.wrapper && f.object) v = mapRoot({}, f.object, this.ctx);
        else if (options.required) giveBack();
        else continue;
      }
      if (f.flattenKey !== undefined) out[f.outKey] = (v as Out)[f.flattenKey];
      else if (options.spread) Object.assign(out, v);
      else out[f.outKey] = v;
    }
    return out;
  }
}
