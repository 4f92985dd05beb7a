/**
 * Issue 35: the tokenizer alone (src/adapters/ehr-xml/xml-tokenizer.ts), with no shape at all: a
 * recording sink in place of the builder (xml-sink.ts). Every refusal of a document for what it is
 * as XML is the tokenizer's, the same whatever the builder wants of the document, and the builder
 * never gets a value or text the tokenizer refuses; what it is told is the document's exact text,
 * the same whole, cut into pieces or read in slices. docs/xml-reader.md lists what each test holds.
 */
import { describe, expect, it } from 'vitest';
import { DocumentPieces, QUIET } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { MalformedDocumentError } from '../../../src/adapters/ehr-xml/malformed-document-error.js';
import { READINGS } from '../../../src/adapters/ehr-xml/map-document.js';
import { RELATIONSHIPS_DOCUMENT } from '../../../src/adapters/ehr-xml/relationships.js';
import { RESULT_DOCUMENT } from '../../../src/adapters/ehr-xml/result-record.js';
import { FAULT_DOCUMENT } from '../../../src/adapters/ehr-xml/fault.js';
import type { CompiledObject } from '../../../src/adapters/ehr-xml/shape.js';
import { lookupOf } from '../../../src/adapters/ehr-xml/shape-lookup.js';
import { firstPiece, PAUSE_EVERY } from '../../../src/adapters/ehr-xml/xml-cursor.js';
import { isPlainName, knownNames, type KnownNames } from '../../../src/adapters/ehr-xml/xml-names.js';
import { TEXT_ALL, TEXT_ANY, TEXT_NONE, type ElementSink, type TextMode } from '../../../src/adapters/ehr-xml/xml-sink.js';
import { isWellFormed, MAX_DEPTH } from '../../../src/adapters/ehr-xml/xml-text.js';
import { XmlTokenizer } from '../../../src/adapters/ehr-xml/xml-tokenizer.js';
import { example } from './fixtures.js';

interface Wants {
  /** The text mode of every element. */
  mode: TextMode;
  /** Whether attribute values are wanted. */
  values: boolean;
  /** The names offered for matching in place, below the root. */
  known?: KnownNames;
}

/** A builder that maps nothing: it writes down what the tokenizer tells it, text parts joined as the builder joins them. */
class RecordingSink implements ElementSink {
  readonly events: string[] = [];
  private readonly open: { mode: TextMode; begun: boolean }[] = [];

  constructor(private readonly wants: Wants) {}

  get knownNames(): KnownNames | undefined {
    return this.wants.known;
  }

  get textMode(): TextMode {
    return this.open.at(-1)?.mode ?? TEXT_NONE;
  }

  get textBegun(): boolean {
    return this.open.at(-1)?.begun ?? false;
  }

  openRoot(mapped: boolean): void {
    this.opened(mapped ? 'root' : 'other root');
  }

  openKnown(id: number): void {
    this.opened(`known ${id}`);
  }

  /** Every known name is a leaf's here: what the tokenizer reads whole must be told as the general path tells it. */
  isLeaf(): boolean {
    return true;
  }

  knownLeaf(id: number, text: string): void {
    this.openKnown(id);
    if (text !== '' && this.textMode === TEXT_ALL) this.text(text);
    this.close();
  }

  openOther(qname: string, t: string, localFrom: number, to: number): void {
    this.opened(`<${qname}> ${t.slice(localFrom, to)}`);
  }

  attribute(t: string, from: number, to: number): boolean {
    this.events.push(`@${t.slice(from, to)}`);
    return this.wants.values;
  }

  attributeValue(value: string): void {
    this.events.push(`= ${JSON.stringify(value)}`);
  }

  text(part: string): void {
    expect(part).not.toBe('');
    const top = this.open.at(-1) as { begun: boolean };
    const last = this.events.at(-1) ?? '';
    // A CDATA section cut into pieces comes in parts, which the builder joins.
    if (top.begun && last.startsWith('text ')) this.events[this.events.length - 1] = `text ${JSON.stringify(JSON.parse(last.slice(5)) + part)}`;
    else this.events.push(`text ${JSON.stringify(part)}`);
    top.begun = true;
  }

