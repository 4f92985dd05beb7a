/**
 * The one address the patient app signs in from. The page signs in for the FHIR API at its own
 * address, and the demo issuer knows the app only at `{PUBLIC_BASE_URL}/app/` (its redirect URI and
 * the `aud` it accepts), so a page opened at another loopback name of the same port (`localhost`
 * where PUBLIC_BASE_URL says `127.0.0.1`) could never sign in: it is sent to that address instead.
 * Only between loopback names: a proxy that rewrites `Host` is never sent round in circles, and the
 * address sent to is PUBLIC_BASE_URL's, never one the request named.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * For PUBLIC_BASE_URL, parsed once: where a request for the app's page at `host` (its path and query
 * `url`) is sent, with the query kept; undefined: serve it here.
 */
export function appAddressFor(publicBaseUrl: string): (host: string | undefined, url: string) => string | undefined {
  const canonical = new URL(publicBaseUrl);
  const page = `${publicBaseUrl.replace(/\/$/, '')}/app/`;
  if (!LOOPBACK.has(canonical.hostname)) return () => undefined;
  return (host, url) => {
    if (host === undefined || !URL.canParse(`${canonical.protocol}//${host}`)) return undefined;
    const asked = new URL(`${canonical.protocol}//${host}`);
    if (!LOOPBACK.has(asked.hostname) || asked.hostname === canonical.hostname || portOf(asked) !== portOf(canonical)) return undefined;
    const query = url.indexOf('?');
    return query < 0 ? page : `${page}${url.slice(query)}`;
  };
}
