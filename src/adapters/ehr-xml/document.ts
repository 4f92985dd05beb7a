/**
 * One document type: its root, its compiled shape, and the two engines that map it. The
 * single-pass reader (fast-reader.ts) maps every document it can; whatever it gives back — every
 * malformed document among them — is mapped by the reference engine (xml-parser.ts + walk.ts,
 * fast-xml-parser), whose result or error is the answer; only one nesting deeper than MAX_DEPTH is
 * refused at once, with the reference parser's words. DTD markup is refused first, by both.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { arrayPaths } from './array-paths.js';
import { FastReader } from './fast-reader.js';
import { compile, type CompiledObject, type MapContext, type ObjectShape } from './shape.js';
import { mapRoot } from './walk.js';
import { documentParser, notParseable, type DocumentParser } from './xml-parser.js';
import { hasDtdMarkup } from './xml-text.js';

type Root = Record<string, unknown>;

/** The single-pass reader alone (undefined where it gives the document back), or the reference engine alone. */
export type Engine = 'reader' | 'reference';

export interface DocumentType {
  readonly root: string;
  readonly shape: CompiledObject;
  /** Parses and maps the whole document: the root's fields, arrays always present. */
  map(xml: string, ctx: MapContext): Root;
  /**
   * The same result, read in slices of about `sliceMs` with the event loop free in between, so a
   * document of megabytes never holds it for long. (A document given back to the reference engine
   * is mapped in one go.)
   */
  mapInSlices(xml: string, ctx: MapContext, sliceMs: number): Promise<Root>;
  /** One engine only, for the differential tests and the benchmarks. */
  mapWith(engine: Engine, xml: string, ctx: MapContext): Root | undefined;
}

/** The reader for `xml`, or undefined when only the reference engine may look at it. */
function readerFor(xml: string, root: string, shape: CompiledObject, ctx: MapContext, parser: DocumentParser): FastReader | undefined {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  // The reference engine refuses DTD markup before anything else; it says so itself.
  if (hasDtdMarkup(text)) return undefined;
  // fast-xml-parser normalises line ends before it reads; so does the reader.
  const normalised = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  return new FastReader(normalised, root, shape, ctx, () => parser.isBareEmptyRoot(text));
}

export function documentType(root: string, shape: ObjectShape): DocumentType {
  const compiled = compile(shape);
  const parser = documentParser(root, arrayPaths(root, compiled));
  const reference = (xml: string, ctx: MapContext): Root => mapRoot(parser.parse(xml), compiled, ctx);
  /**
   * A document the reader gave back: the reference engine's answer. One that nests deeper than
   * MAX_DEPTH is refused as the reference parser refuses it, without first validating the rest of
   * it, which for 10 MiB of nesting held the event loop for a second. (A deep document that is also
   * malformed further on is thereby "not parseable" rather than "not well-formed": refused either way.)
   */
  const givenBack = (reader: FastReader | undefined, xml: string, ctx: MapContext): Root => {
    if (reader?.tooDeep === true) throw notParseable();
    return reference(xml, ctx);
  };
  return {
    root,
    shape: compiled,
    map(xml, ctx) {
      const reader = readerFor(xml, root, compiled, ctx, parser);
      if (reader?.run() === true) return reader.result as Root;
      return givenBack(reader, xml, ctx);
    },
    async mapInSlices(xml, ctx, sliceMs) {
      const reader = readerFor(xml, root, compiled, ctx, parser);
      for (;;) {
        const done = reader?.run(performance.now() + sliceMs);
        if (done === true) return reader?.result as Root;
        if (done === undefined) return givenBack(reader, xml, ctx);
        await nextTurn();
      }
    },
    mapWith(engine, xml, ctx) {
      if (engine === 'reference') return reference(xml, ctx);
      const reader = readerFor(xml, root, compiled, ctx, parser);
      return reader?.run() === true ? reader.result : undefined;
    },
  };
}

/** A document type and what its root's fields become: the records a mapper returns. */
export interface Reading<T> {
  readonly document: DocumentType;
  map(xml: string, ctx: MapContext): T;
  mapInSlices(xml: string, ctx: MapContext, sliceMs: number): Promise<T>;
  mapWith(engine: Engine, xml: string, ctx: MapContext): T | undefined;
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
