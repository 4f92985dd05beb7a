// A token request refused before oidc-provider's token endpoint reads it (smart-token-endpoint.ts,
// token-resource.ts), answered as oidc-provider answers a refused one, and the form it was read from,
// kept for the token audit (token-audit.ts), which records a refusal of a grant's code or token.
import { parse } from 'node:querystring';
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

/**
 * A form body as oidc-provider reads it, by Node's querystring (selective_body.js): its first 1,000 keys, a `?`
 * before the first key part of that key, malformed escapes as it decodes them. URLSearchParams read some of
 * these otherwise, and the check and the audit saw a request oidc-provider did not (re-reviews helper-202 and
 * helper-203: a `?resource` it ignores refused; a code past its 1,000th key taken for one with a wrong verifier).
 */
export function formOf(text: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, values] of Object.entries(parse(text))) {
    for (const value of [values ?? ''].flat()) form.append(key, value);
  }
  return form;
}

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

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** HTTP Basic's user where it comes with a secret, as oidc-provider reads them; undefined where it refuses them unread. */
function basicUser(authorization: string): string | undefined {
  const encoded = /^basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization)?.[1];
  const credentials = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  if (colon === -1) return undefined;
  const secret = basicPart(credentials.slice(colon + 1));
  return secret ? basicPart(credentials.slice(0, colon)) : undefined;
}

/** A client assertion's `sub`, where its type is the one oidc-provider takes. */
function assertionSubject(assertion: string, type: string | undefined): string | undefined {
  if (type !== ASSERTION_TYPE) return undefined;
  try {
    const sub = decodeJwt(assertion).sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The app a token request names, where oidc-provider's client authentication (client_auth.js) would look
 * it up: `client_id`, HTTP Basic's user or a client assertion's `sub` (the same app where more than one
 * names it); none where it refuses the request before any lookup (two means of authentication, a Basic
 * secret or an assertion type missing, two apps named). Unverified, as the app oidc-provider records a
 * refusal for is: it looks the app up before it checks the secret or signature (re-review helper-201, INFO-4).
 */
export function namedApp(form: URLSearchParams, headers: Record<string, string | string[] | undefined>): string | undefined {
  // oidc-provider reads an empty parameter as none, and refuses one of these sent twice before any lookup (helper-202).
  if (['client_id', 'client_secret', 'client_assertion', 'client_assertion_type'].some((name) => form.getAll(name).length > 1)) return undefined;
  const param = (name: string): string | undefined => form.get(name) || undefined;
  const authorization = typeof headers.authorization === 'string' ? headers.authorization : undefined;
  const assertion = param('client_assertion');
  if ([authorization, assertion, param('client_secret')].filter((given) => given !== undefined).length > 1) return undefined;
  if (headers['oauth-client-attestation'] !== undefined || headers['oauth-client-attestation-pop'] !== undefined) return undefined;
  const id = param('client_id');
  const other = authorization !== undefined && param('client_secret') === undefined ? basicUser(authorization)
    : assertion !== undefined && param('client_secret') === undefined ? assertionSubject(assertion, param('client_assertion_type'))
      : id;
  return other !== undefined && (id === undefined || id === other) ? other : undefined;
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
