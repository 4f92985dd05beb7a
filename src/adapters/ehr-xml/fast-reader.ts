/**
 * The XML reader: the one engine that reads every upstream document (docs/upstream-ehr.md#5-how-the-service-reads-a-document).
 * XML text goes straight to the mapped records, driven by the compiled shape (no intermediate
 * tree), in slices, with an explicit stack instead of recursion. What it promises and where each
 * promise is kept: docs/xml-reader.md.
 *
 * Two halves meet here. The tokenizer (xml-tokenizer.ts, with xml-cursor.ts, xml-markup.ts,
 * xml-names.ts and xml-attributes.ts) reads XML 1.0 as the upstream format uses it
 * (docs/upstream-ehr.md#1-rules-every-document-follows: a declaration, comments, processing
 * instructions, CDATA, the five entities and character references, names in any script, prefixes)
 * and refuses whatever is not well-formed, itself, where it finds it: a DTD, an undeclared entity
 * such as `&nbsp;`, a character XML forbids, a mismatched tag. The builder (record-builder.ts) fills
 * the shape from what the tokenizer tells it (xml-sink.ts); a document that is well-formed but
 * cannot be mapped (a repeated element, a missing required one, a failed conversion) is refused
 * only once the whole of it has been read, so the first refusal a document earns for being
 * malformed XML always wins. A conforming third-party parser (saxes) is its differential oracle in
 * the tests (test/adapters/ehr-xml/reference/).
 */
import type { DocumentPieces } from './document-pieces.js';
import { RecordBuilder } from './record-builder.js';
import type { CompiledObject, MapContext } from './shape.js';
import { XmlTokenizer } from './xml-tokenizer.js';

export { firstPiece, readablePiece } from './xml-cursor.js';

export class FastReader {
  private readonly builder: RecordBuilder;
  private readonly tokenizer: XmlTokenizer;

  /**
   * @param text the document's first piece as `firstPiece` gives it; the rest of the document comes
   *   from `pieces` and is read piece by piece (document-pieces.ts)
   */
  constructor(text: string, pieces: DocumentPieces, root: string, shape: CompiledObject, ctx: MapContext) {
    this.builder = new RecordBuilder(root, shape, ctx, pieces.count > 1);
    this.tokenizer = new XmlTokenizer(text, pieces, root, this.builder);
  }

  /** The mapped root, once `run` has returned true. */
  get result(): Record<string, unknown> | undefined {
    return this.builder.result;
  }

  /**
   * Reads until the document is done (true) or `deadline` (performance.now()) has passed (false).
   * Throws MalformedDocumentError (or what a converter threw) when the document is refused: for
   * what it is as XML first, then for what it says.
   */
  run(deadline = Number.POSITIVE_INFINITY): boolean {
    if (!this.tokenizer.run(deadline)) return false;
    this.builder.end();
    return true;
  }
}
