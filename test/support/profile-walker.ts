/**
 * What @medplum/core 4.5.2 does not do with a profile, done from the profile's own snapshot: Medplum
 * applies a profile to the resource's top level only (each nested object is checked against its base
 * type), counts slices without checking what a slice says of its members, mistakes a `type`
 * discriminator on a child (`Bundle.entry` by `resource`) and nested slicing (`parameter.part`), and
 * judges no binding. This walks every element the snapshot declares, at any depth: cardinality, the
 * types a choice allows, fixed and pattern values, required bindings (test/support/required-bindings.ts's
 * expansion), slices matched by their `value` or `type` discriminators (with an extension slice's url
 * taken from its profile) and checked member by member, the profiles an element's type names
 * (extensions, a Bundle entry's resource), and the profile's own invariants, each evaluated with its
 * own FHIRPath by Medplum's engine. What it cannot judge it refuses loudly (an unknown discriminator,
 * an ordered slicing), so a silent pass is never a skipped rule.
 */
import { evalFhirPathTyped, toTypedValue } from '@medplum/core';
import { isDeepStrictEqual } from 'node:util';
import { allowedCodesIn, type Term } from './required-bindings.js';

export interface TypeRef { code: string; profile?: string[]; extension?: { url: string; valueUrl?: string }[] }
export interface ElementDefinition {
  id: string; path: string; min?: number; max?: string; type?: TypeRef[]; sliceName?: string;
  slicing?: { discriminator?: { type: string; path: string }[]; rules?: string; ordered?: boolean };
  binding?: { strength: string; valueSet?: string };
  constraint?: { key: string; severity: string; expression?: string; human: string; source?: string }[];
  [fixedOrPattern: `fixed${string}` | `pattern${string}`]: unknown;
}
export interface StructureDefinition { resourceType: 'StructureDefinition'; id: string; url: string; type: string; snapshot: { element: ElementDefinition[] } }
interface Node { el: ElementDefinition; children: Map<string, Node>; slices: Map<string, Node> }
export interface Definitions { profiles: ReadonlyMap<string, StructureDefinition>; terms: ReadonlyMap<string, Term> }
type Json = Record<string, unknown>;
interface Found { at: string; key: string; type: string | undefined; value: unknown; element: unknown }

const IG = 'http://hl7.org/fhir/uv/subscriptions-backport/';
const trees = new WeakMap<StructureDefinition, Node>();
/** The snapshot as a tree: children by name, slices by name, from the element ids (`a.b:slice.c`). */
function treeOf(sd: StructureDefinition): Node {
  const cached = trees.get(sd);
  if (cached) return cached;
  const [rootElement, ...rest] = sd.snapshot.element;
  const root: Node = { el: rootElement as ElementDefinition, children: new Map(), slices: new Map() };
  for (const el of rest) {
    let node = root;
    for (const segment of el.id.split('.').slice(1)) {
      const [name = '', slice] = segment.split(':');
      let child = node.children.get(name);
      if (!child) node.children.set(name, child = { el, children: new Map(), slices: new Map() });
      node = child;
      if (slice !== undefined) {
        let sliced = node.slices.get(slice);
        if (!sliced) node.slices.set(slice, sliced = { el, children: new Map(), slices: new Map() });
        node = sliced;
      }
    }
  }
  trees.set(sd, root);
  return root;
}

