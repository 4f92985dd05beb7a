import type { FastifyRequest } from 'fastify';

/** The vendor's API management takes the key in this query parameter too (docs/contract.md#credentials). */
export const SUBSCRIPTION_KEY_PARAMETER = 'subscription-key';

/**
 * The subscription key a request presents: the `Ocp-Apim-Subscription-Key` header or the
 * `subscription-key` query parameter. Undefined (so 401) when neither is there, when the parameter
 * is repeated, or when both are there and differ: a caller never gets to have one of two keys
 * chosen for it. The parameter is taken out of the query, so no route sees it as an unknown
 * field; the request log line never carries the query (src/http/logging.ts).
 */
export function presentedSubscriptionKey(request: FastifyRequest): string | undefined {
  const header = request.headers['ocp-apim-subscription-key'];
  const query = request.query as Record<string, unknown> | undefined;
  if (query === undefined || !Object.hasOwn(query, SUBSCRIPTION_KEY_PARAMETER)) return typeof header === 'string' ? header : undefined;
  const fromQuery = query[SUBSCRIPTION_KEY_PARAMETER];
  delete query[SUBSCRIPTION_KEY_PARAMETER];
  if (typeof fromQuery !== 'string' || (header !== undefined && header !== fromQuery)) return undefined;
  return fromQuery;
}

/** What a request refused for its key sent, for the demo's words: none, an empty one among them, one, or several. */
export type KeysSent = 'none' | 'empty' | 'one' | 'several';

/**
 * What a request refused for its key sent: several keys where the parameter is repeated, the header
 * repeated or listing several (Node joins a repeated header's lines with commas, and a key holds none: it
 * is configured in a comma-separated list), or the two hold different keys; an empty one where the header
 * lists none (a comma alone is none) or the parameter is empty, beside a key or not (hostile reviews
 * helper-137, F3 and helper-141, F2: it was "not the demo key" beside the demo key). Asked only for a
 * refusal's words, with the parameter's value as it came, before presentedSubscriptionKey took it out.
 */
export function keysSent(request: FastifyRequest, fromQuery: unknown): KeysSent {
  if (Array.isArray(fromQuery)) return 'several';
  const header = request.headers['ocp-apim-subscription-key'];
  // Counted, not only looked for: one key with a stray comma is one key (hostile review helper-134, F7).
  const listed = header === undefined ? undefined : (Array.isArray(header) ? header.join(',') : header).split(',').filter((part) => part.trim() !== '');
  if (listed !== undefined && listed.length > 1) return 'several';
  if (listed?.length === 0 || fromQuery === '') return 'empty';
  if (listed === undefined && fromQuery === undefined) return 'none';
  const [inHeader] = listed ?? [];
  return inHeader !== undefined && typeof fromQuery === 'string' && inHeader !== fromQuery ? 'several' : 'one';
}
