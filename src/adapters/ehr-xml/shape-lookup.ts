/**
 * Name lookups for the single-pass reader, keyed by a name's length and first character so a tag
 * is matched against the few candidate names in place (`startsWith` at its offset), without
 * cutting the name out of the document first.
 */
import type { CompiledField, CompiledObject, NameTable, ShapeLookup } from './shape.js';
import { isPlainName, knownId, knownNames } from './xml-names.js';

export type { NameTable, ShapeLookup };

const keyOf = (length: number, first: number): number => length * 128 + first;

export function nameTable<V>(entries: Iterable<[string, V]>): NameTable<V> {
  const table: NameTable<V> = new Map();
  for (const [name, value] of entries) {
    const key = keyOf(name.length, name.charCodeAt(0));
    const list = table.get(key);
    if (list) list.push(name, value);
    else table.set(key, [name, value]);
  }
  return table;
}

/** The value for the name at `text[from, to)`, or undefined. */
export function lookUp<V>(table: NameTable<V>, text: string, from: number, to: number): V | undefined {
  const list = table.get(keyOf(to - from, text.charCodeAt(from)));
  if (list === undefined) return undefined;
  for (let i = 0; i < list.length; i += 2) {
    if (text.startsWith(list[i] as string, from)) return list[i + 1] as V;
  }
  return undefined;
}


/** The field index of an element's id in `known`. */
export const fieldOfId = (id: number): number => id >> 1;
/** Whether an element's id in `known` is a leaf's. */
export const isLeafId = (id: number): boolean => (id & 1) === 1;

/** The field index of the element named `text[from, to)`, or undefined. */
export function elementField(lookup: ShapeLookup, text: string, from: number, to: number): number | undefined {
  const id = knownId(lookup.known, text, from, to);
  return id < 0 ? undefined : fieldOfId(id);
}

/** The lookups of `shape`, made the first time an element of it is read and kept on it (a frame per element asks). */
export function lookupOf(shape: CompiledObject): ShapeLookup {
  let l = shape.lookup;
  if (!l) {
    const elements: [string, number][] = [];
    const attributes: [string, number][] = [];
    shape.fields.forEach((f, i) => {
      // `$self` is the element's own text, never a child's name.
      if (i !== shape.selfIndex) (f.isAttribute ? attributes : elements).push([f.name, i]);
      // A leaf given either way fills one slot, whichever form it comes in.
      if (f.alsoAttribute) attributes.push([f.name, i]);
    });
    const ids: [string, number][] = [];
    for (const [name, index] of elements) {
      // The tokenizer matches these names in place, which reads a tag as `read` would only for such names.
      if (!isPlainName(name)) throw new TypeError(`a shape's element name must be an unprefixed XML name of an ASCII first character: ${name}`);
      ids.push([name, 2 * index + ((shape.fields[index] as CompiledField).object === undefined ? 1 : 0)]);
    }
    l = { known: knownNames(ids), attributes: nameTable(attributes) };
    shape.lookup = l;
  }
  return l;
}

/** `@_name` keys of the attributes leaves carry, so the common ones are never built per element. */
const ATTRIBUTE_KEYS = nameTable(['extension', 'root', 'value', 'codeSystem', 'qualifier', 'nil', 'type', 'lang']
  .map((n): [string, string] => [n, `@_${n}`]));

export function attributeKey(text: string, from: number, to: number): string {
  return lookUp(ATTRIBUTE_KEYS, text, from, to) ?? `@_${text.slice(from, to)}`;
}