/** An element's name in messages: an extension's elements with the extension's id, as their ids are all `Extension.…`. */
const named = (el: ElementDefinition, sd: StructureDefinition): string => (sd.type === 'Extension' ? `${el.id} of ${sd.id}` : el.id);
const typeCode = (t: TypeRef): string => t.extension?.find((e) => e.url.endsWith('structuredefinition-fhir-type'))?.valueUrl ?? t.code;
const isPrimitive = (code: string): boolean => /^[a-z]/.test(code);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The values of element `name` (a choice `value[x]` included) in `obj` at `path`: each with its path, type and a primitive's `_` part. */
function valuesOf(obj: Json, name: string, el: ElementDefinition, path: string): Found[] {
  const choice = name.endsWith('[x]') ? name.slice(0, -3) : undefined;
  const keys = choice === undefined ? [name] : [...new Set(Object.keys(obj).map((k) => k.replace(/^_/, '')))]
    .filter((k) => k.startsWith(choice) && /^[A-Z]/.test(k.slice(choice.length)));
  return keys.flatMap((key) => {
    const suffix = choice === undefined ? undefined : key.slice(choice.length);
    const type = suffix === undefined ? el.type?.map(typeCode)[0] ?? '' : (el.type ?? []).map(typeCode).find((c) => c.toLowerCase() === suffix.toLowerCase());
    const many = Array.isArray(obj[key]) || Array.isArray(obj[`_${key}`]);
    const values = arrayOf(obj[key]);
    const parts = arrayOf(obj[`_${key}`]);
    return Array.from({ length: Math.max(values.length, parts.length) }, (_, i) => (
      { at: many ? `${path}.${key}[${i}]` : `${path}.${key}`, key, type, value: values[i] ?? undefined, element: parts[i] ?? undefined }));
  });
}

/** `pattern` holds in `value`: every member it names, recursively; each array item it lists found in the value's array. */
function includes(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) return Array.isArray(value) && pattern.every((p) => value.some((v) => includes(v, p)));
  if (isObject(pattern)) return isObject(value) && Object.entries(pattern).every(([k, p]) => includes(value[k], p));
  return isDeepStrictEqual(value, pattern);
}

export class ProfileWalker {
  private readonly issues: string[] = [];
  constructor(private readonly defs: Definitions) {}

  /** Every way `value` (at `path`) breaks profile `sd`. */
  check(value: unknown, sd: StructureDefinition, path: string): string[] {
    const root = treeOf(sd);
    this.invariants(value, root, path, sd);
    this.walk(value, root, path, sd);
    return [...new Set(this.issues)];
  }

  /** The profile's own invariants (its FHIRPath, evaluated by Medplum); the base ones are Medplum's base validation's. */
  private invariants(value: unknown, node: Node, at: string, sd: StructureDefinition): void {
    for (const c of node.el.constraint ?? []) {
      if (c.severity !== 'error' || c.source !== sd.url || c.expression === undefined) continue;
      const result = evalFhirPathTyped(c.expression, [toTypedValue(value)]);
      if (!(result.length === 1 && result[0]?.value === true)) this.issues.push(`${at}: invariant ${c.key} not met: ${c.human}`);
    }
  }

  private walk(value: unknown, node: Node, path: string, sd: StructureDefinition): void {
    if (!isObject(value)) return;
    for (const [name, child] of node.children) {
      const found = valuesOf(value, name, child.el, path);
      const { el } = child;
      const max = el.max === '*' || el.max === undefined ? Infinity : Number(el.max);
      const where = `${path}.${name.replace('[x]', '')}`;
      if (found.length < (el.min ?? 0)) this.issues.push(`${where}: ${el.min ?? 0} required by ${named(el, sd)}, found ${found.length}`);
      if (found.length > max) this.issues.push(`${where}: at most ${el.max} allowed by ${named(el, sd)}, found ${found.length}`);
      for (const f of found) {
        if (f.type === undefined) this.issues.push(`${f.at}: ${f.key} is not allowed by ${named(el, sd)} (its types: ${(el.type ?? []).map(typeCode).join(', ')})`);
        else this.values(f, child, sd);
      }
      if (el.slicing && child.slices.size > 0) this.sliced(found, child, sd, where);
    }
  }

