// RFC 8707 at the token endpoint. Every access token is for the one API, whose resource indicator the
// authorization granted; a token request naming another is refused `invalid_target` here, before
// oidc-provider's grant handler, which spends the code or the refresh token first and asks which
// resource is meant after: the app's retry without it was then a replay, which ended the grant and
// its live access token, and recorded a withdrawal nobody asked for (re-review helper-198). Registered
// inside the token audit (auth-provider.ts), which records the refusal as it records any of the grant's.
import { errors, type Provider } from 'oidc-provider';
import { refuseTokenRequest, tokenFormOf, type RefusedContext } from './token-refusal.js';

/**
 * Whether `form` presents a code or refresh token that oidc-provider would spend: found (so unexpired) and
 * not spent yet. Any other, unknown, expired or spent, oidc-provider refuses before spending anything, a
 * spent one as a replay that ends its grant: refused early, a thief's old refresh token escaped that
 * (re-review helper-200).
 */
async function spendable(provider: Provider, form: URLSearchParams): Promise<boolean> {
  const grantType = form.get('grant_type');
  const value = form.get(grantType === 'authorization_code' ? 'code' : 'refresh_token');
  if (value === null || value === '' || (grantType !== 'authorization_code' && grantType !== 'refresh_token')) return false;
  const found = grantType === 'authorization_code' ? await provider.AuthorizationCode.find(value) : await provider.RefreshToken.find(value);
  return found !== undefined && found.consumed === undefined;
}

/** Refuses a token request naming a `resource` other than `resource` (an empty one is none, as oidc-provider reads it) whose code or token it would spend. */
export function refuseForeignResource(provider: Provider, resource: string): void {
  provider.use(async (ctx: RefusedContext, next: () => Promise<void>) => {
    const form = tokenFormOf(ctx);
    if (form !== undefined && form.getAll('resource').some((r) => r !== '' && r !== resource) && await spendable(provider, form)) {
      const refusal = new errors.InvalidTarget('a resource indicator of another resource');
      return refuseTokenRequest(provider, ctx, refusal, `resource must be ${resource}, the only resource this server issues tokens for, or be left out; nothing was spent, so send the request again without it`);
    }
    return next();
  });
}
