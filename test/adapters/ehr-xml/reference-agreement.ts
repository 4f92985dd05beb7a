/**
 * The XML reader against its differential oracle (reference/: saxes, a conforming parser, judges
 * well-formedness; fast-xml-parser builds the tree of its canonical text; the walk maps it), shared by
 * fast-reader.test.ts (the examples) and fast-reader-generated.test.ts (documents that are no example).
 */
import { expect } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import type { DocumentType } from '../../../src/adapters/ehr-xml/document.js';
import { DocumentPieces } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { FAULT_DOCUMENT } from '../../../src/adapters/ehr-xml/fault.js';
import { RELATIONSHIPS_DOCUMENT } from '../../../src/adapters/ehr-xml/relationships.js';
import { RESULT_DOCUMENT } from '../../../src/adapters/ehr-xml/result-record.js';
import type { DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { referenceMapDocument } from './reference/reference-engine.js';
import { ZONE } from './fixtures.js';

export type Outcome = { ok: true; json: string } | { ok: false; error: string };

export function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, json: JSON.stringify(run()) };
  } catch (err) {
    const e = err as Error;
    return { ok: false, error: err instanceof MalformedDocumentError ? e.message : `${e.name}: ${e.message}` };
  }
}

export const KINDS: [DocumentKind, string][] = [
  ['patient', 'patient.xml'], ['medications', 'medications.xml'], ['journalnotes', 'journalnotes.xml'],
  ['bookings', 'bookings.xml'], ['videomeetings', 'videomeetings.xml'], ['contacts', 'contacts.xml'],
  ['attentionsignals', 'attentionsignals.xml'], ['patient-v2', 'patient-v2.xml'],
];
export const OTHERS: [DocumentType, string][] = [
  [RELATIONSHIPS_DOCUMENT, 'relationships.xml'], [RESULT_DOCUMENT, 'result-ok.xml'], [FAULT_DOCUMENT, 'fault.xml'],
];
export const options = { zone: ZONE };
export const ctx = { zone: ZONE, onDropped: () => undefined };

/** Refusals of a document for what it is as XML, rather than for what it says. */
const XML_LEVEL = /: (?:DTD markup is not accepted|not well-formed XML|not parseable XML|unexpected root element|more than one root element|prefixed attribute|repeated attribute|an encoding other than UTF-8)$/;

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
export function expectSameAsReference(kind: DocumentKind, xml: string): boolean {
  const read = outcome(() => mapDocument(kind, xml, options));
  expectSameOutcome(read, outcome(() => referenceMapDocument(kind, xml, options)), xml);
  expectSameInPieces(kind, xml);
  return read.ok;
}

