// A real OpenID Provider standing in for a region's login (docs/sign-in.md): oidc-provider with the Swedish
// OpenID Connect Profile's claims and acr values and keys of its own (src/dev/region-login/region-provider.ts,
// which `npm run region-login` runs with a page). It signs in whoever the test names, and misbehaves on
// demand: an ID token for another audience, with another nonce, a lower acr, another issuer or another
// key, an older login than asked for; or the person cancels.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type Provider from 'oidc-provider';
import { grantAsked, LOA2, LOA3, PERSONAL_IDENTITY_NUMBER_CLAIM as PNR_CLAIM, regionProvider } from '../../src/dev/region-login/region-provider.js';

export { LOA2, LOA3, PNR_CLAIM };

export interface Misbehaviour {
  aud?: string;
  nonce?: string;
  iss?: string;
  acr?: string;
  /** An `auth_time` of an older login than the one asked for (prompt=login not honoured). */
  auth_time?: number;
  /** Sign the ID token with a key the provider does not publish. */
  foreignKey?: boolean;
}

async function rsaKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...await exportJWK(privateKey), kid: `region-${Math.random().toString(36).slice(2, 10)}`, alg: 'RS256', use: 'sig' };
}

interface KoaLike { path: string; body?: unknown }

export class RegionProvider {
  /** Who signs in next, at which acr; a person with no identity number claim when `pnr` is empty. */
  person: { pnr: string; acr: string } = { pnr: '198112189876', acr: LOA3 };
  misbehave: Misbehaviour | undefined;
  /** The person cancels at the region's login. */
  cancel = false;
  /** ID tokens the provider handed out, for a test to replay. */
  readonly idTokens: string[] = [];

  private constructor(readonly issuer: string, private readonly server: Server) {}

  static async start(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<RegionProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = await rsaKey();
    const foreign = await rsaKey();
    const provider = regionProvider(issuer, {
      clients: [client], signingKey: key, cookieKeys: ['region-test-cookie-key-0123456789abcdef'],
      // Every login names its number as a personal identity number; one named `none…` names none.
      claimsOf: (id) => ({ sub: `sub-${id}`, ...(id.startsWith('none') ? {} : { [PNR_CLAIM]: id }) }),
    });
    const region = new RegionProvider(issuer, server);
    provider.use(async (ctx: KoaLike, next: () => Promise<void>) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path !== '/token' || typeof body?.id_token !== 'string') return;
      if (region.misbehave !== undefined) body.id_token = await region.tampered(body.id_token, region.misbehave.foreignKey === true ? foreign : key);
      region.idTokens.push(body.id_token);
    });
    const handle = provider.callback();
    server.on('request', (req, res) => {
      if (!req.url?.startsWith('/interaction/')) return handle(req, res);
      region.interact(provider, req, res).catch(() => {
        res.statusCode = 400;
        res.end('region interaction failed');
      });
    });
    return region;
  }

  private async interact(provider: Provider, req: Parameters<Provider['interactionDetails']>[0], res: Parameters<Provider['interactionDetails']>[1]): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (this.cancel) return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the person cancelled' }, { mergeWithLastSubmission: false });
    if (details.prompt.name === 'login') {
      return provider.interactionFinished(req, res, { login: { accountId: this.person.pnr, acr: this.person.acr } }, { mergeWithLastSubmission: false });
    }
    return provider.interactionFinished(req, res, { consent: { grantId: await grantAsked(provider, details) } }, { mergeWithLastSubmission: true });
  }

  private async tampered(idToken: string, signWith: JWK): Promise<string> {
    const claims = { ...decodeJwt(idToken), ...this.misbehave };
    delete (claims as Record<string, unknown>).foreignKey;
    const header = decodeProtectedHeader(idToken);
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? '' }).sign(await importJWK(signWith, 'RS256'));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
