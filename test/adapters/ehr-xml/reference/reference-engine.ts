/**
 * The differential oracle of the XML reader (src/adapters/ehr-xml/fast-reader.ts), which is the
 * service's one engine: saxes judges well-formedness (conforming-check.ts), fast-xml-parser builds
 * the tree of the canonical text, the mapping walk (walk.ts) maps it. None of this runs in production.
 */
import { DocumentPieces, type DocumentInput } from '../../../../src/adapters/ehr-xml/document-pieces.js';
import type { DocumentType } from '../../../../src/adapters/ehr-xml/document.js';
import { READINGS, type MapOptions } from '../../../../src/adapters/ehr-xml/map-document.js';
import { assertOnlyPatient } from '../../../../src/adapters/ehr-xml/patient-ids.js';
import type { MapContext } from '../../../../src/adapters/ehr-xml/shape.js';
import { mapRoot } from './walk.js';
import type { DocumentKind, DocumentResults } from '../../../../src/adapters/ehr-xml/documents.js';
import { arrayPaths } from './array-paths.js';
import { conformingCanonical } from './conforming-check.js';
import { documentParser, type DocumentParser } from './xml-parser.js';

type Root = Record<string, unknown>;

const parsers = new WeakMap<DocumentType, DocumentParser>();

function parserOf(document: DocumentType): DocumentParser {
  let p = parsers.get(document);
  if (p === undefined) {
    p = documentParser(document.root, arrayPaths(document.root, document.shape));
    parsers.set(document, p);
  }
  return p;
}

/** The root's mapped fields, as the reader's DocumentType.map gives them, or the oracle's refusal. */
export function referenceRoot(document: DocumentType, xml: DocumentInput, ctx: MapContext): Root {
  const text = DocumentPieces.of(xml).whole();
  const canonical = conformingCanonical(text, document.root);
  return mapRoot(parserOf(document).parse(canonical), document.shape, ctx);
}

/** mapDocument's answer, by the oracle. */
export function referenceMapDocument<K extends DocumentKind>(kind: K, xml: DocumentInput, options: MapOptions): DocumentResults[K] {
  const ctx: MapContext = { zone: options.zone, onDropped: options.onDropped ?? (() => undefined) };
  const reading = READINGS[kind];
  const data = reading.finish(referenceRoot(reading.document, xml, ctx), ctx) as DocumentResults[K];
  if (options.expectedPatientId !== undefined) assertOnlyPatient(kind, data, options.expectedPatientId);
  return data;
}
