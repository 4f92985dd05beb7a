/**
 * Issue 13: the vendor's answer layouts (test/fixtures/vendor-layouts/, copies of the shared
 * contract's docs/vendor-layouts.md) turned into JSON schemas for ajv. A tree names members,
 * `name[]` arrays, `name: type` leaves and data types (II, TS, SimpleUnit ...) listed at its end;
 * every member is optional. `closed` schemas refuse members the tree does not name.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VENDOR_LAYOUTS_DIR = fileURLToPath(new URL('../fixtures/vendor-layouts/', import.meta.url));

export type JsonSchema = Record<string, unknown>;
interface Line { indent: number; text: string }

const LEAF_TYPES: Readonly<Record<string, JsonSchema>> = {
  any: {}, string: { type: 'string' }, boolean: { type: 'boolean' }, number: { type: 'number' },
  integer: { type: 'integer' }, object: { type: 'object' },
};

export function layoutText(file: string): string {
  return readFileSync(`${VENDOR_LAYOUTS_DIR}${file}`, 'utf8');
}

function linesOf(block: string[]): Line[] {
  return block.filter((l) => l.trim() !== '').map((l) => ({ indent: l.length - l.trimStart().length, text: l.trim() }));
}

class TreeSchema {
  readonly defs: Record<string, JsonSchema> = {};
  private readonly ancestors: { name: string; schema: JsonSchema }[] = [];

  constructor(private readonly closed: boolean, private readonly dataTypes: ReadonlyMap<string, Line[]>) {}

  private object(): JsonSchema {
    return this.closed ? { type: 'object', properties: {}, additionalProperties: false } : { type: 'object', properties: {} };
  }

  typeOf(type: string): JsonSchema {
    const t = type.trim();
    const enumMatch = /^string enum (.+)$/.exec(t);
    if (enumMatch) return { type: 'string', enum: (enumMatch[1] ?? '').split('|') };
    const base = t.replace(/\s*\(.*\)$/, '');
    if (LEAF_TYPES[base] !== undefined) return LEAF_TYPES[base];
    const members = this.dataTypes.get(base);
    // A type the tree lists without members (NullFlavor ...) or not at all (TELUSE): anything.
    if (members === undefined || members.length === 0) return {};
    if (this.defs[base] === undefined) {
      const schema = this.object();
      this.defs[base] = schema;
      this.fill(schema, members);
    }
    return { $ref: `#/$defs/${base}` };
  }

  /** The members of `schema` from `lines`, all one level deeper than their parent. */
  fill(schema: JsonSchema, lines: Line[]): void {
    const properties = schema.properties as Record<string, JsonSchema>;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as Line;
      const children: Line[] = [];
      while (i + 1 < lines.length && (lines[i + 1] as Line).indent > line.indent) children.push(lines[++i] as Line);
      const m = /^([$\w]+)(\[\])?\s*(?::\s*(.+))?$/.exec(line.text);
      if (!m) throw new Error(`vendor layout line not understood: ${line.text}`);
      const [, name = '', array, type] = m;
      const member = type !== undefined ? this.typeOf(type) : this.node(name, children);
      properties[name] = array ? { type: 'array', items: member } : member;
    }
  }

  /** An object node, or a recursive one: `(recursive: RecordType)` is the nearest enclosing `Record`. */
  private node(name: string, children: Line[]): JsonSchema {
    const recursive = /^\(recursive: (\w+)\)$/.exec(children[0]?.text ?? '');
    if (recursive) {
      const target = (recursive[1] ?? '').replace(/Type$/, '');
      const ancestor = [...this.ancestors].reverse().find((a) => a.name.toLowerCase() === target.toLowerCase());
      if (ancestor === undefined) return { type: 'object' };
      this.defs[target] = ancestor.schema;
      return { $ref: `#/$defs/${target}` };
    }
    const schema = this.object();
    this.ancestors.push({ name, schema });
    this.fill(schema, children);
    this.ancestors.pop();
    return schema;
  }
}

/** The JSON schema of a layout's 200 answer (an array), with its data types in `$defs`. */
export function vendorAnswerSchema(file: string, options: { closed: boolean }): JsonSchema {
  const all = layoutText(file).split('\n').filter((l) => !l.startsWith('#'));
  const body = all.findIndex((l) => l.trim() === '(body)[]');
  const types = all.findIndex((l) => l.startsWith('Data types'));
  const dataTypes = new Map<string, Line[]>();
  let current: Line[] | undefined;
  for (const line of linesOf(types < 0 ? [] : all.slice(types + 1))) {
    if (line.indent === 0) dataTypes.set(line.text.replace(/:$/, ''), (current = []));
    else current?.push({ indent: line.indent, text: line.text });
  }
  const tree = new TreeSchema(options.closed, dataTypes);
  const item: JsonSchema = options.closed ? { type: 'object', properties: {}, additionalProperties: false } : { type: 'object', properties: {} };
  tree.fill(item, linesOf(all.slice(body + 1, types < 0 ? undefined : types)));
  return { $defs: tree.defs, type: 'array', items: item };
}
