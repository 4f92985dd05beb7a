/**
 * The EHR's own `from`/`to` filter (docs/upstream-ehr.md#2-requests-and-answers): a document re-serialised without the items whose time
 * lies outside the inclusive range. Text, entities, CDATA, comments and prefixes pass through as
 * written (entities are not even decoded). An item whose time cannot be read is kept, for the
 * consumer to judge; a document that is not well-formed is served as it is, unfiltered.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DOCUMENTS, type DocumentKind } from '../../adapters/ehr-xml/documents.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import { compactToEpochMs, parseCompact } from '../../domain/time/local-time.js';

type Node = Record<string, unknown>;

/** Where the filtered items sit below the root, and the path of the TimeValue each is filtered on. */
const OPTIONS = {
  preserveOrder: true, ignoreAttributes: false, parseTagValue: false, parseAttributeValue: false, trimValues: false,
  processEntities: false, htmlEntities: false, commentPropName: '#comment', cdataPropName: '#cdata', removeNSPrefix: false,
} as const;
const parser = new XMLParser(OPTIONS);
const builder = new XMLBuilder({ ...OPTIONS, suppressEmptyNode: true, format: false });
const DTD_MARKUP = /<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

const tagOf = (node: Node): string | undefined =>
  Object.keys(node).find((k) => k !== ':@' && !k.startsWith('#') && !k.startsWith('?'));
const localName = (tag: string): string => tag.slice(tag.indexOf(':') + 1);
const childrenOf = (node: Node, tag: string): Node[] => (Array.isArray(node[tag]) ? node[tag] as Node[] : []);
const isBlank = (node: Node | undefined): boolean =>
  node !== undefined && typeof node['#text'] === 'string' && (node['#text']).trim() === '';

function childNamed(node: Node, tag: string, name: string): Node | undefined {
  return childrenOf(node, tag).find((c) => {
    const t = tagOf(c);
    return t !== undefined && localName(t) === name;
  });
}

function instantOf(item: Node, itemTag: string, time: readonly string[], zone: string): number | undefined {
  let node: Node | undefined = item;
  let tag: string | undefined = itemTag;
  for (const name of time) {
    node = node !== undefined && tag !== undefined ? childNamed(node, tag, name) : undefined;
    tag = node === undefined ? undefined : tagOf(node);
  }
  // A mirror document may give the TS value as a child element instead of an attribute: kept, unread.
  const value = (node?.[':@'] as Record<string, unknown> | undefined)?.['@_value'];
  if (typeof value !== 'string' || parseCompact(value) === undefined) return undefined;
  return compactToEpochMs(value, zone);
}

function prune(nodes: Node[], path: readonly string[], time: readonly string[], inRange: (ms: number) => boolean, zone: string): void {
  const [head, ...rest] = path;
  for (let i = nodes.length - 1; i >= 0; i -= 1) {
    const node = nodes[i] as Node;
    const tag = tagOf(node);
    if (tag === undefined || localName(tag) !== head) continue;
    if (rest.length > 0) {
      prune(childrenOf(node, tag), rest, time, inRange, zone);
      continue;
    }
    const at = instantOf(node, tag, time, zone);
    if (at === undefined || inRange(at)) continue;
    // The indentation before a removed item goes with it.
    const from = isBlank(nodes[i - 1]) ? i - 1 : i;
    nodes.splice(from, i - from + 1);
  }
}

/** `xml` without the items outside `range`; unchanged when there is no range or nothing to filter. */
export function filterByRange(kind: DocumentKind, xml: string, range: TimeRange, zone: string): string {
  const items = DOCUMENTS[kind].filtered;
  if (items === undefined || (range.from === undefined && range.to === undefined)) return xml;
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (DTD_MARKUP.test(text) || XMLValidator.validate(text) !== true) return xml;
  const from = range.from === undefined ? -Infinity : compactToEpochMs(range.from, zone);
  const to = range.to === undefined ? Infinity : compactToEpochMs(range.to, zone);
  const tree = parser.parse(text) as Node[];
  const root = tree.find((n) => tagOf(n) !== undefined);
  const rootTag = root === undefined ? undefined : tagOf(root);
  if (root === undefined || rootTag === undefined) return xml;
  for (const { path, time } of items) {
    prune(childrenOf(root, rootTag), path, time, (ms) => ms >= from && ms <= to, zone);
  }
  // Built node by node so the line breaks between declaration, comment and root survive.
  return `${tree.map((node) => builder.build([node]) as string).join('\n')}\n`;
}
