/**
 * The mapping walk: one pass over the parsed tree, guided by a compiled shape. Unknown elements and
 * attributes are ignored (a minor XSD version may add them); a repeated element where one is
 * expected, a missing `!` element or a failed conversion makes the document malformed.
 */
import { isElementObject, isNil } from './leaves.js';
import { malformed } from './malformed-document-error.js';
import type { CompiledField, CompiledObject, MapContext } from './shape.js';

type Out = Record<string, unknown>;

/** An element mapped by its object shape; undefined when the element is absent or empty. */
export function mapObject(raw: unknown, shape: CompiledObject, name: string, ctx: MapContext): Out | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return undefined;
    throw malformed(`unexpected text in ${name}`);
  }
  if (!isElementObject(raw)) throw malformed(`bad ${name}`);
  if (isNil(raw)) return undefined;
  return fill(raw, shape, ctx);
}

function fill(node: Record<string, unknown>, shape: CompiledObject, ctx: MapContext): Out {
  const out: Out = {};
  for (const f of shape.fields) mapField(f, node[f.inKey], ctx, out);
  return out;
}

function convert(f: CompiledField, raw: unknown, ctx: MapContext): unknown {
  return f.object ? mapObject(raw, f.object, f.name, ctx) : f.convert?.(raw, f.name, ctx);
}

function mapField(f: CompiledField, raw: unknown, ctx: MapContext, out: Out): void {
  const { options } = f;
  if (options.many) {
    const items: unknown[] = [];
    if (Array.isArray(raw)) {
      for (const r of raw) {
        const v = convert(f, r, ctx);
        if (v !== undefined) items.push(v);
      }
    } else if (raw !== undefined) {
      const v = convert(f, raw, ctx);
      if (v !== undefined) items.push(v);
    }
    out[f.outKey] = items;
    return;
  }
  if (Array.isArray(raw)) throw malformed(`repeated ${f.name}`);
  let v = convert(f, raw, ctx);
  if (v === undefined) {
    if (options.wrapper && f.object) v = fill({}, f.object, ctx);
    else if (options.required) throw malformed(`missing ${f.name}`);
    else return;
  }
  if (f.flattenKey !== undefined) out[f.outKey] = (v as Out)[f.flattenKey];
  else if (options.spread) Object.assign(out, v);
  else out[f.outKey] = v;
}

/** Maps the root element's content; the root always exists, so its arrays and wrappers do too. */
export function mapRoot(content: Record<string, unknown>, shape: CompiledObject, ctx: MapContext): Out {
  return fill(content, shape, ctx);
}
