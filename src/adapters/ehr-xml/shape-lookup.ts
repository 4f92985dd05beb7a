/**
 * Name lookups for the single-pass reader, keyed by a name's length and first character so a tag
 * is matched against the few candidate names in place (`startsWith` at its offset), without
 * cutting the name out of the document first.
 */
import type { CompiledField, CompiledObject, NameTable, ShapeLookup } from './shape.js';
import { isPlainName, knownNames } from './xml-names.js';

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


/** The field index of an element's id in `elementsByFirst`. */
export const fieldOfId = (id: number): number => id >> 1;
/** Whether an element's id in `elementsByFirst` is a leaf's. */
export const isLeafId = (id: number): boolean => (id & 1) === 1;

/** The field index of the element named `text[from, to)`, or undefined. */
export function elementField(lookup: ShapeLookup, text: string, from: number, to: number): number | undefined {
  const first = text.charCodeAt(from);
  const list = first < 128 ? lookup.elementsByFirst[first] : undefined;
  if (list === undefined) return undefined;
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i] as string;
    if (name.length === to - from && text.startsWith(name, from)) return fieldOfId(list[i + 1] as number);
  }
  return undefined;
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
    const elementsByFirst: ((string | number)[] | undefined)[] = new Array<undefined>(128).fill(undefined);
    const ids: [string, number][] = [];
    for (const [name, index] of elements) {
      // The tokenizer matches these names in place, which reads a tag as `read` would only for such names.
      if (!isPlainName(name)) throw new TypeError(`a shape's element name must be an unprefixed XML name of an ASCII first character: ${name}`);
      const id = 2 * index + ((shape.fields[index] as CompiledField).object === undefined ? 1 : 0);
      (elementsByFirst[name.charCodeAt(0)] ??= []).push(name, id);
      ids.push([name, id]);
    }
    l = { elementsByFirst, known: knownNames(ids), attributes: nameTable(attributes) };
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
