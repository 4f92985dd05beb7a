/**
 * The XML reader, the service's one engine, against its differential oracle (reference/: saxes, a
 * conforming parser, judges well-formedness; fast-xml-parser builds the tree of its canonical text;
 * the walk maps it). Wherever the oracle accepts a document, the reader must map it to the same
 * records, key order included; wherever it refuses one, the reader must refuse it too, for a
 * reason of the same kind: as XML (not well-formed, DTD, depth, root, attributes) or for what the
 * document says (a repeated or missing element, a bad value). Which of two faults in one document
 * is named may differ: the reader names the first it reads, the walk the first in shape order; the
 * mapping reasons themselves are pinned by each document's own tests.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemoData, DEMO_PEOPLE } from '../../../src/dev/demo-data/generate.js';
import { MalformedDocumentError, mapDocument, mapDocumentInSlices } from '../../../src/adapters/ehr-xml/index.js';
import type { DocumentType } from '../../../src/adapters/ehr-xml/document.js';
import { DocumentPieces } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { FAULT_DOCUMENT } from '../../../src/adapters/ehr-xml/fault.js';
import { READINGS } from '../../../src/adapters/ehr-xml/map-document.js';
import { RELATIONSHIPS_DOCUMENT } from '../../../src/adapters/ehr-xml/relationships.js';
import { RESULT_DOCUMENT } from '../../../src/adapters/ehr-xml/result-record.js';
import { DTD_MARKUP, hasDtdMarkup } from '../../../src/adapters/ehr-xml/xml-text.js';
import type { DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { DocumentGenerator, Rng } from './generated-documents.js';
import { example, ZONE } from './fixtures.js';
import { referenceMapDocument, referenceRoot } from './reference/reference-engine.js';
import { assertProperty } from '../../support/seeds.js';

type Outcome = { ok: true; json: string } | { ok: false; error: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, json: JSON.stringify(run()) };
  } catch (err) {
    const e = err as Error;
    return { ok: false, error: err instanceof MalformedDocumentError ? e.message : `${e.name}: ${e.message}` };
  }
}

const KINDS: [DocumentKind, string][] = [
  ['patient', 'patient.xml'], ['medications', 'medications.xml'], ['journalnotes', 'journalnotes.xml'],
  ['bookings', 'bookings.xml'], ['videomeetings', 'videomeetings.xml'], ['contacts', 'contacts.xml'],
  ['attentionsignals', 'attentionsignals.xml'], ['patient-v2', 'patient-v2.xml'],
];
const OTHERS: [DocumentType, string][] = [
  [RELATIONSHIPS_DOCUMENT, 'relationships.xml'], [RESULT_DOCUMENT, 'result-ok.xml'], [FAULT_DOCUMENT, 'fault.xml'],
];
const options = { zone: ZONE };
const ctx = { zone: ZONE, onDropped: () => undefined };

/** Refusals of a document for what it is as XML, rather than for what it says. */
const XML_LEVEL = /: (?:DTD markup is not accepted|not well-formed XML|not parseable XML|unexpected root element|more than one root element|prefixed attribute|repeated attribute)$/;

/** The reader's answer must be the oracle's, as the file comment says. */
function expectSameOutcome(read: Outcome, reference: Outcome, label: string): void {
  if (reference.ok || read.ok) {
    expect(read, label).toEqual(reference);
  } else {
    expect([read.error.startsWith('malformed EHR document: '), XML_LEVEL.test(read.error)], `${label}: ${read.error} / ${reference.error}`)
      .toEqual([reference.error.startsWith('malformed EHR document: '), XML_LEVEL.test(reference.error)]);
  }
}

/** Piece sizes that put cuts everywhere: before almost every tag, and now and then inside a comment. */
const PIECE_SIZES = [4, 37, 700];

/** The same document as UTF-8 bytes cut into pieces (document-pieces.ts) is answered as the one string. */
function expectSameInPieces(kind: DocumentKind, xml: string): void {
  const bytes = Buffer.from(xml, 'utf8');
  const whole = outcome(() => mapDocument(kind, bytes.toString('utf8'), options));
  for (const size of PIECE_SIZES) {
    expectSameOutcome(outcome(() => mapDocument(kind, DocumentPieces.fromBytes(bytes, size), options)), whole, `${size}: ${xml}`);
  }
}

/** Checks the reader against the oracle on `xml`; true when the reader accepted it. */
function expectSameAsReference(kind: DocumentKind, xml: string): boolean {
  const read = outcome(() => mapDocument(kind, xml, options));
  expectSameOutcome(read, outcome(() => referenceMapDocument(kind, xml, options)), xml);
  expectSameInPieces(kind, xml);
  return read.ok;
}

