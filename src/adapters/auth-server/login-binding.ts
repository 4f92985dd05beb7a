// The login's tie to the browser that went to the region (OpenID Connect Core §3.1.2.1, RFC 6749 §10.12):
// before the person is sent to the region's login, their browser gets a cookie of the service's own with
// a random value, and only its hash is kept with the login in progress. The region's answer is taken only
// from a browser that brings that value back: a victim who finishes at the region a login an attacker
// began (login session swap) brings none, so the attacker's browser is never signed in as the victim.
//
// One cookie per login in progress, named by its `state` (public already: it is in the region's URL), so
// two tabs signing in at once do not overwrite each other's. Path: the callback only; SameSite=Lax, so the
// region's top-level redirect back carries it; HttpOnly; Secure when the service is served over https.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const PREFIX = 'pdas_login_';

export interface LoginBinding {
  /** The Set-Cookie header giving the browser the value. */
  cookie: string;
  /** The value's SHA-256 (hex), kept with the login in progress instead of the value. */
  hash: string;
}

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Where the cookie lives: the callback's path, and whether it may travel only over https. */
export interface CookieScope { path: string; secure: boolean }

function attributes(scope: CookieScope, maxAge: number): string {
  return `Path=${scope.path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${scope.secure ? '; Secure' : ''}`;
}

/** A new binding for the login of `state`, living as long as that login may. */
export function newLoginBinding(state: string, scope: CookieScope, ttlSeconds: number): LoginBinding {
  const value = randomBytes(32).toString('base64url');
  return { cookie: `${PREFIX}${state}=${value}; ${attributes(scope, ttlSeconds)}`, hash: sha256(value).toString('hex') };
}

/** The Set-Cookie header that ends the binding of `state` (used or refused, it is never needed again). */
export function clearedLoginBinding(state: string, scope: CookieScope): string {
  return `${PREFIX}${state}=; ${attributes(scope, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** Whether the request brings the value whose hash is `hash` in the cookie of `state` (compared in constant time). */
export function bindingMatches(req: IncomingMessage, state: string, hash: unknown): boolean {
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return false;
  const expected = Buffer.from(hash, 'hex');
  const name = `${PREFIX}${state}`;
  const header = req.headers.cookie ?? '';
  let matched = false;
  // Every cookie of that name is looked at (a browser may send two of one name for different paths).
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    if (timingSafeEqual(sha256(part.slice(eq + 1).trim()), expected)) matched = true;
  }
  return matched;
}
