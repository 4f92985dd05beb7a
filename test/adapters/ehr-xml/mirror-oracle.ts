/**
 * Issue 13: an independent reading of the mirror rule (docs/upstream-ehr.md#3-documents, "Mirror documents") for
 * the differential tests of the mirror reader. Nothing of the production path is shared but the
 * answer's typebox schema: saxes (through the reference oracle's conforming check) judges the XML
 * and writes it canonically, fast-xml-parser builds the tree, and this file walks the tree along the
 * schema itself (the reader walks shapes derived from it by mirror-shape.ts).
 */
import { XMLParser } from 'fast-xml-parser';
import { isCompactDate, isCompactDateTime } from '../../../src/domain/time/local-time.js';
import { COMPACT_TIME_PATTERN } from '../../../src/domain/records/index.js';
import { malformed } from '../../../src/adapters/ehr-xml/malformed-document-error.js';
import { conformingCanonical } from './reference/conforming-check.js';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  pattern?: string;
  $defs?: Record<string, Schema>;
  $ref?: string;
}

const definitions = new Map<string, Schema>();

/** A recursive member (`Type.Cyclic`: a diagnosis within a diagnosis) as the definition it refers to. */
export function resolved(s: Schema | undefined): Schema {
  for (const [id, def] of Object.entries(s?.$defs ?? {})) definitions.set(id, def);
  if (s?.$ref === undefined) return s ?? {};
  const def = definitions.get(s.$ref);
  if (def === undefined) throw new Error(`no definition of ${s.$ref}`);
  return def;
}
type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, trimValues: true,
  processEntities: true, htmlEntities: false,
  // Every element an array: the schema, not the parser, says what may repeat.
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
});

const isWrapper = (s: Schema): boolean => {
  const members = Object.values(s.properties ?? {});
  return members.length === 1 && members[0]?.type === 'array';
};

const isNil = (node: Node): boolean => node['@_nil'] === 'true' || node['@_nil'] === '1';
/** Absent by xsi:nil, and refused with text or elements inside, which would be dropped unseen. */
function absentByNil(node: Node, name: string): undefined {
  if (Object.entries(node).some(([k, v]) => !k.startsWith('@_') && (typeof v !== 'string' || v.trim() !== ''))) throw malformed(`content inside a nil ${name}`);
  return undefined;
}

/** The text of a leaf element (a string, or an object of text and attributes), trimmed; undefined when empty. */
function leafText(raw: unknown, name: string): string | undefined {
  let text: unknown = raw;
  if (typeof raw === 'object' && raw !== null) {
    const node = raw as Node;
    if (isNil(node)) return absentByNil(node, name);
    if (Object.keys(node).some((k) => k !== '#text' && !k.startsWith('@_'))) throw malformed(`unexpected content in ${name}`);
    text = node['#text'];
  }
  if (text === undefined) return undefined;
  const t = String(text).trim();
  return t === '' ? undefined : t;
}

function convert(text: string | undefined, s: Schema, name: string): unknown {
  if (text === undefined) return undefined;
  switch (s.type) {
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw malformed(`bad boolean ${name}`);
      return text === 'true';
    case 'integer':
      if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw malformed(`bad integer ${name}`);
      return Number(text);
    case 'number':
      if (!/^-?\d+(?:\.\d+)?$/.test(text) || !Number.isFinite(Number(text))) throw malformed(`bad number ${name}`);
      return Number(text);
    default:
      if (s.pattern === COMPACT_TIME_PATTERN && !isCompactDateTime(text) && !isCompactDate(text)) throw malformed(`bad time value in ${name}`);
      return text;
  }
}

function single(node: Node, name: string): unknown {
  const items = node[name] as unknown[] | undefined;
  if (items !== undefined && items.length > 1) throw malformed(`repeated ${name}`);
  return items?.[0];
}

function member(node: Node, name: string, s: Schema, out: Node): boolean {
  if (name === '$self') {
    const text = convert(leafText(node['#text'], name), s, name);
    if (text !== undefined) out[name] = text;
    return text !== undefined;
  }
  if (s.type === 'array') {
    const itemSchema = resolved(s.items);
    const items = ((node[name] as unknown[] | undefined) ?? [])
      .map((raw) => (itemSchema.type === 'object' ? object(raw, itemSchema, name) : convert(leafText(raw, name), itemSchema, name)))
      .filter((v) => v !== undefined);
    out[name] = items;
    return items.length > 0;
  }
  if (s.type === 'object') {
    const value = object(single(node, name), s, name);
    if (value !== undefined) out[name] = value;
    else if (isWrapper(s)) out[name] = object({}, s, name, true);
    return value !== undefined;
  }
  const element = convert(leafText(single(node, name), name), s, name);
  const attribute = convert(leafText(node[`@_${name}`], name), s, name);
  if (element !== undefined && attribute !== undefined) throw malformed(`repeated ${name}`);
  const value = element ?? attribute;
  if (value !== undefined) out[name] = value;
  return value !== undefined;
}

function object(raw: unknown, s: Schema, name: string, always = false): Node | undefined {
  if (raw === undefined) return always ? object({}, s, name, true) : undefined;
  let node: Node;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return always ? object({}, s, name, true) : undefined;
    if (s.properties?.$self === undefined) throw malformed(`unexpected text in ${name}`);
    node = { '#text': raw };
  } else {
    node = raw as Node;
    if (isNil(node) && !always) return absentByNil(node, name);
    // An element the schema does not take, inside one whose own text is mapped, would drop its text from it.
    const taken = s.properties ?? {};
    if (taken.$self !== undefined && Object.keys(node).some((k) => k !== '#text' && !k.startsWith('@_') && !Object.hasOwn(taken, k))) {
      throw malformed(`an element inside the text of ${name}`);
    }
  }
  const out: Node = {};
  let found = 0;
  for (const [key, ms] of Object.entries(s.properties ?? {})) if (member(node, key, ms, out)) found++;
  return found === 0 && !always ? undefined : out;
}

/** The answer to a mirror document of `root` whose item is `item`; `version` names the member the root's @version fills. */
export function oracleMirror(xml: string, root: string, item: Schema, version?: string): unknown[] {
  const tree = parser.parse(conformingCanonical(xml, root)) as Node;
  const content = (tree[root] as unknown[] | undefined)?.[0] ?? {};
  const node = (typeof content === 'string' ? {} : content) as Node;
  const properties = Object.fromEntries(Object.entries(item.properties ?? {}).filter(([key]) => key !== version));
  const answer = object(node, { type: 'object', properties }, root, true) as Node;
  // A bad version is refused even where no extract follows.
  const v = version === undefined ? undefined : convert(leafText(node['@_version'], 'version'), { type: 'number' }, 'version');
  const [extracts] = Object.keys(properties);
  if (extracts === undefined || (answer[extracts] as unknown[]).length === 0) return [];
  if (version !== undefined && v !== undefined) answer[version] = { version: v };
  return [answer];
}