describe('the reader reads the real documents itself, exactly as the reference engine', () => {
  it('every upstream example', () => {
    for (const [kind, file] of KINDS) expect(expectSameAsReference(kind, example(file)), file).toBe(true);
    for (const [doc, file] of OTHERS) {
      const xml = example(file);
      expect(JSON.stringify(doc.map(xml, ctx)), file).toBe(JSON.stringify(referenceRoot(doc, xml, ctx)));
    }
  });

  it('every document of every demo person', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fast-reader-'));
    try {
      await generateDemoData(dir, { now: Date.UTC(2026, 10, 21, 8), zone: ZONE });
      for (const person of DEMO_PEOPLE) {
        for (const [kind, file] of KINDS) {
          const xml = await readFile(path.join(dir, 'patients', person.id, file), 'utf8').catch(() => undefined);
          if (xml !== undefined) expect(expectSameAsReference(kind, xml), `${person.id}/${file}`).toBe(true);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('generated documents', () => {
  for (const [kind] of KINDS) {
    it(`${kind}: the reader answers every one as the oracle does`, () => {
      const generator = new DocumentGenerator(new Rng(kind.length * 7919));
      const { root, shape } = READINGS[kind].document;
      let read = 0;
      const runs = 150;
      for (let i = 0; i < runs; i++) if (expectSameAsReference(kind, generator.document(root, shape))) read++;
      // The generator writes mostly valid documents: most of them must be accepted.
      expect(read).toBeGreaterThan(runs / 3);
    });
  }
});

const SNIPPETS = [
  '<', '>', '&', '&amp;', '&nbsp;', '&#0;', '&#xD800;', '&#x41;', '&#X41;', '&#;', '<!-- c -->', '<!--', '-->', '<![CDATA[x]]>',
  '<![CDATA[', ']]>', '<?pi x?>', '<?xml version="1.0"?>', '<x/>', '</x>', '<Extra a="1">t</Extra>', ' a="1"', ' a=1', ' a="1" a="2"',
  ' xsi:nil="true"', ' nil="1"', '\r\n', '\r', '\uFEFF', '\u00a0', '<!DOCTYPE x>', '<!doctype', '<__proto__/>', '<toString>x</toString>',
  '<constructor/>', 'p:', ':', 'é', '<é/>', '"', "'", '/', '=', ' ', '\n', '\t', '\v',
];

const mutation = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...SNIPPETS) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(xml: string, ops: { op: 'insert' | 'delete' | 'truncate'; at: number; text?: string; length?: number }[]): string {
  let s = xml;
  for (const m of ops) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.op === 'insert') s = s.slice(0, at) + (m.text ?? '') + s.slice(at);
    else if (m.op === 'delete') s = s.slice(0, at) + s.slice(at + (m.length ?? 1));
    else s = s.slice(0, at);
  }
  return s;
}

describe('mutated examples: the reader answers as the oracle, malformed or not', () => {
  for (const [kind, file] of KINDS) {
    it(kind, async () => {
      const xml = example(file);
      await assertProperty(fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ops) => {
        expectSameAsReference(kind, mutate(xml, ops));
      }), { seeds: [20261121, 20261122, 20261123], numRuns: 250 });
    });
  }
});

describe('attack documents', () => {
  it('refuses deep nesting at the depth bound, without recursion', () => {
    const nested = `<CareContacts>${'<x>'.repeat(99_999)}${'</x>'.repeat(99_999)}</CareContacts>`;
    expect(() => mapDocument('contacts', nested.replace(/CareContacts/g, READINGS.contacts.document.root), options)).toThrow('not parseable XML');
  });

  it('refuses reserved names and pollutes nothing', () => {
    const root = READINGS.bookings.document.root;
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const xml = `<${root}><Booking><${name}><polluted>yes</polluted></${name}></Booking></${root}>`;
      expect(() => mapDocument('bookings', xml, options)).toThrow('not parseable XML');
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('DTD refusal', () => {
  it('hasDtdMarkup is exactly the reference pattern', async () => {
    const piece = fc.constantFrom('<!', '<', '!', ' ', '\n', '\u00a0', '\u2028', '\uFEFF', 'DOCTYPE', 'doctype', 'DocType', 'ENTITY',
      'element', 'ATTLIST', 'notation', 'DOC', 'x', '<!--', '-->', 'ſ', 'K');
    await assertProperty(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const s = pieces.join('');
      expect(hasDtdMarkup(s)).toBe(DTD_MARKUP.test(s));
    }), { seeds: [7, 8, 9], numRuns: 2000 });
  });
});

describe('reading in slices', () => {
  it('gives the same records and the same errors as reading in one go', async () => {
    for (const [kind, file] of KINDS) {
      const xml = example(file);
      await expect(mapDocumentInSlices(kind, xml, options, -1)).resolves.toEqual(mapDocument(kind, xml, options));
      const broken = xml.slice(0, xml.length - 30);
      await expect(mapDocumentInSlices(kind, broken, options, -1)).rejects.toThrow(outcome(() => mapDocument(kind, broken, options)).ok ? 'x' : 'not well-formed XML');
    }
  });

  it('lets the event loop run between slices of a large document', async () => {
    const xml = example('journalnotes.xml');
    const at = xml.indexOf('</JournalNoteRecord>');
    const extracts = /<JournalNoteEHRExtract>[\s\S]*?<\/JournalNoteEHRExtract>/.exec(xml)?.[0] ?? '';
    const large = xml.slice(0, at) + extracts.repeat(50) + xml.slice(at);
    let turns = 0;
    const tick = (): void => {
      turns++;
      if (turns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    // A deadline already past: the reader pauses after every batch of tags.
    const sliced = await mapDocumentInSlices('journalnotes', large, options, -1);
    turns = 1000;
    expect(sliced).toEqual(mapDocument('journalnotes', large, options));
    // The example's first record holds one extract; the second record (minor 3.0) holds the other.
    expect(sliced[0]?.JournalNoteEHRExtract).toHaveLength(51);
    expect(turns).toBeGreaterThan(0);
  });
});
