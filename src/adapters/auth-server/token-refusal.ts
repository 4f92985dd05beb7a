// A token request refused before oidc-provider's token endpoint reads it (smart-token-endpoint.ts,
// token-resource.ts), answered as oidc-provider answers a refused one, and the form it was read from,
// kept for the token audit (token-audit.ts), which records a refusal of a grant's code or token.
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
