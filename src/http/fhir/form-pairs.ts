import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';
import { SUBSCRIPTION_KEY_PARAMETER } from '../subscription-key.js';

/** A run of percent-escapes: the bytes of one or more characters. */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * The name-value pairs of a query string or a `_search` form (application/x-www-form-urlencoded), in
 * order. `URLSearchParams` reads an escape that is no UTF-8 (`%FF`, `%E5` alone) as U+FFFD and searches
 * for that; here it is 400, as a body that is no UTF-8 is. The escapes are looked at only when a decoded
 * text holds U+FFFD, which a character sent as its own escapes (`%EF%BF%BD`) may too.
 */
export function formPairs(text: string): [string, string][] {
  const pairs = [...new URLSearchParams(text)];
  if (pairs.some(([name, value]) => name.includes('\uFFFD') || value.includes('\uFFFD')) && !escapesAreUtf8(text)) {
    throw new ApiError(400, 'The parameters hold a percent-escape that is no UTF-8: send each character as the escapes of its UTF-8 bytes, e.g. å as %C3%A5.');
  }
  return pairs;
}

function escapesAreUtf8(text: string): boolean {
  for (const [run] of text.matchAll(ESCAPES)) {
    try {
      decodeURIComponent(run);
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * The parameters of a request's query string, in order, read as formPairs reads them, without the
 * subscription key: a query parameter only where a client cannot send the header, it is the
 * credentials' (src/http/subscription-key.ts), no parameter of any FHIR route.
 */
export function queryPairs(request: FastifyRequest): [string, string][] {
  const at = request.url.indexOf('?');
  return at < 0 ? [] : formPairs(request.url.slice(at + 1)).filter(([name]) => name !== SUBSCRIPTION_KEY_PARAMETER);
}
