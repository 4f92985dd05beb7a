/**
 * The value a leaf converter receives, built exactly as fast-xml-parser (with the options of
 * xml-parser.ts) would have built it: a string for a text-only element (`''` when empty), else an
 * object with child elements by name (a repeated name becomes an array), `#text`, and `@_`
 * attributes. Leaves are small (a text, an ID's attributes, a Code's displayName, an Any), so this
 * is the only place the reader builds such a tree.
 */

export type RawValue = string | RawObject;
export interface RawObject { [key: string]: RawValue | RawValue[] }

/**
 * node2json's `compress` for one element: children in document order (name, value, name, value
 * ...), then `#text`, then the attributes (`@_name`, value, ...).
 */
export function rawValue(text: string | undefined, kids: (string | RawValue)[] | undefined, attrs: string[] | undefined): RawValue {
  const t = text ?? '';
  if (kids === undefined && attrs === undefined) return t;
  const obj: RawObject = {};
  if (kids !== undefined) {
    for (let i = 0; i < kids.length; i += 2) {
      const name = kids[i] as string;
      const v = kids[i + 1] as RawValue;
      if (Object.hasOwn(obj, name)) {
        const prev = obj[name] as RawValue | RawValue[];
        if (Array.isArray(prev)) prev.push(v);
        else obj[name] = [prev, v];
      } else {
        obj[name] = v;
      }
    }
  }
  if (t.length > 0) obj['#text'] = t;
  if (attrs !== undefined) {
    for (let i = 0; i < attrs.length; i += 2) obj[attrs[i] as string] = attrs[i + 1] as string;
    return obj;
  }
  const keys = Object.keys(obj);
  if (keys.length === 1 && obj['#text'] !== undefined) return t;
  return keys.length === 0 ? '' : obj;
}
