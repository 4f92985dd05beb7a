/**
 * A JSON body that names one member twice in one object is refused. RFC 8259 §4 leaves such an
 * object's meaning to the reader: JSON.parse keeps the last value, a gateway, a log reader or the
 * caller's own library may keep the first, and a grant of `["LabResult"]` then `["*"]` was stored as
 * a grant of everything while the first reader saw lab results.
 *
 * Written here rather than taken from a JSON library: the scan runs only over a text JSON.parse has
 * already accepted, so it needs nothing but brackets, commas and strings, and each name is decoded
 * by JSON.parse itself (`"\u0063ategories"` is `categories`). jsonc-parser's visitor, tried first,
 * recurses once per level and overflowed the stack at 5,000 levels, which a 16 KiB body reaches;
 * this keeps its own stack.
 */
/** A member's place: names of objects, indices of arrays. */
export type MemberPath = (string | number)[];

/** The body names the member at `path` twice; the error mapper says so, naming it. */
export class RepeatedMemberError extends Error {
  constructor(readonly path: MemberPath) {
    super('A JSON body names a member twice.');
    this.name = 'RepeatedMemberError';
  }
}

type Open = { names: Set<string>; name: string | undefined; nameNext: boolean } | { index: number };

/** The index just past the string that opens at `from` (its `"`); never past the text, whatever it holds. */
function stringEnd(text: string, from: number): number {
  let i = from + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The path of the first member named twice in its object, or undefined. `text` must be JSON that JSON.parse accepts. */
export function firstRepeatedMember(text: string): MemberPath | undefined {
  const open: Open[] = [];
  for (let i = 0; i < text.length;) {
    const c = text[i];
    const top = open.at(-1);
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top !== undefined && 'names' in top && top.nameNext) {
        const name = JSON.parse(text.slice(i, end)) as string;
        if (top.names.has(name)) return [...open.slice(0, -1).map((o) => ('names' in o ? o.name ?? '' : o.index)), name];
        top.names.add(name);
        top.name = name;
        top.nameNext = false;
      }
      i = end;
      continue;
    }
    if (c === '{') open.push({ names: new Set(), name: undefined, nameNext: true });
    else if (c === '[') open.push({ index: 0 });
    else if (c === '}' || c === ']') open.pop();
    else if (c === ',' && top !== undefined) {
      if ('names' in top) top.nameNext = true;
      else top.index += 1;
    }
    i += 1;
  }
  return undefined;
}
