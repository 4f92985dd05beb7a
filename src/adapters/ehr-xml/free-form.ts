/**
 * `Any` (docs/upstream-ehr.md#1-rules-every-document-follows): each `<Any>` is one object; a child's name is a key, its text a string (never
 * typed), a nested element an object, a repeated name an array. Attributes carry nothing here, and
 * empty children are absent as everywhere else.
 */
import { isElementObject, isNil } from './leaves.js';
import { leaf, type Leaf } from './shape.js';

type FreeValue = string | FreeObject | FreeValue[];
interface FreeObject { [key: string]: FreeValue }

function freeValue(raw: unknown): FreeValue | undefined {
  if (typeof raw === 'string') {
    const t = raw.trim();
    return t === '' ? undefined : t;
  }
  if (Array.isArray(raw)) {
    const items: FreeValue[] = [];
    for (const item of raw) {
      const v = freeValue(item);
      if (v !== undefined) items.push(v);
    }
    return items.length > 0 ? items : undefined;
  }
  // An element with attributes but only text inside is still text: attributes carry nothing here.
  return freeObject(raw) ?? (isElementObject(raw) && !isNil(raw) ? freeValue(raw['#text']) : undefined);
}

function freeObject(raw: unknown): FreeObject | undefined {
  if (!isElementObject(raw) || isNil(raw)) return undefined;
  const out: FreeObject = {};
  let empty = true;
  for (const key of Object.keys(raw)) {
    // The parser already refuses `__proto__` as a name; checked again because this object is ours.
    if (key === '#text' || key.startsWith('@_') || key === '__proto__') continue;
    const v = freeValue(raw[key]);
    if (v === undefined) continue;
    out[key] = v;
    empty = false;
  }
  return empty ? undefined : out;
}

export const ANY: Leaf = leaf((raw) => freeObject(raw));
