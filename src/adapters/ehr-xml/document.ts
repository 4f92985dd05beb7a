/** One document type: its root, its compiled shape, its repeated paths and its parser, built once. */
import { arrayPaths } from './array-paths.js';
import { compile, type MapContext, type ObjectShape } from './shape.js';
import { mapRoot } from './walk.js';
import { documentParser } from './xml-parser.js';

export interface DocumentType {
  readonly root: string;
  /** Parses and maps the whole document: the root's fields, arrays always present. */
  map(xml: string, ctx: MapContext): Record<string, unknown>;
}

export function documentType(root: string, shape: ObjectShape): DocumentType {
  const compiled = compile(shape);
  const parser = documentParser(root, arrayPaths(root, compiled));
  return {
    root,
    map: (xml, ctx) => mapRoot(parser.parse(xml), compiled, ctx),
  };
}

const silent: MapContext = { zone: 'UTC', onDropped: () => undefined };

/** For documents without time conversions or drops (relationships, results, faults). */
export const plainContext = (): MapContext => silent;
