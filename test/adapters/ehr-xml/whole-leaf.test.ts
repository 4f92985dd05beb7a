/**
 * Issue 56 item 3: the tokenizer reads `<name>text</name>` of a leaf whole, in one call to the
 * builder (XmlTokenizer.wholeLeaf), instead of opening a frame, collecting the text and closing it.
 * Text from the EHR must reach the patient exactly as written, so every document here is mapped
 * twice, by the reader as it is and by the same reader with that path turned off (a builder that
 * calls no name a leaf's, so every element takes the general path), and the two answers, or
 * refusals, must be the same to the byte: the demo and bench documents the mapper bench measures,
 * the hostile documents, the examples, and generated leaf texts of every awkward kind (references,
 * `]]>`, Unicode spaces, line ends, empty), read whole, cut into small pieces and from bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZONE } from '../../../bench/fixtures.js';
import { DocumentPieces, type DocumentInput } from '../../../src/adapters/ehr-xml/document-pieces.js';
import type { DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { firstPiece } from '../../../src/adapters/ehr-xml/fast-reader.js';
import { READINGS } from '../../../src/adapters/ehr-xml/map-document.js';
import { RecordBuilder } from '../../../src/adapters/ehr-xml/record-builder.js';
import type { MapContext } from '../../../src/adapters/ehr-xml/shape.js';
import { XmlTokenizer } from '../../../src/adapters/ehr-xml/xml-tokenizer.js';
import { benchCases } from './bench-cases.js';
import { example } from './fixtures.js';
import { hostileDocuments } from './hostile-documents.js';
import { assertProperty } from '../../support/seeds.js';

/** The builder with the whole-leaf path off: the tokenizer opens, fills and closes every leaf as any element. */
class GeneralPathBuilder extends RecordBuilder {
  override isLeaf(): boolean {
    return false;
  }
}

const context = (): MapContext => ({ zone: ZONE, onDropped: () => undefined });

/** The records, or the refusal's message, as JSON: what the patient (or the error log) would get. */
function outcome(map: () => unknown): string {
  try {
    return JSON.stringify(map());
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

function generalPath(kind: DocumentKind, xml: DocumentInput): unknown {
  const reading = READINGS[kind];
  const { root, shape } = reading.document;
  const pieces = DocumentPieces.of(xml);
  const ctx = context();
  const builder = new GeneralPathBuilder(root, shape, ctx, pieces.count > 1);
  const tokenizer = new XmlTokenizer(firstPiece(pieces), pieces, root, builder);
  tokenizer.run();
  builder.end();
  return reading.finish(builder.result as Record<string, unknown>, ctx);
}

/** Both paths on `xml` whole, from bytes, and cut every `cut` characters: the same outcome each time. */
function expectSame(kind: DocumentKind, xml: string, name: string, cut?: number): string {
  const inputs: [string, () => DocumentInput][] = [['text', () => xml], ['bytes', () => Buffer.from(xml, 'utf8')]];
  if (cut !== undefined) inputs.push([`cut every ${cut}`, () => DocumentPieces.fromText(xml, cut)]);
  let first = '';
  for (const [how, input] of inputs) {
    const fast = outcome(() => READINGS[kind].map(input(), context()));
    expect(fast, `${name}, ${how}`).toBe(outcome(() => generalPath(kind, input())));
    first ||= fast;
  }
  return first;
}

describe('issue 56 item 3: a leaf read whole maps as the general path maps it', () => {
  const casesNow = benchCases();

  it('on every document the mapper bench measures', () => {
    const cases = casesNow();
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const c of cases) expect(expectSame(c.kind, c.xml, c.name)).not.toMatch(/^refused/);
  }, 120_000);

  it('on the hostile documents', () => {
    const journal = example('journalnotes.xml');
    for (const h of hostileDocuments(journal, 256 * 1024)) expectSame('journalnotes', h.xml, h.name, 4096);
  }, 120_000);

  it('on the examples, cut into small pieces', () => {
    const kinds: [DocumentKind, string][] = [
      ['journalnotes', 'journalnotes.xml'], ['medications', 'medications.xml'], ['labresults', 'labresults.xml'], ['patient', 'patient.xml'],
    ];
    for (const [kind, file] of kinds) expectSame(kind, example(file), file, 97);
  }, 60_000);

  it('on leaf texts of every awkward kind, and the refusals they earn', async () => {
    const journal = example('journalnotes.xml');
    const open = '<NoteTemplateName>';
    const from = journal.indexOf(open) + open.length;
    const to = journal.indexOf('</NoteTemplateName>', from);
    const fragments = fc.constantFrom(
      'a', 'å', 'Ω', ' ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2003', '\u3000', '&amp;', '&lt;', '&#x20;', '&#32;', '&#160;',
      '&#x1F600;', '\u{1F600}', ']]>', ']]', ']', '>', '&nbsp;', '&', '&#0;', '"', "'", '/',
    );
    await assertProperty(
      fc.property(fc.array(fragments, { maxLength: 12 }), fc.integer({ min: 64, max: 400 }), (parts, cut) => {
        const xml = journal.slice(0, from) + parts.join('') + journal.slice(to);
        expectSame('journalnotes', xml, JSON.stringify(parts), cut);
      }),
      { seeds: [56_3], numRuns: 200 },
    );
  }, 120_000);
});
