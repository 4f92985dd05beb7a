// RFC 7662 introspection (docs/sign-in.md#for-app-developers), for confidential clients about their own
// tokens. oidc-provider introspects the tokens it stores (refresh tokens) under `allowedPolicy`
// (provider-config.ts), and refuses structured ones with `unsupported_token_type`; the access tokens
// are JWTs, so those are answered here from the token itself, verified with the server's own keys,
// and from its grant: a token whose grant has ended (revoked, replaced, signed out) is inactive.
import type { JWTPayload } from 'jose';
import type Provider from 'oidc-provider';
import { grantHolder } from './grant-endings.js';
import { ofLiveGrant, type OwnToken } from './own-access-tokens.js';

const INTROSPECTION_PATH = '/token/introspection';

interface KoaContext {
  path: string;
  status: number;
  body?: unknown;
  oidc?: { client?: { clientId: string; clientAuthMethod?: string }; params?: { token?: unknown } };
}

/**
 * What introspection tells the token's own client of an access token: what the token itself says of
 * its lifetime, client, audience and scope, and its launch patient by Patient id; never the person's
 * identity number (the patient claim), which the pairwise `sub` keeps from the app.
 */
function described(claims: JWTPayload): Record<string, unknown> {
  const { sub, client_id: clientId, scope, exp, iat, iss, aud, jti, smart_patient: patient } = claims as JWTPayload & Record<string, unknown>;
  return { active: true, sub, client_id: clientId, scope, exp, iat, iss, aud, jti, token_type: 'Bearer', ...(patient === undefined ? {} : { smart_patient: patient }) };
}

export function introspection(provider: Provider, verify: (token: string) => Promise<OwnToken | undefined>): void {
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    await next();
    const client = ctx.oidc?.client;
    // A request whose client did not authenticate keeps oidc-provider's own answer (invalid_client).
    if (ctx.path !== INTROSPECTION_PATH || client === undefined) return;
    if (client.clientAuthMethod === 'none') {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: 'introspection is for confidential clients (private_key_jwt); a public app reads its token response instead' };
      return;
    }
    const body = ctx.body as { error?: string } | undefined;
    const token = ctx.oidc?.params?.token;
    if (body?.error !== 'unsupported_token_type' || typeof token !== 'string') return;
    const own = await verify(token);
    // A person's token is active only while its grant is, and is its person's for its app, as the API takes it
    // (a store that cannot say: an error, never `active`).
    const live = own !== undefined && own.claims.client_id === client.clientId && await ofLiveGrant(own, (id) => grantHolder(provider, id));
    ctx.status = 200;
    // RFC 7662 §2.2: a token the caller may not introspect is answered as an inactive one.
    ctx.body = live ? described(own.claims) : { active: false };
  });
}
