/**
 * The differential oracle's judge of well-formedness: saxes, a conforming XML 1.0 parser, plus the
 * service's own rules on top of XML (docs/upstream-ehr.md#1-rules-every-document-follows, issue 12 item 7): no DTD, version 1.0, at most one
 * colon in a name, no prefixed attribute but xsi:nil and xmlns:*, no attribute repeated by local
 * name, no `__proto__`/`constructor`/`prototype` element, nesting at most MAX_DEPTH, the expected
 * root. A document it accepts comes back canonical: comments and PIs dropped, references resolved
 * and written again with the five entities or as character references, and CDATA written as the
 * text it is: the tree builder then sees an element's character data, references and CDATA as the
 * one text they form (docs/upstream-ehr.md#1-rules-every-document-follows), whitespace beside them
 * kept, instead of trimming each piece apart as fast-xml-parser's trimValues does.
 */
import { SaxesParser, type SaxesAttributeNS, type SaxesTagPlain } from 'saxes';
import { malformed } from '../../../../src/adapters/ehr-xml/malformed-document-error.js';
import { DTD_MARKUP, FORBIDDEN_NAMES, MAX_DEPTH, withoutBom } from '../../../../src/adapters/ehr-xml/xml-text.js';

const NOT_WELL_FORMED = 'not well-formed XML';

const escapeText = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttribute = (s: string): string =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

/**
 * A name as the tree builder is to read it. XML takes U+FEFF and U+1680 as name characters
 * (NameStartChar ranges #xFDF0-#xFFFD and #x037F-#x1FFF), JavaScript's `\s`, and so fast-xml-parser,
 * as white space: `<Value \uFEFFJournalValueType="Text">` is an attribute of another name, which the
 * reader rightly ignores, and fast-xml-parser read it as JournalValueType (PDAS_FUZZ_SEED=37411252).
 * Written as U+00B7, a name character in no name the documents know, the name stays another one.
 */
const canonicalName = (name: string): string => name.replace(/[\uFEFF\u1680]/g, '\u00B7');

const localOf = (qname: string): string => qname.slice(qname.indexOf(':') + 1);
const isQName = (name: string): boolean => {
  const colon = name.indexOf(':');
  return colon < 0 || (colon > 0 && colon < name.length - 1 && name.indexOf(':', colon + 1) < 0);
};

/** The canonical text of `xml`, or the refusal the oracle gives it (the first fault in document order). */
export function conformingCanonical(xml: string, root: string): string {
  const text = withoutBom(xml);
  if (DTD_MARKUP.test(text)) throw malformed('DTD markup is not accepted');
  const parser = new SaxesParser({ xmlns: false });
  let fault: Error | undefined;
  const fail = (reason: string): void => {
    fault ??= malformed(reason);
  };
  const out: string[] = [];
  // Each open element: where its open tag is in `out`, where its text parts are, whether it has a child.
  const frames: { open: number; texts: number[]; hasChild: boolean }[] = [];
  const pushText = (escaped: string): void => {
    frames.at(-1)?.texts.push(out.length);
    out.push(escaped);
  };
  let depth = 0;
  let roots = 0;
  parser.on('error', () => fail(NOT_WELL_FORMED));
  parser.on('xmldecl', (decl) => {
    if (decl.version !== '1.0') fail(NOT_WELL_FORMED);
    // The EHR writes UTF-8 (docs/upstream-ehr.md §1): text declared another encoding is not the text written.
    else if (decl.encoding !== undefined && decl.encoding.toLowerCase() !== 'utf-8') fail('an encoding other than UTF-8');
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (!isQName(tag.name)) fail(NOT_WELL_FORMED);
    const local = localOf(tag.name);
    if (depth === 0 && roots++ > 0) fail(local === root ? 'more than one root element' : 'unexpected root element');
    if (depth === 0 && local !== root) fail('unexpected root element');
    if (++depth > MAX_DEPTH || FORBIDDEN_NAMES.has(local)) fail('not parseable XML');
    const seen = new Set<string>();
    let attrs = '';
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string | SaxesAttributeNS>)) {
      if (!isQName(name)) fail(NOT_WELL_FORMED);
      const xmlns = name === 'xmlns' || name.startsWith('xmlns:');
      if (!xmlns && name.includes(':') && name !== 'xsi:nil') fail('prefixed attribute');
      const key = xmlns ? name : localOf(name);
      if (seen.has(key)) fail('repeated attribute');
      seen.add(key);
      attrs += ` ${canonicalName(name)}="${escapeAttribute(value as string)}"`;
    }
    const parent = frames.at(-1);
    if (parent !== undefined) parent.hasChild = true;
    frames.push({ open: out.length, texts: [], hasChild: false });
    out.push(`<${canonicalName(tag.name)}${attrs}>`);
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    depth--;
    // An element's text is all its parts joined, trimmed only at the joined ends
    // (docs/upstream-ehr.md#1-rules-every-document-follows); fast-xml-parser trims each part beside a child apart, and
    // `två veckor,<é/> sedan` lost its space (PDAS_FUZZ_SEED=335781694). So the parts of an element with children are
    // written as one, after its open tag.
    const frame = frames.pop();
    if (frame !== undefined && frame.hasChild && frame.texts.length > 1) {
      const joined = frame.texts.map((i) => out[i]).join('');
      for (const i of frame.texts) out[i] = '';
      out[frame.open] += joined;
    }
    out.push(`</${canonicalName(tag.name)}>`);
  });
  parser.on('text', (t) => {
    if (depth > 0) pushText(escapeText(t));
  });
  parser.on('cdata', (t) => pushText(escapeText(t)));
  try {
    parser.write(text).close();
  } catch {
    fail(NOT_WELL_FORMED);
  }
  if (roots === 0) fail(NOT_WELL_FORMED);
  if (fault !== undefined) throw fault;
  return out.join('');
}
