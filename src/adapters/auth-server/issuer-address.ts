import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackAlias } from '../../domain/addresses/loopback-alias.js';
import { ownPath, requestTarget } from './request-target.js';

/**
 * The path and query a request's target names on this server, an absolute-form one's included
 * (`http://evil.example/auth?x` -> `/auth?x`): one leading slash (ownPath). A target of no path (`*`,
 * `foo://evil.example`, whose path is empty) is the root.
 */
function pathAndQuery(raw: string): string {
  const target = raw.startsWith('/') ? requestTarget(raw) : URL.parse(raw);
  return target === null ? '/' : `${ownPath(target.pathname)}${target.search}`;
}

/**
 * The issuer's own address, held against what a request says it is; parsed once, at start-up.
 * oidc-provider writes every address (a form's action, the way back after sign-in, which it stores
 * when the authorization request is read) from the request's `Host` (`X-Forwarded-Host` behind a
 * trusted proxy) and from an absolute-form target as it stands (Koa's `href`):
 * `GET http://evil.example/auth …` ended a sign-in at evil.example.
 */
export class IssuerAddress {
  private readonly own: URL;

  constructor(issuer: string, private readonly behindProxy: boolean) {
    this.own = new URL(issuer);
  }

  /** The request pinned to the issuer's origin, and an absolute-form target to its path: no request names another host. */
  pin(req: IncomingMessage): void {
    const raw = req.url ?? '/';
    if (!raw.startsWith('/')) req.url = pathAndQuery(raw);
    req.headers.host = this.own.host;
    if (this.behindProxy) {
      req.headers['x-forwarded-host'] = this.own.host;
      req.headers['x-forwarded-proto'] = this.own.protocol.slice(0, -1);
    }
  }

  /**
   * Where a GET or HEAD asked by another loopback name of the issuer (`localhost` for `127.0.0.1`) is
   * sent: the same path and query at the issuer's own address. A sign-in begun there would set its
   * cookies for that name while every address the issuer writes names its own (`pin`), and it could
   * never finish. Undefined for any other request.
   */
  addressFor(req: IncomingMessage): string | undefined {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isLoopbackAlias(this.own, req.headers.host)) return undefined;
    return `${this.own.origin}${pathAndQuery(req.url ?? '/')}`;
  }

  /** Answers such a request (addressFor) with a 302 to the issuer's own address; false, nothing sent, for any other. */
  sendToOwn(req: IncomingMessage, res: ServerResponse): boolean {
    const own = this.addressFor(req);
    if (own === undefined) return false;
    res.writeHead(302, { location: own, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end();
    return true;
  }
}