  textInObject(): void {
    (this.open.at(-1) as { mode: TextMode }).mode = TEXT_NONE;
    this.events.push('text in object');
  }

  close(): void {
    this.open.pop();
    this.events.push('close');
  }

  private opened(event: string): void {
    this.open.push({ mode: this.wants.mode, begun: false });
    this.events.push(event);
  }
}

const ALL: Wants = { mode: TEXT_ALL, values: true };
/** As the builder reads an object: whether it holds text, no values. */
const OBJECTS: Wants = { mode: TEXT_ANY, values: false };
const NOTHING: Wants = { mode: TEXT_NONE, values: false };

interface Reading { events: string[]; slices: number; refusal?: string }

/**
 * Reads `xml` (rooted at `root`) with a recording sink: whole, or cut every `cut` characters (or,
 * `bytes`, as UTF-8 bytes cut every `cut` bytes), in one go or `sliced` at every pause point.
 */
function read(xml: string, wants: Wants, options: { root?: string; cut?: number; bytes?: boolean; sliced?: boolean } = {}): Reading {
  const cut = options.cut ?? Number.MAX_SAFE_INTEGER;
  const pieces = options.bytes === true ? DocumentPieces.fromBytes(Buffer.from(xml), cut) : DocumentPieces.fromText(xml, cut);
  const sink = new RecordingSink(wants);
  let slices = 1;
  try {
    const tokenizer = new XmlTokenizer(firstPiece(pieces), pieces, options.root ?? 'R', sink);
    while (!tokenizer.run(options.sliced === true ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY)) slices++;
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedDocumentError);
    return { events: sink.events, slices, refusal: (err as Error).message.replace('malformed EHR document: ', '') };
  }
  return { events: sink.events, slices };
}

