/**
 * The mapping walk over a parsed tree, guided by a compiled shape: the tests' differential oracle
 * (test/adapters/ehr-xml/reference/). Unknown elements and attributes are ignored (a minor XSD
 * version may add them), but for an element inside one whose own text is mapped; a repeated element where one is expected (or a member given both as
 * attribute and as element), a missing `!` element or a failed conversion makes the document malformed.
 */
import { isElementObject, isNil, nilled } from '../../../../src/adapters/ehr-xml/leaves.js';
import { malformed } from '../../../../src/adapters/ehr-xml/malformed-document-error.js';
import type { CompiledField, CompiledObject, MapContext } from '../../../../src/adapters/ehr-xml/shape.js';

type Out = Record<string, unknown>;

/** An element mapped by its object shape; undefined when the element is absent or empty. */
export function mapObject(raw: unknown, shape: CompiledObject, name: string, ctx: MapContext): Out | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return undefined;
    // Text alone: fast-xml-parser gives a string, which only a shape with `$self` takes.
    if (shape.selfIndex >= 0) return fill({ '#text': raw }, shape, ctx, true);
    throw malformed(`unexpected text in ${name}`);
  }
  if (!isElementObject(raw)) throw malformed(`bad ${name}`);
  if (isNil(raw)) return nilled(raw, name);
  if (shape.selfIndex >= 0) refuseElementsInText(raw, shape, name);
  return fill(raw, shape, ctx, true);
}

/** An element the shape does not take, inside one whose own text is mapped, would drop its text from it. */
function refuseElementsInText(node: Record<string, unknown>, shape: CompiledObject, name: string): void {
  const taken = new Set(shape.fields.map((f) => f.inKey));
  for (const key in node) {
    if (!key.startsWith('@_') && !taken.has(key)) throw malformed(`an element inside the text of ${name}`);
  }
}

/** The object of `node`; with `orAbsent`, undefined when the shape says so and no member was found. */
function fill(node: Record<string, unknown>, shape: CompiledObject, ctx: MapContext, orAbsent: true): Out | undefined;
function fill(node: Record<string, unknown>, shape: CompiledObject, ctx: MapContext, orAbsent: false): Out;
function fill(node: Record<string, unknown>, shape: CompiledObject, ctx: MapContext, orAbsent: boolean): Out | undefined {
  const out: Out = {};
  let found = 0;
  for (const f of shape.fields) if (mapField(f, node[f.inKey], ctx, out, node)) found++;
  return orAbsent && found === 0 && shape.absentWhenEmpty ? undefined : out;
}

function convert(f: CompiledField, raw: unknown, ctx: MapContext): unknown {
  return f.object ? mapObject(raw, f.object, f.name, ctx) : f.convert?.(raw, f.name, ctx);
}

/** Maps one field into `out`; true when the document gave it a value (defaults do not count). */
function mapField(f: CompiledField, raw: unknown, ctx: MapContext, out: Out, node: Record<string, unknown>): boolean {
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
    return items.length > 0;
  }
  if (Array.isArray(raw)) throw malformed(`repeated ${f.name}`);
  let v = convert(f, raw, ctx);
  if (f.alsoAttribute) {
    const attribute = convert(f, node[`@_${f.name}`], ctx);
    if (v !== undefined && attribute !== undefined) throw malformed(`repeated ${f.name}`);
    v ??= attribute;
  }
  const found = v !== undefined;
  if (v === undefined) {
    if (options.wrapper && f.object) v = fill({}, f.object, ctx, false);
    else if (options.required) throw malformed(`missing ${f.name}`);
    else return false;
  }
  if (f.flattenKey !== undefined) out[f.outKey] = (v as Out)[f.flattenKey];
  else if (options.spread) Object.assign(out, v);
  else out[f.outKey] = v;
  return found;
}

/** Maps the root element's content; the root always exists, so its arrays and wrappers do too. */
export function mapRoot(content: Record<string, unknown>, shape: CompiledObject, ctx: MapContext): Out {
  return fill(content, shape, ctx, false);
}
