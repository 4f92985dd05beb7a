/**
 * The ids of a request (docs/contract.md#request-ids). Every request gets the service's own id, a UUID,
 * answered in X-Request-Id and used in its log line, its audit record and the patient's access log. A
 * caller's X-Request-Id is not trusted, as a caller's trace context is not (an edge proxy such as Envoy
 * regenerates it too): anyone can send any text there, and the access log is a page patients read. It
 * is kept beside the service's id, in the log line and the audit record, for operators only: scrubbed
 * like any logged text (it may hold an identity number or a token), every character that is not
 * printable ASCII (CR and LF included) made `?`, and cut to 128 characters.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { scrubText } from '../domain/redaction/scrub-text.js';

const MAX_CALLER_ID = 128;
/** Only this much of a header is read at all: it bounds the scrubber's work, and 128 characters are kept. */
const READ_AT_MOST = 1024;
const NOT_PRINTABLE = /[^\x20-\x7e]/g;

/** Draws before giving up: 1 draw in 77 is thrown away, so 8 in a row (about 1 in 10^15) means the source is broken. */
const MAX_DRAWS = 8;

/**
 * An id from `draw` (a UUID) that the scrubber leaves whole. About 1 random UUID in 77 holds digits
 * of an identity number's shape across its hyphens (`19650109-2537-4…`), and about 1 in 60,000 a
 * valid number (`…a1-8010-38080366…` holds 180103808036): logged as it is, a reader or a region's log
 * scanner takes it for a person's number, and where it is logged inside a text the scrubber
 * replaces it, and the operator loses the id. Such a draw is thrown away (measured over two million
 * UUIDs); the ids left are as random as before, less those.
 */
export function serviceIdFrom(draw: () => string): string {
  for (let n = 0; n < MAX_DRAWS; n++) {
    const id = draw();
    if (scrubText(id) === id) return id;
  }
  throw new Error(`no id without an identity number's shape in ${MAX_DRAWS} draws: the source of ids is not random`);
}

/** The service's own id of a request: never the caller's. */
export const requestIdOf = (): string => serviceIdFrom(randomUUID);

/** `raw` as an operator may see it: scrubbed, printable ASCII only, at most 128 characters (empty when nothing is left). */
export function keptForOperators(raw: string): string {
  return scrubText(raw.slice(0, READ_AT_MOST)).replace(NOT_PRINTABLE, '?').slice(0, MAX_CALLER_ID);
}

/** The caller's X-Request-Id as kept for operators (see above), read once per request; undefined when none was sent. */
export function callerRequestIdOf(request: FastifyRequest): string | undefined {
  if (request.callerRequestId === undefined) {
    const given = request.headers['x-request-id'];
    request.callerRequestId = given === undefined ? '' : keptForOperators(Array.isArray(given) ? given.join(', ') : given);
  }
  return request.callerRequestId === '' ? undefined : request.callerRequestId;
}