describe('issue 35: what the tokenizer tells the builder', () => {
  it('elements, attributes and the exact text, references decoded and CDATA as written', () => {
    const xml = '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- before --><?pi x?>'
      + '<q:R xmlns:q="urn:q" xmlns="urn:d" a=" 1\t2 " b=\'&lt;&#x20;\'>'
      + '<x> padded &amp; kept </x><y>a<!-- c -->b<?p?>c</y>'
      + '<z> Dos: <![CDATA[<5 mg]]> per dygn </z><e/><e></e><w>&#x20;x&#32;</w><i>\r\n</i>'
      + '</q:R >\n<!-- after -->';
    expect(read(xml, ALL).events).toEqual([
      'root', '@a', '= "1 2"', '@b', '= "< "',
      '<x> x', 'text "padded & kept"', 'close',
      '<y> y', 'text "abc"', 'close',
      '<z> z', 'text " Dos: <5 mg per dygn "', 'close',
      '<e> e', 'close', '<e> e', 'close',
      '<w> w', 'text " x "', 'close',
      '<i> i', 'close',
      'close',
    ]);
  });

  it('matches a name in place only where reading it would give that name', () => {
    const known = knownNames([['Ab', 0], ['Abc', 1]]);
    const xml = '<R><Abc/><Ab/><Ab.x/><Ab-/><Ab:x/><Abé/><q:Ab/></R>';
    expect(read(xml, { ...NOTHING, known }).events).toEqual([
      'root', 'known 1', 'close', 'known 0', 'close', '<Ab.x> Ab.x', 'close', '<Ab-> Ab-', 'close',
      '<Ab:x> x', 'close', '<Abé> Abé', 'close', '<q:Ab> Ab', 'close', 'close',
    ]);
  });

  it('an object\'s text: only whether it holds any besides whitespace, references and CDATA counted', () => {
    const xml = '<R><a> \n\t</a><b> <![CDATA[ ]]> </b><c>&#x41;</c><d><![CDATA[x]]>y</d></R>';
    expect(read(xml, OBJECTS).events).toEqual([
      'root', '<a> a', 'close', '<b> b', 'close', '<c> c', 'text in object', 'close', '<d> d', 'text in object', 'close', 'close',
    ]);
  });

  const documents = [
    example('journalnotes.xml'), example('medications.xml'), example('patient.xml'), example('contacts.xml'),
    `<R a="${'v&amp;'.repeat(60)}"><!--${' c '.repeat(90)}--><t>${'word &#x41; '.repeat(40)}<![CDATA[${'<cdata> '.repeat(40)}]]> end</t><?p ${'i'.repeat(100)}?></R>`,
  ];

  it('the same, whole, cut into pieces and read in slices that pause at every pause point', () => {
    for (const xml of documents) {
      const root = /<(?:\w+:)?(\w+)[\s>]/.exec(xml.replace(/<\?[^>]*\?>|<!--[\s\S]*?-->/g, ''))?.[1];
      for (const wants of [ALL, OBJECTS, NOTHING]) {
        const whole = read(xml, wants, { root });
        expect(whole.refusal).toBeUndefined();
        for (const cut of [4, 37, 700]) {
          for (const sliced of [false, true]) {
            expect(read(xml, wants, { root, cut, bytes: true, sliced }).events, `${root} ${cut} ${sliced}`).toEqual(whole.events);
          }
        }
      }
    }
  });

  it(`pauses every ${PAUSE_EVERY} tags and every ${PAUSE_EVERY} attributes of one tag`, () => {
    const tags = `<R>${'<e/>'.repeat(10 * PAUSE_EVERY)}</R>`;
    expect(read(tags, NOTHING).slices).toBe(1);
    expect(read(tags, NOTHING, { sliced: true }).slices).toBeGreaterThanOrEqual(10);
    const attributes = `<R${Array.from({ length: 10 * PAUSE_EVERY }, (_, i) => ` a${i}="${i}"`).join('')}/>`;
    expect(read(attributes, NOTHING).slices).toBe(1);
    expect(read(attributes, NOTHING, { sliced: true }).slices).toBeGreaterThanOrEqual(10);
  });

  it('pauses at every piece of the whitespace before an end tag\'s ">"', () => {
    const pieces = 100;
    const xml = `<R><a></a${' '.repeat(pieces * QUIET)}></R>`;
    expect(read(xml, NOTHING, { cut: QUIET }).slices).toBe(1);
    const sliced = read(xml, NOTHING, { cut: QUIET, sliced: true });
    expect(sliced.refusal).toBeUndefined();
    expect(sliced.slices).toBeGreaterThanOrEqual(pieces / 2);
  });
});

const nested = (depth: number): string => `<R>${'<x>'.repeat(depth - 1)}${'</x>'.repeat(depth - 1)}</R>`;
const manyAttributes = Array.from({ length: 40 }, (_, i) => ` a${i}="${i}"`).join('');

