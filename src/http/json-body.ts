import type { FastifyInstance } from 'fastify';
import { jsonOnceParser } from './repeated-members.js';

/**
 * JSON bodies as fastify reads them (its own parser, with prototype and constructor poisoning
 * refused), no member named twice (src/http/repeated-members.ts), but for one case: an empty body
 * on a route that takes none. Many clients send `Content-Type: application/json` on every call, a
 * DELETE or an accept included; fastify refused those with 400 "body must be a JSON object", though
 * the route reads no body at all. A route that takes a body still refuses an empty one.
 */
export function emptyJsonWhereNoBody(app: FastifyInstance): void {
  const parse = jsonOnceParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) done(null, undefined);
    else parse(request, body as string, done);
  });
}
