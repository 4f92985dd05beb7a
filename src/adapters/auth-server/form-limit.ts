import type { IncomingHttpHeaders } from 'node:http';

/** oidc-provider's own limit on a form it reads (lib/shared/selective_body.js), kept for the forms read before it. */
export const MAX_FORM_BYTES = 56 * 1024;

/** A form over MAX_FORM_BYTES: 413, answered by provider-pages.ts (the service's page, or an OAuth error), the rest never read. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
  readonly status = 413;
}

/**
 * Whether a request says its body is larger than any form the server reads. oidc-provider itself
 * refuses such a body (introspection, revocation, a sign-out's confirmation) as a 400 "failed to parse
 * the request body" on a connection kept open, after reading 56 KiB of it; said by its length, it is
 * refused before a byte is read, as the token endpoint's is. A body of no stated length is still read
 * to the limit by whichever reads it.
 */
export function statedTooLarge(headers: IncomingHttpHeaders): boolean {
  const length = Number(headers['content-length']);
  return Number.isSafeInteger(length) && length > MAX_FORM_BYTES;
}
