/**
 * A JSON body that names one member twice in one object is refused. RFC 8259 §4 leaves such an
 * object's meaning to the reader: JSON.parse keeps the last value, a gateway, a log reader or the
 * caller's own library may keep the first, and a grant of `["LabResult"]` then `["*"]` was stored as
 * a grant of everything while the first reader saw lab results. The scan is jsonc-parser's visitor,
 * which decodes each name as JSON.parse does (`"\u0063ategories"` is `categories`); it runs only on a
 * text JSON.parse has already read, so its leniency (comments, trailing commas) never comes into play.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { visit, type JSONPath } from 'jsonc-parser';

/** The body names the member at `path` twice; the error mapper says so, naming it. */
export class RepeatedMemberError extends Error {
  constructor(readonly path: JSONPath) {
    super('A JSON body names a member twice.');
    this.name = 'RepeatedMemberError';
  }
}

/** The path of the first member named twice in its object, or undefined when no object repeats a name. */
export function firstRepeatedMember(text: string): JSONPath | undefined {
  const open: Set<string>[] = [];
  let repeated: JSONPath | undefined;
  visit(text, {
    onObjectBegin: () => { open.push(new Set()); },
    onObjectEnd: () => { open.pop(); },
    onObjectProperty: (name, _offset, _length, _line, _column, pathOf) => {
      const names = open.at(-1);
      if (names === undefined || repeated !== undefined) return;
      if (names.has(name)) repeated = [...pathOf(), name];
      else names.add(name);
    },
  });
  return repeated;
}

type Done = (err: Error | null, body?: unknown) => void;
export type JsonBodyParser = (request: FastifyRequest, text: string, done: Done) => void;

/** fastify's own JSON parser (`__proto__` and `constructor.prototype` refused), then no member named twice. */
export function jsonOnceParser(app: FastifyInstance): JsonBodyParser {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) => {
    parse(request, text, (err, value) => {
      if (err !== null) return done(err);
      const repeated = firstRepeatedMember(text);
      return repeated === undefined ? done(null, value) : done(new RepeatedMemberError(repeated));
    });
  };
}
