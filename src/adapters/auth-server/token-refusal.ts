// A token request refused before oidc-provider's token endpoint reads it (smart-token-endpoint.ts,
// token-resource.ts), answered as oidc-provider answers a refused one, and the form it was read from,
// kept for the token audit (token-audit.ts), which records a refusal of a grant's code or token.
import { decodeJwt } from 'jose';
import type { OidcError, Provider } from 'oidc-provider';

/** What a refusal needs of Koa's context. */
export interface RefusedContext {
  status: number;
  body?: unknown;
  state: Record<string, unknown>;
  req: { headers: Record<string, string | string[] | undefined> };
  set(field: string, value: string): void;
}

const TOKEN_FORM = 'pdasTokenForm';

/** Keeps the token request's form, as read (and completed) before oidc-provider reads it. */
export function keepTokenForm(ctx: { state: Record<string, unknown> }, form: URLSearchParams): void {
  ctx.state[TOKEN_FORM] = form;
}

/** The token request's form kept by keepTokenForm; undefined for any other request. */
export function tokenFormOf(ctx: { state?: Record<string, unknown> }): URLSearchParams | undefined {
  const form = ctx.state?.[TOKEN_FORM];
  return form instanceof URLSearchParams ? form : undefined;
}

/** RFC 6749 §2.3.1's encoding of a Basic credential's parts, undone as oidc-provider undoes it (`+` a space). */
function basicPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}

/**
 * The app a token request names, read as oidc-provider's client authentication reads it (client_auth.js):
 * its form's `client_id`, else HTTP Basic's user, else its client assertion's `sub`; unverified, as the app
 * oidc-provider records a refusal for is (it finds the named app before it checks the secret or signature).
 */
export function namedApp(form: URLSearchParams, authorization: string | string[] | undefined): string | undefined {
  const id = form.get('client_id');
  if (id !== null && id !== '') return id;
  const basic = typeof authorization === 'string' ? /^basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization)?.[1] : undefined;
  if (basic !== undefined) {
    const credentials = Buffer.from(basic, 'base64').toString('utf8');
    const colon = credentials.indexOf(':');
    return colon === -1 ? undefined : basicPart(credentials.slice(0, colon));
  }
  const assertion = form.get('client_assertion');
  if (assertion === null) return undefined;
  try {
    const sub = decodeJwt(assertion).sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The refusal `error` (one of oidc-provider's errors) of a token request, told the app in `description`:
 * not cached, readable by the calling page (its CORS answer to a request that names no client yet), and
 * logged and counted as one (its `grant.error`).
 */
export function refuseTokenRequest(provider: Provider, ctx: RefusedContext, error: OidcError, description: string): void {
  ctx.status = error.status;
  ctx.body = { error: error.error, error_description: description };
  ctx.set('Cache-Control', 'no-store');
  const origin = ctx.req.headers.origin;
  if (typeof origin === 'string') {
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Vary', 'Origin');
  }
  provider.emit('grant.error', ctx, error);
}
