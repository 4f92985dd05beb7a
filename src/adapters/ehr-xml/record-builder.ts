/**
 * The builder of the XML reader (docs/xml-reader.md): fills the compiled shape (shape.ts) from the
 * tokenizer's events (xml-sink.ts) straight to the mapped records, with no tree in between: a frame
 * per open element, its fields' values in slots by index, a leaf's text, inner elements and
 * attributes collected for its converter (raw-leaf.ts), elements the shape does not take skipped.
 *
 * It refuses nothing about the XML: the tokenizer has done that before any event reaches it. What it
 * refuses for what the document says (a repeated or missing element, text where the shape takes
 * none, a failed conversion) it keeps (`fault`) and throws only from `end`, once the whole document
 * has been read, so the first refusal a document earns for being malformed XML always wins.
 */
import { malformed } from './malformed-document-error.js';
import { rawValue, type RawValue } from './raw-leaf.js';
import { KeptTexts } from './kept-text.js';
import type { CompiledField, CompiledObject, MapContext } from './shape.js';
import { attributeKey, elementField, fieldOfId, isLeafId, lookUp, lookupOf, type ShapeLookup } from './shape-lookup.js';
import type { KnownNames } from './xml-names.js';
import { TEXT_ALL, TEXT_ANY, TEXT_NONE, type ElementSink, type TextMode } from './xml-sink.js';
import { RESERVED_NAMES } from './xml-text.js';

type Out = Record<string, unknown>;

/** A slot of a single field that was present but mapped to nothing (kept apart from "never seen"). */
const ABSENT: unique symbol = Symbol('absent');

const OBJECT = 0;
const LEAF = 1;
const SKIP = 2;

/** One open element: an object collects its fields' values, a leaf the makings of its raw value. */
class Frame {
  slots: unknown[] | undefined = undefined;
  lookup: ShapeLookup | undefined = undefined;
  mode: TextMode;
  hasAttrs = false;
  hasChildren = false;
  /** Text other than whitespace in an object element (refused when it has nothing else). */
  hasText = false;
  nil = false;
  /** An attribute that did not convert: the document's fault unless xsi:nil makes the element absent (whichever comes first). */
  attrFault: { error: unknown } | undefined = undefined;
  text: string | undefined = undefined;
  kids: (string | RawValue)[] | undefined = undefined;
  attrs: string[] | undefined = undefined;
  /** An object whose shape has `$self`: its text is collected as a leaf's is. */
  collectsText = false;

  constructor(
    readonly kind: number,
    /** For a leaf's inner elements: the name its parent keys it by. */
    readonly local: string,
    /** The field this element fills in the enclosing object (objects and a leaf's top element). */
    readonly field: CompiledField | undefined,
    readonly fieldIndex: number,
    readonly shape: CompiledObject | undefined,
  ) {
    this.mode = kind === SKIP ? TEXT_NONE : TEXT_ALL;
    if (shape !== undefined) {
      this.slots = new Array<unknown>(shape.fields.length);
      this.lookup = lookupOf(shape);
      this.collectsText = shape.selfIndex >= 0;
      if (!this.collectsText) this.mode = TEXT_ANY;
    }
  }
}

/** The frame of an element that fills field `k` of its parent object. */
const fieldFrame = (f: CompiledField, k: number): Frame => new Frame(f.object ? OBJECT : LEAF, f.name, f, k, f.object);

/** Every skipped element's frame: it collects nothing, so one serves them all. */
const SKIPPED = new Frame(SKIP, '', undefined, -1, undefined);
const NO_SLOTS: readonly unknown[] = [];

export class RecordBuilder implements ElementSink {
  private readonly stack: Frame[] = [];
  /** The open element's frame (SKIPPED outside the root). */
  private top: Frame = SKIPPED;
  private out: Out | undefined;
  /** The first mapping refusal, thrown by `end` once the rest of the document has shown itself well-formed. */
  private fault: { error: unknown } | undefined = undefined;
  /** What the attribute being read goes to, set from its name by `attribute`. */
  private attrKey = '';
  private attrNil = false;
  private attrField: number | undefined = undefined;
  /** Where the texts the records keep get strings of their own (kept-text.ts); none for a one-piece document. */
  private readonly kept: KeptTexts | undefined;

  /**
   * @param root the root element's name (for refusals), `shape` its compiled shape
   * @param manyPieces whether the document is read in more than one piece (document-pieces.ts)
   */
  constructor(private readonly root: string, private readonly shape: CompiledObject, private readonly ctx: MapContext, manyPieces: boolean) {
    this.kept = manyPieces ? new KeptTexts() : undefined;
  }

  /** The mapped root, once the document has been read and `end` did not throw. */
  get result(): Out | undefined {
    return this.out;
  }

  /** The whole document has been read: throws its first mapping refusal, if any. */
  end(): void {
    if (this.fault !== undefined) throw this.fault.error;
  }

  get knownNames(): KnownNames | undefined {
    return this.top.lookup?.known;
  }

  get textMode(): TextMode {
    return this.top.mode;
  }

  get textBegun(): boolean {
    return this.top.text !== undefined;
  }

  openRoot(mapped: boolean): void {
    this.push(mapped ? new Frame(OBJECT, this.root, undefined, -1, this.shape) : SKIPPED);
  }

  openKnown(id: number): void {
    const parent = this.top;
    parent.hasChildren = true;
    const k = fieldOfId(id);
    this.push(fieldFrame((parent.shape as CompiledObject).fields[k] as CompiledField, k));
  }

