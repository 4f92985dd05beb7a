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

/**
 * Whether a request refused for its key sent more than one: the parameter repeated, the header repeated or
 * listing several (Node joins a repeated header's lines with commas, and a key holds none: it is configured
 * in a comma-separated list), or the two with different keys. Asked only for a refusal's words, with the
 * parameter's value as it came, before presentedSubscriptionKey took it out.
 */
export function severalKeysSent(request: FastifyRequest, fromQuery: unknown): boolean {
  if (Array.isArray(fromQuery)) return true;
  const header = request.headers['ocp-apim-subscription-key'];
  if (header === undefined) return false;
  // Counted, not only looked for: one key with a stray comma, or a comma alone, is one key or none (hostile review helper-134, F7).
  const listed = Array.isArray(header) ? header.join(',') : header;
  if (listed.split(',').filter((part) => part.trim() !== '').length > 1) return true;
  return fromQuery !== undefined && fromQuery !== '' && listed !== fromQuery;
}