/** Documents the tokenizer refuses, and why (docs/xml-reader.md#what-is-refused). */
const REFUSED: [string, string, string][] = [
  ['a DOCTYPE', '<!DOCTYPE R><R/>', 'DTD markup is not accepted'],
  ['a doctype in lower case after a BOM', '\uFEFF<!doctype R><R/>', 'DTD markup is not accepted'],
  ['an ENTITY declaration, even in a comment', '<R><!-- <!ENTITY x "y"> --></R>', 'DTD markup is not accepted'],
  ['an HTML entity', '<R>a&nbsp;b</R>', 'not well-formed XML'],
  ['an undeclared entity in a skipped element', '<R><s><t>&foo;</t></s></R>', 'not well-formed XML'],
  ['a bare ampersand', '<R>1 & 2</R>', 'not well-formed XML'],
  ['an upper-case hex reference', '<R>&#X41;</R>', 'not well-formed XML'],
  ['a reference to a character XML forbids', '<R>&#0;</R>', 'not well-formed XML'],
  ['a reference to a lone surrogate', '<R>&#xD800;</R>', 'not well-formed XML'],
  ['an undeclared entity in an attribute value', '<R><s a="&nbsp;"/></R>', 'not well-formed XML'],
  ['a control character', '<R>\u000b</R>', 'not well-formed XML'],
  ['a control character in a comment', '<R><!-- \u0001 --></R>', 'not well-formed XML'],
  ['U+FFFE', '<R>\ufffe</R>', 'not well-formed XML'],
  ['U+FFFF in an attribute value', '<R a="\uffff"/>', 'not well-formed XML'],
  ['a lone surrogate', '<R>\ud800</R>', 'not well-formed XML'],
  ['"]]>" in text', '<R>a]]>b</R>', 'not well-formed XML'],
  ['"--" in a comment', '<R><!-- a -- b --></R>', 'not well-formed XML'],
  ['"<" in an attribute value', '<R a="<"/>', 'not well-formed XML'],
  ['a declaration that is not at the start', '<R><?xml version="1.0"?></R>', 'not well-formed XML'],
  ['a declaration of XML 1.1', '<?xml version="1.1"?><R/>', 'not well-formed XML'],
  ['a PI named xml in another case', '<R><?XmL x?></R>', 'not well-formed XML'],
  ['an element name with two colons', '<R><a:b:c/></R>', 'not well-formed XML'],
  ['a name starting with a digit', '<R><1a/></R>', 'not well-formed XML'],
  ['an end tag of another element', '<R><a></b></R>', 'not well-formed XML'],
  ['an end tag of the parent', '<R><a></R>', 'not well-formed XML'],
  ['a document that ends inside an element', '<R><a>text', 'not well-formed XML'],
  ['a document that ends inside a comment', '<R><!-- x', 'not well-formed XML'],
  ['a document that ends inside a tag', '<R a="1"', 'not well-formed XML'],
  ['text before the root', 'x<R/>', 'not well-formed XML'],
  ['text after the root', '<R/>x', 'not well-formed XML'],
  ['CDATA outside the root', '<![CDATA[x]]><R/>', 'not well-formed XML'],
  ['any other <!', '<R><!x></R>', 'not well-formed XML'],
  ['an empty document', '', 'not well-formed XML'],
  ['an attribute without a value', '<R a/>', 'not well-formed XML'],
  ['an attribute without quotes', '<R a=1/>', 'not well-formed XML'],
  ['attributes without whitespace between them', '<R a="1"b="2"/>', 'not well-formed XML'],
  ['a "/" not before ">"', '<R/ >', 'not well-formed XML'],
  ['the same attribute twice', '<R a="1" a="2"/>', 'not well-formed XML'],
  ['the same prefixed attribute twice', '<R xsi:nil="1" xsi:nil="1"/>', 'not well-formed XML'],
  ['the same attribute twice among many', `<R${manyAttributes} a0="x"/>`, 'not well-formed XML'],
  ['an element nested one deeper than MAX_DEPTH', nested(MAX_DEPTH + 1), 'not parseable XML'],
  ['an element named __proto__', '<R><__proto__/></R>', 'not parseable XML'],
  ['an element named constructor, prefixed', '<R><q:constructor/></R>', 'not parseable XML'],
  ['an element named prototype', '<R><prototype>x</prototype></R>', 'not parseable XML'],
  ['a prefixed attribute beside its local name', '<R extension="1" q:extension="2"/>', 'prefixed attribute'],
  ['xml:lang', '<R><s xml:lang="sv"/></R>', 'prefixed attribute'],
  ['an attribute repeated by local name', '<R nil="false" xsi:nil="true"/>', 'repeated attribute'],
  ['an attribute repeated by local name among many', `<R${manyAttributes} xsi:nil="true" nil="1"/>`, 'repeated attribute'],
  ['another root element', '<X><R/></X>', 'unexpected root element'],
  ['a second root element', '<R/><R/>', 'more than one root element'],
  ['another element after the root', '<R/><X/>', 'unexpected root element'],
  ['another root element, then a fault of XML', '<X/><!-- a -- b -->', 'not well-formed XML'],
];

