// The login's tie to the browser that went to the region (OpenID Connect Core §3.1.2.1, RFC 6749 §10.12):
// before the person is sent to the region's login, their browser gets a cookie of the service's own with
// a random value, and only its hash is kept with the login in progress. The region's answer is taken, and
// the login finished, only in a browser that brings that value back: a victim who finishes at the region
// a login an attacker began (login session swap) brings none, so the attacker's browser is never signed
// in as the victim.
//
// The value alone is not enough once an attacker can write cookies into the victim's browser (cookie
// tossing): he knows the value of his own login's cookie and could plant it, from a sibling subdomain
// (`Domain=.<parent>`) or as a network attacker through any plain-http page of the domain. So on https
// the cookie is named with the `__Host-` prefix (RFC 6265bis §4.1.3.2): a browser takes such a cookie
// only from this very origin over https, `Secure`, `Path=/` and without `Domain`, so no other site and no
// plain-http answer can set it, and only a cookie of that name is read. Plain http (loopback only: tests,
// the demo) cannot have the prefix, and keeps the plain name.
//
// One cookie per login in progress, named by its `state` (public already: it is in the region's URL), so
// two tabs signing in at once do not overwrite each other's. SameSite=Lax, so the region's top-level
// redirect back carries it; HttpOnly; on https Path=/ (as the prefix requires), on http the server's path.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const NAME = 'pdas_login_';

export interface LoginBinding {
  /** The Set-Cookie header giving the browser the value. */
  cookie: string;
  /** The value's SHA-256 (hex), kept with the login in progress instead of the value. */
  hash: string;
}

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Where the cookie lives: https only (then `__Host-`, Path=/), or plain http on loopback under `path`. */
export type CookieScope = { secure: true } | { secure: false; path: string };

/** The scope of a service whose callback is `redirectUri`, mounted at `mountPath` ('' at the root). */
export function cookieScopeOf(redirectUri: string, mountPath: string): CookieScope {
  return new URL(redirectUri).protocol === 'https:' ? { secure: true } : { secure: false, path: mountPath === '' ? '/' : mountPath };
}

/** A cookie's name in `scope`: `__Host-` before it on https, the plain name on loopback http. */
export const cookieNameIn = (name: string, scope: CookieScope): string => `${scope.secure ? '__Host-' : ''}${name}`;

const nameOf = (state: string, scope: CookieScope): string => cookieNameIn(`${NAME}${state}`, scope);

/** A cookie's attributes in `scope`: HttpOnly, SameSite=Lax, living `maxAge` seconds; Secure and Path=/ on https. */
export function cookieAttributes(scope: CookieScope, maxAge: number): string {
  return `Path=${scope.secure ? '/' : scope.path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${scope.secure ? '; Secure' : ''}`;
}

/** The optional whitespace around a cookie's name and value: spaces and tabs, nothing else. */
const OWS = /^[ \t]+|[ \t]+$/g;

/** The request's cookies, name and value, in the order sent (a browser may send two of one name for different paths). */
function* cookiePairs(req: IncomingMessage): Generator<{ name: string; value: string }> {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    // Only the separators' spaces and tabs (RFC 6265 §4.2.1): String.prototype.trim would also strip a
    // no-break space (a 0xA0 byte, as Node reads headers), and `\xA0__Host-…`, which another site may
    // set, would then be read as the `__Host-` cookie that no other site can.
    if (eq >= 0) yield { name: part.slice(0, eq).replace(OWS, ''), value: part.slice(eq + 1).replace(OWS, '') };
  }
}

/** Every value the request brings in a cookie named `name`. */
export function cookieValues(req: IncomingMessage, name: string): string[] {
  return [...cookiePairs(req)].filter((c) => c.name === name).map((c) => c.value);
}

/** A login's `state` as this service makes them (openid-client's random state), and as a cookie name may end. */
const STATE = /^[\w-]{1,128}$/;

/** The logins in progress whose binding cookies the request brings: their states, each once. */
export function heldBindings(req: IncomingMessage, scope: CookieScope): string[] {
  const prefix = nameOf('', scope);
  const states = [...cookiePairs(req)].filter((c) => c.name.startsWith(prefix)).map((c) => c.name.slice(prefix.length));
  return [...new Set(states.filter((state) => STATE.test(state)))];
}

/** A new binding for the login of `state`, living as long as that login may. */
export function newLoginBinding(state: string, scope: CookieScope, ttlSeconds: number): LoginBinding {
  const value = randomBytes(32).toString('base64url');
  return { cookie: `${nameOf(state, scope)}=${value}; ${cookieAttributes(scope, ttlSeconds)}`, hash: sha256(value).toString('hex') };
}

/** The Set-Cookie header that ends the binding of `state` (used or refused, it is never needed again). */
export function clearedLoginBinding(state: string, scope: CookieScope): string {
  return `${nameOf(state, scope)}=; ${cookieAttributes(scope, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * Whether the request brings the value whose hash is `hash` in the cookie of `state` (compared in
 * constant time). On https only the `__Host-` cookie counts: one of the plain name was planted.
 */
export function bindingMatches(req: IncomingMessage, state: string, hash: unknown, scope: CookieScope): boolean {
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return false;
  const expected = Buffer.from(hash, 'hex');
  let matched = false;
  // Every cookie of that name is looked at.
  for (const value of cookieValues(req, nameOf(state, scope))) {
    if (timingSafeEqual(sha256(value), expected)) matched = true;
  }
  return matched;
}
