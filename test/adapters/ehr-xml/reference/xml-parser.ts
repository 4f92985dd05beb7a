/**
 * The differential oracle's tree builder: fast-xml-parser, as the service used it before the XML
 * reader became its one engine. It is only ever handed canonical XML that saxes has found
 * well-formed (conforming-check.ts), so it decides nothing about well-formedness; it builds the tree
 * the mapping walk (walk.ts beside this file) maps, independently of the reader.
 */
import { XMLParser, type MatcherView } from 'fast-xml-parser';
import { malformed } from '../../../../src/adapters/ehr-xml/malformed-document-error.js';
import { MAX_DEPTH } from '../../../../src/adapters/ehr-xml/xml-text.js';
import type { ArrayPaths } from './array-paths.js';

export type ParsedNode = Record<string, unknown>;

export interface DocumentParser {
  /** The content of the root element (`{}` for an empty root) of canonical, well-formed XML. */
  parse(canonical: string): ParsedNode;
}

export function documentParser(root: string, arrays: ArrayPaths): DocumentParser {
  const parser = new XMLParser({
    ignoreAttributes: false,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    htmlEntities: false,
    processEntities: true,
    maxNestedTags: MAX_DEPTH - 1,
    strictReservedNames: true,
    jPath: false,
    isArray: (_name: string, path: string | MatcherView, _isLeaf: boolean, isAttribute: boolean) =>
      !isAttribute && arrays.has(path.toString()),
  });
  return {
    parse(canonical: string): ParsedNode {
      return rootContent(parser.parse(canonical) as ParsedNode, root);
    },
  };
}

function rootContent(tree: ParsedNode, root: string): ParsedNode {
  const content = tree[root];
  if (typeof content === 'string') {
    if (content.trim() !== '') throw malformed(`unexpected text in ${root}`);
    return {};
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) throw malformed(`bad ${root}`);
  return content as ParsedNode;
}
