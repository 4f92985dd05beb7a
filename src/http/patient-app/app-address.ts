/**
 * The one address the patient app signs in from. The page signs in for the FHIR API at its own
 * address, and the demo issuer knows the app only at `{PUBLIC_BASE_URL}/app/` (its redirect URI and
 * the `aud` it accepts), so a page opened at another loopback name of the same port (`localhost`
 * where PUBLIC_BASE_URL says `127.0.0.1`) could never sign in: it is sent to that address instead.
 * Only between loopback names (src/domain/addresses/loopback-alias.ts).
 */
import { isLoopbackAlias } from '../../domain/addresses/loopback-alias.js';

/**
 * For PUBLIC_BASE_URL, parsed once: where a request for the app's page at `host` (its path and query
 * `url`) is sent, with the query kept; undefined: serve it here.
 */
export function appAddressFor(publicBaseUrl: string): (host: string | undefined, url: string) => string | undefined {
  const canonical = new URL(publicBaseUrl);
  const page = `${publicBaseUrl.replace(/\/$/, '')}/app/`;
  return (host, url) => {
    if (!isLoopbackAlias(canonical, host)) return undefined;
    const query = url.indexOf('?');
    return query < 0 ? page : `${page}${url.slice(query)}`;
  };
}
