/**
 * A header that names who calls or where, sent twice, is refused (400), never read: Node keeps the first
 * of a repeated Authorization, Host or Content-Type and drops the rest, and a gateway in front that
 * reads the last would have let through someone other than the one the service then serves (RFC 9112
 * §3.2 says the same of Host). A header Node joins instead (the subscription key) is refused by its own
 * check, as the joined value is no valid one; `patient` is refused here too, so the words say what was wrong.
 */

import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import { underMount } from './transport-errors.js';

/**
 * The headers Node keeps one of (node:_http_incoming, matchKnownFields) whose choice decides who or what
 * is served, and `patient`, which Node joins: each number may be valid, and its own check would say the
 * joined value is no identity number, not that it came twice.
 */
const SINGLE: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'host', 'content-type', 'patient']);

/** The first of those headers `rawHeaders` (Node's name, value, name, value …) holds more than once, lower-cased. */
export function repeatedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen: string[] | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    if (!SINGLE.has(name)) continue;
    if (seen?.includes(name) === true) return name;
    (seen ??= []).push(name);
  }
  return undefined;
}

/** The refusal's words, the header as HTTP writes it. */
export function repeatedHeaderMessage(name: string): string {
  const shown = name.replace(/(^|-)([a-z])/g, (_m: string, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
  return `Header ${shown} is sent more than once: send it once.`;
}

/** What an app is answered at the authorization server's mount: an OAuth error, as its back channel answers (no browser repeats a header). */
const OAUTH_JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'x-frame-options': 'DENY',
} as const;

/**
 * Refuses a request with a repeated header before any hook reads one: in the error shape of its door
 * (the error handler's), and at the authorization server's mount (`authMount`) as an OAuth error.
 */
export function refuseRepeatedHeaders(app: FastifyInstance, authMount: string | undefined): void {
  app.addHook('onRequest', (request, reply, done) => {
    const repeated = repeatedHeader(request.raw.rawHeaders);
    if (repeated === undefined) {
      done();
      return;
    }
    const message = repeatedHeaderMessage(repeated);
    if (authMount !== undefined && underMount(request.url, authMount)) {
      void reply.code(400).headers(OAUTH_JSON_HEADERS).send(JSON.stringify({ error: 'invalid_request', error_description: message }));
      return;
    }
    done(new ApiError(400, message));
  });
}
