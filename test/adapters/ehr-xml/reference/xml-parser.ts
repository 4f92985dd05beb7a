/**
 * The reference engine's parser: the one place XML text becomes a tree (README §5). It maps every
 * document the single-pass reader (fast-reader.ts) gives back, malformed ones included, and so
 * decides every refusal and its reason. Order matters: DTD markup is refused before anything reads
 * the document, well-formedness is checked by the validator (the parser alone accepts truncated
 * documents and mismatched end tags), and only then is the tree built, with nesting bounded so
 * neither the parser's nor the mapper's recursion can run away.
 */
import { XMLParser, XMLValidator, type MatcherView } from 'fast-xml-parser';
import type { ArrayPaths } from './array-paths.js';
import { malformed, type MalformedDocumentError } from './malformed-document-error.js';
import { withoutBom } from './xml-text.js';

/** Deepest element nesting accepted; the deepest real document (journal notes) needs about 20. */
export const MAX_DEPTH = 64;

// A DTD is never legitimate here (README §1); case-insensitive so `<!doctype` cannot slip past.
export const DTD_MARKUP = /<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

export type ParsedNode = Record<string, unknown>;

export interface DocumentParser {
  /** The content of the root element (`{}` for an empty root); throws MalformedDocumentError. */
  parse(xml: string): ParsedNode;
  /** Whether `text` (BOM removed) is the bare empty root this parser's empty-root check accepts. */
  isBareEmptyRoot(text: string): boolean;
}

/**
 * The validator never marks a self-closed root as finished, so text after `<Root/>` slips through
 * it and the parser drops it. An empty root is therefore checked against the whole text, which is
 * short whenever the root is empty.
 */
function bareEmptyRoot(root: string): RegExp {
  const name = `(?:[^\\s<>/:]+:)?${root}`;
  return new RegExp(`^<${name}(?:\\s[^<>]*)?(?:/>|>\\s*</${name}\\s*>)$`);
}
const DECLARATIONS_AND_COMMENTS = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g;

/** The refusal of a document the parser will not build, nesting deeper than MAX_DEPTH among others. */
export const notParseable = (): MalformedDocumentError => malformed('not parseable XML');

export function documentParser(root: string, arrays: ArrayPaths): DocumentParser {
  const emptyRoot = bareEmptyRoot(root);
  const parser = new XMLParser({
    ignoreAttributes: false,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    htmlEntities: true,
    processEntities: true,
    // The parser counts the root separately: this admits exactly MAX_DEPTH levels.
    maxNestedTags: MAX_DEPTH - 1,
    // `__proto__`, `constructor` and `prototype` element names make the parser throw.
    strictReservedNames: true,
    // A MatcherView instead of a path string: the string is then built only where isArray needs it.
    jPath: false,
    isArray: (_name: string, path: string | MatcherView, _isLeaf: boolean, isAttribute: boolean) =>
      !isAttribute && arrays.has(path.toString()),
  });

  const isBareEmptyRoot = (text: string): boolean => emptyRoot.test(text.replace(DECLARATIONS_AND_COMMENTS, '').trim());
  return {
    isBareEmptyRoot,
    parse(xml: string): ParsedNode {
      const text = withoutBom(xml);
      if (DTD_MARKUP.test(text)) throw malformed('DTD markup is not accepted');
      if (XMLValidator.validate(text) !== true) throw malformed('not well-formed XML');
      let tree: ParsedNode;
      try {
        tree = parser.parse(text) as ParsedNode;
      } catch {
        // The parser's own message may quote the document: it is deliberately dropped.
        throw notParseable();
      }
      const content = rootContent(tree, root);
      if (isEmpty(content) && !isBareEmptyRoot(text)) {
        throw malformed('not well-formed XML');
      }
      return content;
    },
  };
}

function rootContent(tree: ParsedNode, root: string): ParsedNode {
  const elements = Object.keys(tree).filter((k) => !k.startsWith('?'));
  if (elements.length !== 1 || elements[0] !== root) throw malformed('unexpected root element');
  const content = tree[root];
  // The validator lets a second self-closed root through; the parser then gives an array.
  if (Array.isArray(content)) throw malformed('more than one root element');
  if (typeof content === 'string') {
    if (content.trim() !== '') throw malformed(`unexpected text in ${root}`);
    return {};
  }
  if (typeof content !== 'object' || content === null) throw malformed(`bad ${root}`);
  return content as ParsedNode;
}

function isEmpty(content: ParsedNode): boolean {
  for (const key in content) if (!key.startsWith('@_')) return false;
  return true;
}
