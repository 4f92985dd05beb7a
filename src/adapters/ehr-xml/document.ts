/**
 * One document type: its root, its compiled shape, and the two engines that map it. The
 * single-pass reader (fast-reader.ts) maps every document it can; whatever it gives back — every
 * malformed document among them — is mapped by the reference engine (xml-parser.ts + walk.ts,
 * fast-xml-parser), whose result or error is the answer; only one nesting deeper than MAX_DEPTH is
 * refused at once, with the reference parser's words. DTD markup is refused first, by both.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { arrayPaths } from './array-paths.js';
import { DocumentPieces, type DocumentInput } from './document-pieces.js';
import { FastReader } from './fast-reader.js';
import { compile, type CompiledObject, type MapContext, type ObjectShape } from './shape.js';
import { mapRoot } from './walk.js';
import { documentParser, notParseable, type DocumentParser } from './xml-parser.js';
import { hasDtdMarkup, normaliseLineEnds, withoutBom } from './xml-text.js';

type Root = Record<string, unknown>;

/** The single-pass reader alone (undefined where it gives the document back), or the reference engine alone. */
export type Engine = 'reader' | 'reference';

export interface DocumentType {
  readonly root: string;
  readonly shape: CompiledObject;
  /** Parses and maps the whole document: the root's fields, arrays always present. */
  map(xml: DocumentInput, ctx: MapContext): Root;
  /**
   * The same result, read in slices of about `sliceMs` with the event loop free in between, so a
   * document of megabytes never holds it for long. (A document given back to the reference engine
   * is mapped in one go.)
   */
  mapInSlices(xml: DocumentInput, ctx: MapContext, sliceMs: number): Promise<Root>;
  /** One engine only, for the differential tests and the benchmarks. */
  mapWith(engine: Engine, xml: DocumentInput, ctx: MapContext): Root | undefined;
}

/** The reader for `pieces`, or undefined when only the reference engine may look at it. */
function readerFor(pieces: DocumentPieces, root: string, shape: CompiledObject, ctx: MapContext, parser: DocumentParser): FastReader | undefined {
  const first = withoutBom(pieces.piece(0));
  // The reference engine refuses DTD markup before anything else; it says so itself. (The reader
  // checks every further piece as it comes to it.)
  if (hasDtdMarkup(first)) return undefined;
  // fast-xml-parser normalises line ends before it reads; so does the reader.
  return new FastReader(normaliseLineEnds(first), pieces, root, shape, ctx, () => parser.isBareEmptyRoot(withoutBom(pieces.whole())));
}

export function documentType(root: string, shape: ObjectShape): DocumentType {
  const compiled = compile(shape);
  const parser = documentParser(root, arrayPaths(root, compiled));
  const reference = (pieces: DocumentPieces, ctx: MapContext): Root => mapRoot(parser.parse(pieces.whole()), compiled, ctx);
  /**
   * A document the reader gave back: the reference engine's answer. One that nests deeper than
   * MAX_DEPTH is refused as the reference parser refuses it, without first validating the rest of
   * it, which for 10 MiB of nesting held the event loop for a second. (A deep document that is also
   * malformed further on is thereby "not parseable" rather than "not well-formed": refused either way.)
   */
  const givenBack = (reader: FastReader | undefined, pieces: DocumentPieces, ctx: MapContext): Root => {
    // DTD markup in a piece the reader never reached is still refused as DTD markup, first.
    if (reader?.tooDeep === true && !hasDtdMarkup(pieces.whole())) throw notParseable();
    return reference(pieces, ctx);
  };
  return {
    root,
    shape: compiled,
    map(xml, ctx) {
      const pieces = DocumentPieces.of(xml);
      const reader = readerFor(pieces, root, compiled, ctx, parser);
      if (reader?.run() === true) return reader.result as Root;
      return givenBack(reader, pieces, ctx);
    },
    async mapInSlices(xml, ctx, sliceMs) {
      const pieces = DocumentPieces.of(xml);
      const reader = readerFor(pieces, root, compiled, ctx, parser);
      for (;;) {
        const done = reader?.run(performance.now() + sliceMs);
        if (done === true) return reader?.result as Root;
        if (done === undefined) return givenBack(reader, pieces, ctx);
        await nextTurn();
      }
    },
    mapWith(engine, xml, ctx) {
      const pieces = DocumentPieces.of(xml);
      if (engine === 'reference') return reference(pieces, ctx);
      const reader = readerFor(pieces, root, compiled, ctx, parser);
      return reader?.run() === true ? reader.result : undefined;
    },
  };
}

/** A document type and what its root's fields become: the records a mapper returns. */
export interface Reading<T> {
  readonly document: DocumentType;
  map(xml: DocumentInput, ctx: MapContext): T;
  mapInSlices(xml: DocumentInput, ctx: MapContext, sliceMs: number): Promise<T>;
  mapWith(engine: Engine, xml: DocumentInput, ctx: MapContext): T | undefined;
}

export function reading<T>(document: DocumentType, finish: (root: Root, ctx: MapContext) => T): Reading<T> {
  return {
    document,
    map: (xml, ctx) => finish(document.map(xml, ctx), ctx),
    mapInSlices: async (xml, ctx, sliceMs) => finish(await document.mapInSlices(xml, ctx, sliceMs), ctx),
    mapWith: (engine, xml, ctx) => {
      const root = document.mapWith(engine, xml, ctx);
      return root === undefined ? undefined : finish(root, ctx);
    },
  };
}

const silent: MapContext = { zone: 'UTC', onDropped: () => undefined };

/** For documents without time conversions or drops (relationships, results, faults). */
export const plainContext = (): MapContext => silent;
