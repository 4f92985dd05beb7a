// RFC 8707 at the token endpoint. Every access token is for the one API, whose resource indicator the
// authorization granted; a token request naming another is refused `invalid_target` here, before
// oidc-provider's grant handler, which spends the code or the refresh token first and asks which
// resource is meant after: the app's retry without it was then a replay, which ended the grant and
// its live access token, and recorded a withdrawal nobody asked for (re-review helper-198). Registered
// inside the token audit (auth-provider.ts), which records the refusal as it records any of the grant's.
import { errors, type Provider } from 'oidc-provider';
import { refuseTokenRequest, tokenFormOf, type RefusedContext } from './token-refusal.js';
import { provesChallenge } from './wrong-verifier.js';

/**
 * Whether `form` presents a code or refresh token that oidc-provider would spend: found (so unexpired) and
 * not spent yet, and a code with the verifier that proves its challenge. Any other oidc-provider refuses
 * before spending anything: a spent one as a replay that ends its grant (refused early, a thief's old
 * refresh token escaped that: re-review helper-200), a code with a wrong verifier spent and its grant
 * ended (wrong-verifier.ts; refused early, a stolen code could be tried again and again: helper-201).
 */
async function spendable(provider: Provider, form: URLSearchParams): Promise<boolean> {
  const grantType = form.get('grant_type');
  const code = grantType === 'authorization_code' ? form.get('code') : null;
  const refreshToken = grantType === 'refresh_token' ? form.get('refresh_token') : null;
  if (code) {
    const found = await provider.AuthorizationCode.find(code);
    return found !== undefined && found.consumed === undefined && typeof found.codeChallenge === 'string'
      && provesChallenge(form.get('code_verifier'), found.codeChallenge);
  }
  const found = refreshToken ? await provider.RefreshToken.find(refreshToken) : undefined;
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