  isLeaf(id: number): boolean {
    return isLeafId(id);
  }

  knownLeaf(id: number, text: string): void {
    const k = fieldOfId(id);
    const parent = this.top;
    parent.hasChildren = true;
    const s = text === '' ? text : this.keep(text);
    if (this.fault !== undefined) return;
    const f = (parent.shape as CompiledObject).fields[k] as CompiledField;
    try {
      // As `hand` hands a leaf opened by openKnown: its raw value is its text (rawValue).
      this.store(parent, f, k, f.convert?.(s, f.name, this.ctx));
    } catch (err) {
      this.fault = { error: err };
    }
  }

  openOther(qname: string, t: string, localFrom: number, to: number): void {
    const parent = this.top;
    if (parent.kind === OBJECT) {
      parent.hasChildren = true;
      const k = elementField(parent.lookup as ShapeLookup, t, localFrom, to);
      // Skipped inside an element whose own text is kept, it would take its text away and join what
      // stood around it: `Dos: <b>5</b> mg` read "Dos:  mg" (hostile review helper-213, H3).
      if (k === undefined && parent.collectsText) this.fault ??= { error: malformed(`an element inside the text of ${parent.field?.name ?? this.root}`) };
      this.push(k === undefined ? SKIPPED : fieldFrame((parent.shape as CompiledObject).fields[k] as CompiledField, k));
    } else if (parent.kind === LEAF) {
      // A leaf's inner element, keyed by its local name as fast-xml-parser keys it.
      let local = to - localFrom === qname.length ? qname : t.slice(localFrom, to);
      if (RESERVED_NAMES.has(local)) local = `__${local}`;
      this.push(new Frame(LEAF, local, undefined, -1, undefined));
    } else {
      this.push(SKIPPED);
    }
  }

  private push(frame: Frame): void {
    this.stack.push(frame);
    this.top = frame;
  }

  attribute(t: string, from: number, to: number): boolean {
    const frame = this.top;
    if (frame.kind === SKIP) return false;
    if (frame.kind === LEAF) {
      this.attrKey = attributeKey(t, from, to);
      return true;
    }
    this.attrNil = to - from === 3 && t.startsWith('nil', from);
    this.attrField = lookUp((frame.lookup as ShapeLookup).attributes, t, from, to);
    return true;
  }

  attributeValue(value: string): void {
    const frame = this.top;
    if (frame.kind === LEAF) {
      (frame.attrs ??= []).push(this.attrKey, this.keep(value));
      return;
    }
    frame.hasAttrs = true;
    if (this.attrNil) frame.nil = value === 'true' || value === '1';
    const k = this.attrField;
    if (k === undefined || this.fault !== undefined || frame.attrFault !== undefined) return;
    const f = (frame.shape as CompiledObject).fields[k] as CompiledField;
    try {
      const v = f.convert?.(this.keep(value), f.name, this.ctx);
      // Left unset when empty: a member that may be an attribute or an element is repeated only when both say something.
      if (v !== undefined) (frame.slots as unknown[])[k] = v;
    } catch (err) {
      frame.attrFault = { error: err };
    }
  }

  text(part: string): void {
    const frame = this.top;
    const s = this.keep(part);
    frame.text = frame.text === undefined ? s : frame.text + s;
  }

  textInObject(): void {
    this.top.hasText = true;
    this.top.mode = TEXT_NONE;
  }

  /** Closes the top element and hands its value to its parent (unless a mapping refusal came first). */
  close(): void {
    const frame = this.stack.pop() as Frame;
    const parent = this.stack[this.stack.length - 1];
    this.top = parent ?? SKIPPED;
    if (frame.kind === SKIP || this.fault !== undefined) return;
    // xsi:nil means absent: nothing else of the element is read (a fuzzed `xsi:nil="true" value="20250230120000"`).
    if (frame.attrFault !== undefined && (parent === undefined || !frame.nil)) {
      this.fault = frame.attrFault;
      return;
    }
    try {
      this.hand(frame, parent);
    } catch (err) {
      this.fault = { error: err };
    }
  }

  /** A text or attribute value the records may keep, in a string of its own when the document has several pieces. */
  private keep(s: string): string {
    return this.kept === undefined ? s : this.kept.keep(s);
  }

  /** Hands `frame`'s value to `parent`, or, for the root (no parent), makes it the result. */
  private hand(frame: Frame, parent: Frame | undefined): void {
    if (frame.kind === LEAF) {
      const raw = rawValue(frame.text, frame.kids, frame.attrs);
      const f = frame.field;
      if (f === undefined) ((parent as Frame).kids ??= []).push(frame.local, raw);
      else this.store(parent as Frame, f, frame.fieldIndex, f.convert?.(raw, f.name, this.ctx));
      return;
    }
    const value = this.build(frame);
    if (parent === undefined) this.out = value;
    else this.store(parent, frame.field as CompiledField, frame.fieldIndex, value);
  }

  /** `value`, of field `f` (index `k`), into `parent`'s slots. */
  private store(parent: Frame, f: CompiledField, k: number, value: unknown): void {
    const slots = parent.slots as unknown[];
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
    // Absent by xsi:nil, its content would be dropped unseen (leaves.ts, nilled).
    if (!isRoot && frame.nil && (frame.hasChildren || frame.hasText || (frame.text !== undefined && frame.text.trim() !== ''))) {
      throw malformed(`content inside a nil ${frame.field?.name ?? this.root}`);
    }
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
