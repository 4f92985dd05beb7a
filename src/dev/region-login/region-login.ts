// `npm run region-login`'s server (docs/sign-in.md#set-it-up-in-an-hour): a development stand-in for a
// region's login, so a region's engineer reaches the first FHIR read through "their" login before it is
// ready. The Swedish OpenID Connect Profile's provider the tests use (region-provider.ts), with a page
// where whoever runs it names who signs in (region-login-page.ts), at LoA 3. It listens on a loopback
// address only, never anywhere another machine could reach: it identifies nobody.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type Provider from 'oidc-provider';
import { sendErrorPage, sendKindPage } from '../../adapters/auth-server/error-pages.js';
import { FormTooLarge, readForm, send } from '../../adapters/auth-server/interactions.js';
import { languageOf } from '../../adapters/auth-server/page-language.js';
import { ownPages, renderError } from '../../adapters/auth-server/provider-pages.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { answeredFavicon } from '../../http/favicon.js';
import { madeQuietly } from '../quiet-library.js';
import { grantAsked, LOA3, regionProvider, type RegionClient } from './region-provider.js';
import { NOT_A_NUMBER, STAND_IN_BANNER, standInLoginPage } from './region-login-page.js';
import { requestTarget } from '../../adapters/auth-server/request-target.js';

/** 127.0.0.0/8 and ::1 as written, and localhost: nothing another machine reaches. */
export function isLoopbackAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Where `npm run region-login` listens, and the client id it registers the service under, unless told otherwise. */
export const STAND_IN_DEFAULTS = { host: '127.0.0.1', port: 8085, clientId: 'pdas' } as const;

export class NotLoopback extends Error {
  override name = 'NotLoopback';
}

export interface RegionLogin {
  issuer: string;
  close(): Promise<void>;
}

const PAGES = { banner: STAND_IN_BANNER, mountPath: '' };

/**
 * A form another site's page posted (its interaction cookie, SameSite=Lax, stays home too): the browser
 * says so in Sec-Fetch-Site, or in Origin. This page's own posts say `null` there, as its
 * Referrer-Policy is no-referrer.
 */
function fromAnotherSite(req: IncomingMessage, issuer: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return true;
  const origin = req.headers.origin;
  return origin !== undefined && origin !== 'null' && origin !== new URL(issuer).origin;
}

/** The login prompt's page (GET), and what it posts: a number that signs in, or a cancel. */
async function interact(provider: Provider, issuer: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const path = requestTarget(req.url).pathname;
  if (details.prompt.name !== 'login') {
    return provider.interactionFinished(req, res, { consent: { grantId: await grantAsked(provider, details) } }, { mergeWithLastSubmission: true });
  }
  if (path.endsWith('/cancel')) {
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the person cancelled the login' }, { mergeWithLastSubmission: false });
  }
  // As a region's login would: in the language the service asked for (ui_locales), else the browser's.
  const { lang } = languageOf(req, details.params.ui_locales);
  const submitUrl = `/interaction/${details.uid}`;
  const frame = { lang, banner: STAND_IN_BANNER, selfUrl: req.method === 'GET' ? req.url ?? submitUrl : submitUrl };
  const input = { submitUrl, cancelUrl: `${submitUrl}/cancel` };
  if (req.method !== 'POST') return send(res, 200, standInLoginPage(frame, input), { 'content-language': lang });
  if (fromAnotherSite(req, issuer)) return send(res, 403, standInLoginPage(frame, input));
  const typed = (await readForm(req)).get('login')?.replace(/\s/g, '') ?? '';
  const number = parsePersonalIdentityNumber(typed);
  if (number === undefined) return send(res, 400, standInLoginPage(frame, { ...input, error: NOT_A_NUMBER[lang] }), { 'content-language': lang });
  return provider.interactionFinished(req, res, { login: { accountId: number, acr: LOA3 } }, { mergeWithLastSubmission: false });
}

/** Starts it on `host`:`port` (a loopback address only) for the one client `client`, keys of its own made now. */
export async function startRegionLogin(options: { host: string; port: number; client: RegionClient }): Promise<RegionLogin> {
  if (!isLoopbackAddress(options.host)) {
    throw new NotLoopback(`the stand-in login listens on a loopback address only (127.0.0.1, ::1, localhost), not ${options.host}: it signs in whoever is named`);
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  // Whatever the name resolved to, it must be loopback too.
  if (!isLoopbackAddress(address)) {
    server.close();
    throw new NotLoopback(`${options.host} is ${address}, which is not a loopback address`);
  }
  const issuer = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...await exportJWK(privateKey), kid: `stand-in-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' };
  const provider = madeQuietly(() => regionProvider(issuer, { clients: [options.client], signingKey, cookieKeys: [randomBytes(32).toString('base64url')], renderError: renderError(PAGES) }));
  ownPages(provider, PAGES);
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (answeredFavicon(req, res)) return;
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    interact(provider, issuer, req, res).catch((error: unknown) => {
      if (res.headersSent) return res.end();
      const selfUrl = req.url ?? '/';
      if (error instanceof FormTooLarge) return sendKindPage(req, res, { status: 413, kind: 'too_large', headers: { connection: 'close' } }, { banner: STAND_IN_BANNER, selfUrl });
      sendErrorPage(req, res, error, { banner: STAND_IN_BANNER, selfUrl });
    });
  });
  return {
    issuer,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
