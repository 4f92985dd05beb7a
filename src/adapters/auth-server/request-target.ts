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
 * A NUL byte, percent-encoded (as an address, or a form URLSearchParams writes back, holds it): no OAuth
 * parameter holds one (RFC 6749 Appendix A) and PostgreSQL stores none, so a request carrying one was a 500
 * when its parameters were saved (hostile review helper-196, F6; re-review helper-197, F1).
 */
export const holdsEncodedNul = (target: string): boolean => /%00/.test(target);
