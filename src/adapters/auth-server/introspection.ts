// RFC 7662 introspection (docs/sign-in.md#for-app-developers), for confidential clients about their own
// tokens. oidc-provider introspects the tokens it stores (refresh tokens) under `allowedPolicy`
// (provider-config.ts), and refuses structured ones with `unsupported_token_type`; the access tokens
// are JWTs, so those are answered here from the token itself, verified with the server's own keys,
// and from its grant: a token whose grant has ended (revoked, replaced, signed out) is inactive.
import { createLocalJWKSet, jwtVerify, type JWK, type JWTPayload } from 'jose';
import type Provider from 'oidc-provider';
import { GRANT_ID_CLAIM } from '../../ports/access-token-verifier.port.js';
import { grantAlive } from './grant-endings.js';
import { publicKeys } from './key-files.js';

const INTROSPECTION_PATH = '/token/introspection';

interface KoaContext {
  path: string;
  status: number;
  body?: unknown;
  oidc?: { client?: { clientId: string; clientAuthMethod?: string }; params?: { token?: unknown } };
}

/** The claims of an access token this server issued (its own keys, issuer and the API's audience), else undefined. */
export function ownAccessTokens(input: { issuer: string; audience: string; signingKeys: readonly JWK[] }): (token: string) => Promise<JWTPayload | undefined> {
  const jwks = createLocalJWKSet(publicKeys(input.signingKeys));
  return async (token) => {
    try {
      return (await jwtVerify(token, jwks, { issuer: input.issuer, audience: input.audience, typ: 'at+jwt' })).payload;
    } catch {
      return undefined;
    }
  };
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

export function introspection(provider: Provider, verify: (token: string) => Promise<JWTPayload | undefined>): void {
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
    const claims = await verify(token);
    // A person's token is active only while its grant is, as the API takes it (a store that cannot say: an error, never `active`).
    const grantId = claims?.[GRANT_ID_CLAIM];
    const live = claims !== undefined && (grantId === undefined || (typeof grantId === 'string' && await grantAlive(provider, grantId)));
    ctx.status = 200;
    // RFC 7662 §2.2: a token the caller may not introspect is answered as an inactive one.
    ctx.body = live && claims.client_id === client.clientId ? described(claims) : { active: false };
  });
}