describe('issue 35: every refusal is the tokenizer\'s, with no shape at all', () => {
  for (const [name, xml, reason] of REFUSED) {
    it(`${name}: ${reason}, whatever the builder wants, whole and in pieces, from text and from UTF-8 bytes`, () => {
      for (const wants of [NOTHING, ALL]) {
        expect(read(xml, wants).refusal, 'whole').toBe(reason);
        expect(read(xml, wants, { cut: 4, sliced: true }).refusal, 'in pieces of 4 characters, in slices').toBe(reason);
        // Bytes have their characters checked before they are decoded (hasOnlyXmlBytes); a lone surrogate has no UTF-8.
        if (!isWellFormed(xml)) continue;
        expect(read(xml, wants, { bytes: true }).refusal, 'whole, from bytes').toBe(reason);
        expect(read(xml, wants, { cut: 4, bytes: true, sliced: true }).refusal, 'in pieces of 4 bytes, in slices').toBe(reason);
      }
    });
  }

  it(`accepts ${MAX_DEPTH} levels, and names that are only like the forbidden ones`, () => {
    expect(read(nested(MAX_DEPTH), NOTHING).refusal).toBeUndefined();
    expect(read('<R><__proto__x/><Constructor/><prototypes/><q:protoype/></R>', NOTHING).refusal).toBeUndefined();
  });

  it(`a name or a reference longer than QUIET (${QUIET}) characters where a piece is cut is refused, not misread`, () => {
    const name = `<R><${'n'.repeat(2 * QUIET)}/></R>`;
    const reference = `<R>&#x${'0'.repeat(2 * QUIET)}41;</R>`;
    for (const xml of [name, reference]) {
      expect(read(xml, ALL).refusal, xml).toBeUndefined();
      for (const wants of [NOTHING, ALL]) expect(read(xml, wants, { cut: 4 }).refusal, xml).toBe('not well-formed XML');
    }
  });

  it('the builder never gets a text or value the tokenizer refuses', () => {
    expect(read('<R><a>x &nbsp; y</a></R>', ALL).events).toEqual(['root', '<a> a']);
    expect(read('<R><a>x <![CDATA[y]]> &bad; z</a></R>', ALL).events).toEqual(['root', '<a> a', 'text "x y"']);
    expect(read('<R><a b="&nbsp;"/></R>', ALL).events).toEqual(['root', '<a> a', '@b']);
    expect(read('<R a="1" a="2"/>', ALL).events).toEqual(['root', '@a', '= "1"']);
    expect(read('<R q:extension="2"/>', ALL).events).toEqual(['root']);
  });
});

describe('issue 35: names matched in place', () => {
  it('isPlainName takes an unprefixed XML name of an ASCII first character, not a forbidden one', () => {
    expect(['PatientID', 'a', '_x', 'Ab.c-d9', 'Läkemedel'].filter((n) => !isPlainName(n))).toEqual([]);
    expect(['', 'a:b', ':a', '1a', '-a', 'a b', 'a>', 'éa', '__proto__', 'constructor', 'prototype'].filter(isPlainName)).toEqual([]);
  });

  it('every element name of every document\'s shape is one, and a shape with another is refused', () => {
    const seen = new Set<CompiledObject>();
    const walk = (shape: CompiledObject): void => {
      if (seen.has(shape)) return;
      seen.add(shape);
      lookupOf(shape);
      for (const f of shape.fields) if (f.object !== undefined) walk(f.object);
    };
    for (const reading of Object.values(READINGS)) walk(reading.document.shape);
    for (const document of [RELATIONSHIPS_DOCUMENT, RESULT_DOCUMENT, FAULT_DOCUMENT]) walk(document.shape);
    expect(seen.size).toBeGreaterThan(100);
    const field = { inKey: 'a:b', name: 'a:b', outKey: 'a', isAttribute: false, options: {}, alsoAttribute: false };
    expect(() => lookupOf({ fields: [field], selfIndex: -1, absentWhenEmpty: false })).toThrow(TypeError);
  });
});
