import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { firstRepeatedMember, RepeatedMemberError } from './repeated-members.js';

// `fatal`: bytes that are no UTF-8 are refused, never replaced by U+FFFD and stored.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// RFC 2231's extended spellings (`charset*=`, `charset*0=`) too: group 1 holds the star, and such a
// charset is refused whatever it says, rather than passed over as no charset at all.
const CHARSET = /;\s*charset(\*[0-9]*\*?)?\s*=\s*("?)([^";\s]*)\2/gi;

type Done = (err: Error | null, body?: unknown) => void;
type JsonBodyParser = (request: FastifyRequest, bytes: Buffer, done: Done) => void;

const POISONED = 'The body holds a member named __proto__, or constructor with a member prototype, which this API never takes: leave it out.';

/** Whether JSON.parse takes `text`: asked only of a body fastify refused, to tell poisoning from bad JSON. */
function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON body read one way by every reader: UTF-8 alone (RFC 8259 §8.1: a body sent as utf-16 or
 * latin1 was read as UTF-8 all the same, and bytes that were none replaced and stored), fastify's own
 * parser (`__proto__` and `constructor.prototype` refused), and no member named twice in one object
 * (src/http/repeated-members.ts).
 */
export function jsonBodyParser(app: FastifyInstance): JsonBodyParser {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, bytes, done) => {
    const text = utf8Body(request, bytes, { kind: 'A JSON body', what: 'JSON' });
    if (text instanceof ApiError) return done(text);
    return parse(request, text, (err, value) => {
      // fastify says "not valid JSON" of valid JSON its poisoning guard refused: say what it was.
      if (err !== null) return done(isValidJson(text) ? new ApiError(400, POISONED) : err);
      const repeated = firstRepeatedMember(text);
      return repeated === undefined ? done(null, value) : done(new RepeatedMemberError(repeated));
    });
  };
}

/** Whether `Content-Encoding` names a coding other than `identity` (a gzipped body, say), which no route inflates. */
const compressed = (encoding: string | undefined): boolean =>
  encoding !== undefined && encoding.split(',').some((c) => c.trim() !== '' && c.trim().toLowerCase() !== 'identity');

/**
 * A body's text, read as UTF-8 alone, whatever its media type (a JSON body, a `_search` form): a charset
 * other than utf-8 (or two) is 415, bytes that are no UTF-8 are 400, never replaced by U+FFFD. A compressed
 * body is 415 naming the coding taken (RFC 7694 §3): refused as "not UTF-8", its sender looked for the
 * wrong fault (hostile reviews helper-126 and helper-127).
 */
export function utf8Body(request: FastifyRequest, bytes: Buffer, named: { kind: string; what: string }): string | ApiError {
  if (compressed(request.headers['content-encoding'])) {
    return new ApiError(415, 'The body is compressed (Content-Encoding), which this API does not take: send it uncompressed.', { 'accept-encoding': 'identity' });
  }
  const charsets = [...(request.headers['content-type'] ?? '').matchAll(CHARSET)].map((m) => (m[1] === undefined ? (m[3] ?? '').toLowerCase() : 'extended'));
  if (charsets.length > 1 || charsets.some((c) => c !== 'utf-8' && c !== 'utf8')) {
    return new ApiError(415, `${named.kind} is UTF-8: send charset=utf-8, or no charset at all.`);
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    return new ApiError(400, `The body is not UTF-8: send ${named.what} encoded as UTF-8.`);
  }
}

/**
 * JSON bodies as jsonBodyParser reads them, but for one case: an empty body on a route that takes
 * none. Many clients send `Content-Type: application/json` on every call, a DELETE or an accept
 * included; fastify refused those with 400 "body must be a JSON object", though the route reads no
 * body at all. A route that takes a body still refuses an empty one.
 */
export function emptyJsonWhereNoBody(app: FastifyInstance): void {
  const parse = jsonBodyParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0 && request.routeOptions.schema?.body === undefined) done(null, undefined);
    else parse(request, body as Buffer, done);
  });
}