  private values(f: Found, node: Node, sd: StructureDefinition): void {
    const { el } = node;
    const { value, at, type } = f;
    for (const [key, expected] of Object.entries(el)) {
      if (key.startsWith('fixed') && !isDeepStrictEqual(value, expected)) this.issues.push(`${at}: must be ${JSON.stringify(expected)} (${named(el, sd)}), is ${JSON.stringify(value)}`);
      if (key.startsWith('pattern') && !includes(value, expected)) this.issues.push(`${at}: must match ${JSON.stringify(expected)} (${named(el, sd)}), is ${JSON.stringify(value)}`);
    }
    if (el.binding?.strength === 'required' && el.binding.valueSet !== undefined) this.binding(value, type, el.binding.valueSet, at);
    this.invariants(value, node, at, sd);
    const profile = el.type?.find((t) => typeCode(t) === type || el.type?.length === 1)?.profile?.[0];
    const target = profile === undefined ? undefined : [...this.defs.profiles.values()].find((p) => p.url === profile);
    if (profile?.startsWith(IG) === true && !target) throw new Error(`${el.id}: profile ${profile} is not in the definitions folder`);
    if (target) {
      this.invariants(value, treeOf(target), at, target);
      this.walk(value, treeOf(target), at, target);
    }
    if (node.children.size === 0) return;
    // A primitive's id and extensions sit in its `_` part (JSON: `_payload.extension`); its value stays where it is.
    if (type !== undefined && isPrimitive(type)) this.walk(f.element ?? {}, { ...node, children: new Map([...node.children].filter(([n]) => n !== 'value')) }, at, sd);
    else this.walk(value, node, at, sd);
  }

  private binding(value: unknown, type: string | undefined, valueSet: string, at: string): void {
    const allowed = allowedCodesIn(this.defs.terms, valueSet);
    if (!allowed) return; // a ValueSet built by a filter or from others (mimetypes): not judged, as required-bindings.ts
    const codings = type === 'code' ? [{ code: value }] : type === 'Coding' ? [value] : type === 'CodeableConcept' ? arrayOf((value as Json | undefined)?.coding) : [];
    const ok = (c: unknown): boolean => {
      const { system, code } = c as { system?: string; code?: string };
      return system === undefined ? [...allowed.values()].some((s) => s.has(code ?? '')) : allowed.get(system)?.has(code ?? '') ?? false;
    };
    if (codings.length > 0 && !codings.some(ok)) this.issues.push(`${at}: ${JSON.stringify(type === 'code' ? value : codings)} is not in the required ValueSet ${valueSet}`);
  }

  /** Each member of a sliced element matched to its slice by the discriminators, counted, and checked against that slice. */
  private sliced(found: Found[], node: Node, sd: StructureDefinition, where: string): void {
    const { slicing } = node.el;
    if (slicing?.ordered === true) throw new Error(`${node.el.id}: ordered slicing is not judged here`);
    const counts = new Map([...node.slices.keys()].map((s) => [s, 0]));
    for (const f of found) {
      const match = [...node.slices].find(([, slice]) => (slicing?.discriminator ?? []).every((d) => this.discriminates(f.value, d, slice)));
      if (!match) {
        if (slicing?.rules === 'closed') this.issues.push(`${f.at}: matches no slice of ${named(node.el, sd)}, whose slicing is closed`);
        continue;
      }
      counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
      this.values(f, match[1], sd);
    }
    for (const [slice, n] of counts) {
      const { el } = node.slices.get(slice) as Node;
      const max = el.max === '*' || el.max === undefined ? Infinity : Number(el.max);
      if (n < (el.min ?? 0) || n > max) this.issues.push(`${where}: slice ${slice} (${named(el, sd)}) needs ${el.min ?? 0}..${el.max ?? '*'}, found ${n}`);
    }
  }

  private discriminates(item: unknown, d: { type: string; path: string }, slice: Node): boolean {
    if (!isObject(item)) return false;
    if (d.path.includes('.') || d.path === '$this') throw new Error(`discriminator path ${d.path} is not judged here`);
    const at = slice.children.get(d.path);
    if (d.type === 'value' || d.type === 'pattern') {
      const fixed = at ? Object.entries(at.el).find(([k]) => k.startsWith('fixed') || k.startsWith('pattern'))?.[1] : undefined;
      // An extension slice names its extension by its type's profile, not by a fixed url in the snapshot.
      const expected = fixed ?? (d.path === 'url' ? slice.el.type?.[0]?.profile?.[0] : undefined);
      if (expected === undefined) throw new Error(`${slice.el.id}: no value for discriminator ${d.path}`);
      return isDeepStrictEqual(item[d.path], expected);
    }
    if (d.type === 'type') {
      const codes = (at?.el.type ?? []).map(typeCode);
      const actual = item[d.path];
      return isObject(actual) && (codes.includes('Resource') || codes.includes(String(actual.resourceType)));
    }
    throw new Error(`${slice.el.id}: discriminator type ${d.type} is not judged here`);
  }
}
