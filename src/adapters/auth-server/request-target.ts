import type { IncomingMessage } from 'node:http';
import { isLoopbackAlias } from '../../domain/addresses/loopback-alias.js';

/**
 * A request's target (`req.url`) as a URL, for its path and query only. Resolved against a base
 * (`new URL(req.url, base)`), a target that reads as an authority throws (`//[`, `//host:99999`: one
 * such packet to the demo issuer ended the whole demo process) or names another host (`//evil.example/x`).
 * Appended to a fixed origin it is a path whatever it holds; a target that is no path (Node takes `*`
 * and absolute URLs too) is the root.
 */
const ORIGIN = 'http://request.invalid';

export function requestTarget(raw: string | undefined): URL {
  return (raw?.startsWith('/') === true ? URL.parse(`${ORIGIN}${raw}`) : null) ?? new URL(`${ORIGIN}/`);
}

/**
 * A path to write in a link on the service's own page: one leading slash, never two. A target's dot
 * segments are resolved away (`/auth/..//evil.example/x` is `//evil.example/x`), and a link to
 * `//evil.example/x` leads to another host.
 */
export const ownPath = (pathname: string): string => `/${pathname.replace(/^\/+/, '')}`;

/**
 * The request as the issuer names its own addresses from it. oidc-provider writes every address (a
 * form's action, the way back after sign-in, which it stores when the authorization request is read)
 * from the request's `Host` (`X-Forwarded-Host` behind a trusted proxy) and from an absolute-form
 * target as it stands (Koa's `href`): `GET http://evil.example/auth …` ended a sign-in at
 * evil.example. Pinned to the issuer's own origin, and the target to its path, no request names another.
 */
export function pinToIssuer(req: IncomingMessage, issuer: string, behindProxy: boolean): void {
  const own = new URL(issuer);
  const raw = req.url ?? '/';
  if (!raw.startsWith('/')) {
    const absolute = URL.parse(raw);
    // A scheme of no path (`foo://evil.example`) has an empty one: still a path of the server.
    req.url = absolute === null ? '/' : `${ownPath(absolute.pathname)}${absolute.search}`;
  }
  req.headers.host = own.host;
  if (behindProxy) {
    req.headers['x-forwarded-host'] = own.host;
    req.headers['x-forwarded-proto'] = own.protocol.slice(0, -1);
  }
}

/**
 * Where a GET or HEAD asked by another loopback name of the issuer (`localhost` for `127.0.0.1`) is
 * sent: the same path and query at the issuer's own address. A sign-in begun there would set its
 * cookies for that name while every address the issuer writes names its own (pinToIssuer), and it
 * could never finish. Undefined for any other request.
 */
export function issuerAddressFor(req: IncomingMessage, issuer: string): string | undefined {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !isLoopbackAlias(new URL(issuer), req.headers.host)) return undefined;
  const target = requestTarget(req.url);
  return `${new URL(issuer).origin}${ownPath(target.pathname)}${target.search}`;
}
