/**
 * A small declarative description of each document (docs/upstream-ehr.md#3-documents), compiled once per document type.
 * The same description drives the mapping walk and tells the parser which paths repeat, so arrays
 * are decided by path, never by element name.
 */
import type { KnownNames } from './xml-names.js';

export interface MapContext {
  zone: string;
  onDropped: (reason: string) => void;
}

/** Converts one parsed leaf (text, or an element object with attributes); undefined = absent. */
export type Converter = (raw: unknown, name: string, ctx: MapContext) => unknown;

export interface Leaf { readonly kind: 'leaf'; readonly convert: Converter }
export interface ObjectOptions {
  /**
   * An element whose members all turned out absent is itself absent (the mirror documents: a TS with
   * an empty `value`, an object of unknown members only), instead of an object with no members.
   */
  absentWhenEmpty?: boolean;
}
export interface ObjectShape extends ObjectOptions {
  readonly kind: 'object';
  /** Element names, `@name` for an attribute, and `$self` for the element's own text beside them. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
}
export interface Lazy { readonly kind: 'lazy'; readonly get: () => ObjectShape }
export type Shape = Leaf | ObjectShape | Lazy;

export interface FieldOptions {
  /** `!` in docs/upstream-ehr.md#3-documents: absence makes the document malformed. */
  required?: boolean;
  /** `*`: always an array, in document order, `[]` when absent. */
  many?: boolean;
  /** A dotted spec name: the element is always emitted, with `[]` inside when absent or empty. */
  wrapper?: boolean;
  /** For a wrapper: emit the inner array itself (OtherStaffList.Staff -> otherStaffList). */
  flatten?: boolean;
  /** Merge the converted object into the parent instead of nesting it. */
  spread?: boolean;
  /** JSON name when it differs from the element name. */
  as?: string;
  /**
   * A leaf that may also be given as an attribute of the same name (the mirror documents, a 3.1
   * journal value's type): one member either way, and both at once is a repeated member.
   */
  attribute?: boolean;
}
export interface Field extends FieldOptions { readonly kind: 'field'; readonly shape: Shape }
export type FieldSpec = Shape | Field;

export const leaf = (convert: Converter): Leaf => ({ kind: 'leaf', convert });
export const obj = (fields: Record<string, FieldSpec>, options: ObjectOptions = {}): ObjectShape => ({ kind: 'object', fields, ...options });
/** The key of the field that takes an object element's own text (trimmed at the ends, CDATA kept). */
export const SELF = '$self';
export const lazy = (get: () => ObjectShape): Lazy => ({ kind: 'lazy', get });
export const field = (shape: Shape, options: FieldOptions): Field => ({ kind: 'field', shape, ...options });
export const req = (shape: Shape, as?: string): Field => field(shape, { required: true, as });
export const many = (shape: Shape, as?: string): Field => field(shape, { many: true, as });
export const as = (name: string, shape: Shape): Field => field(shape, { as: name });
/** A wrapper of wrappers (`OtherValue.ArchetypeRecords.ArchetypeRecord`). */
export const wrapper = (shape: ObjectShape): Field => field(shape, { wrapper: true });
/** `Outer.Inner*`: a wrapper element around a repeated one. */
export const wrap = (inner: string, shape: Shape): Field => wrapper(obj({ [inner]: many(shape) }));
export const flatWrap = (inner: string, shape: Shape, name: string): Field =>
  field(obj({ [inner]: many(shape) }), { wrapper: true, flatten: true, as: name });

export interface CompiledField {
  /** Element name, or `@_name` for an attribute, as fast-xml-parser keys it. */
  readonly inKey: string;
  readonly name: string;
  readonly outKey: string;
  readonly isAttribute: boolean;
  readonly options: FieldOptions;
  readonly convert?: Converter;
  readonly object?: CompiledObject;
  readonly flattenKey?: string;
  /** The element may be given as an attribute instead (FieldOptions.attribute): the same slot either way. */
  readonly alsoAttribute: boolean;
}
/** `[name, value, name, value, ...]` per `length * 128 + first char code`. */
export type NameTable<V> = Map<number, (string | V)[]>;

/** A compiled shape's name lookups for the single-pass reader (shape-lookup.ts makes them). */
export interface ShapeLookup {
  /**
   * Element fields, as the tokenizer matches a tag in place before its length is known (xml-names.ts,
   * NameReader.readKnown) and the builder looks up a name read whole (`elementField`): by first
   * character, then by a character where the names differ. Each id is twice the field index, plus one
   * for a leaf (`fieldOfId`, `isLeafId`, shape-lookup.ts), so the tokenizer's question whether a
   * matched name is a leaf's costs no look at the field (issue 56 item 3).
   */
  known: KnownNames;
  /** Attribute name -> field index. */
  attributes: NameTable<number>;
}

export interface CompiledObject {
  readonly fields: CompiledField[];
  /** Index of the `$self` field, or -1: only then may the element hold text beside its children. */
  selfIndex: number;
  readonly absentWhenEmpty: boolean;
  /** Its name lookups, made on first use (shape-lookup.ts, `lookupOf`). */
  lookup?: ShapeLookup | undefined;
}

function resolve(shape: Shape): Leaf | ObjectShape {
  return shape.kind === 'lazy' ? shape.get() : shape;
}

/** Compiles a shape; recursive shapes (ArchetypeRecord) compile to a cyclic structure. */
export function compile(shape: ObjectShape, memo = new Map<ObjectShape, CompiledObject>()): CompiledObject {
  const known = memo.get(shape);
  if (known) return known;
  const compiled: CompiledObject = { fields: [], selfIndex: -1, absentWhenEmpty: shape.absentWhenEmpty === true, lookup: undefined };
  memo.set(shape, compiled);
  for (const [key, spec] of Object.entries(shape.fields)) {
    const f: Field = spec.kind === 'field' ? spec : field(spec, {});
    const target = resolve(f.shape);
    const isAttribute = key.startsWith('@');
    const name = isAttribute ? key.slice(1) : key;
    const object = target.kind === 'object' ? compile(target, memo) : undefined;
    const outKey = f.as ?? name;
    // fast-xml-parser keys an element's text `#text`.
    if (key === SELF) compiled.selfIndex = compiled.fields.length;
    compiled.fields.push({
      inKey: isAttribute ? `@_${name}` : key === SELF ? '#text' : name,
      name,
      outKey,
      isAttribute,
      options: f,
      convert: target.kind === 'leaf' ? target.convert : undefined,
      object,
      flattenKey: f.flatten ? object?.fields[0]?.outKey : undefined,
      alsoAttribute: f.attribute === true && !isAttribute && target.kind === 'leaf',
    });
  }
  return compiled;
}
