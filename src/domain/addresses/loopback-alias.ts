/**
 * Another loopback name for a server that knows itself by one (`localhost` for `127.0.0.1`, the same
 * port). A browser keeps its cookies per name, so a sign-in begun at the other name never finishes at
 * the server's own, and a page signed in at the other is not the one the issuer knows: both send such
 * a request to the server's own address. Only between loopback names, so a proxy that rewrites `Host`
 * is never sent round in circles, and the address sent to is the server's, never one the request named.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/** Whether `host` (a request's Host) names `canonical` by another loopback name on its port. */
export function isLoopbackAlias(canonical: URL, host: string | undefined): boolean {
  if (!LOOPBACK.has(canonical.hostname) || host === undefined) return false;
  const asked = URL.parse(`${canonical.protocol}//${host}`);
  return asked !== null && LOOPBACK.has(asked.hostname) && asked.hostname !== canonical.hostname && portOf(asked) === portOf(canonical);
}
