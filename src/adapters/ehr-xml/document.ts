/**
 * One document type: its root, its compiled shape, and how the XML reader (fast-reader.ts), the one
 * engine, maps it: in one go, or in slices with the event loop free in between.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DocumentPieces, type DocumentInput } from './document-pieces.js';
import { FastReader, firstPiece } from './fast-reader.js';
import { compile, type CompiledObject, type MapContext, type ObjectShape } from './shape.js';

type Root = Record<string, unknown>;

export interface DocumentType {
  readonly root: string;
  readonly shape: CompiledObject;
  /** Parses and maps the whole document: the root's fields, arrays always present. Throws MalformedDocumentError. */
  map(xml: DocumentInput, ctx: MapContext): Root;
  /**
   * The same result, read in slices of about `sliceMs` with the event loop free in between, so a
   * document of megabytes never holds it for long.
   */
  mapInSlices(xml: DocumentInput, ctx: MapContext, sliceMs: number): Promise<Root>;
}

export function documentType(root: string, shape: ObjectShape): DocumentType {
  const compiled = compile(shape);
  const readerFor = (xml: DocumentInput, ctx: MapContext): FastReader => {
    const pieces = DocumentPieces.of(xml);
    return new FastReader(firstPiece(pieces), pieces, root, compiled, ctx);
  };
  return {
    root,
    shape: compiled,
    map(xml, ctx) {
      const reader = readerFor(xml, ctx);
      reader.run();
      return reader.result as Root;
    },
    async mapInSlices(xml, ctx, sliceMs) {
      const reader = readerFor(xml, ctx);
      while (!reader.run(performance.now() + sliceMs)) await nextTurn();
      return reader.result as Root;
    },
  };
}

/** A document type and what its root's fields become: the records a mapper returns. */
export interface Reading<T> {
  readonly document: DocumentType;
  /** The records of a mapped root (the differential tests apply it to their oracle's root too). */
  readonly finish: (root: Root, ctx: MapContext) => T;
  map(xml: DocumentInput, ctx: MapContext): T;
  mapInSlices(xml: DocumentInput, ctx: MapContext, sliceMs: number): Promise<T>;
}

export function reading<T>(document: DocumentType, finish: (root: Root, ctx: MapContext) => T): Reading<T> {
  return {
    document,
    finish,
    map: (xml, ctx) => finish(document.map(xml, ctx), ctx),
    mapInSlices: async (xml, ctx, sliceMs) => finish(await document.mapInSlices(xml, ctx, sliceMs), ctx),
  };
}

const silent: MapContext = { zone: 'UTC', onDropped: () => undefined };

/** For documents without time conversions or drops (relationships, results, faults). */
export const plainContext = (): MapContext => silent;
