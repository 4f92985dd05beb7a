// The connected-apps page and API of the authorization server (docs/smart-launch.md#connected-apps):
// - GET  {issuer}/connected-apps            the page, for the person of the page's session (PageSessions:
//   in production a login at the region for the page itself, apps-sessions.ts), else off to that login;
// - POST {issuer}/connected-apps            grant=<id>: revoke it, back to the page (a form, no JavaScript);
//   signout=1: end the page's session;
// - GET  {issuer}/connected-apps            with `Authorization: Bearer`: the same list as JSON, for the
//   region's own app (its client `managesGrants`), the person being the token's;
// - DELETE {issuer}/connected-apps/<grant>  with the same token: revoke it (204), 404 when it is not theirs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import { holdsGrant, type GrantHolder } from '../../ports/access-token-verifier.port.js';
import type { AuthClients } from './clients.js';
import { connectedApps, revokeConnectedApp, type ConnectedApp, type ConnectedAppsContext } from './connected-apps.js';
import { connectedAppsPage, type Notice } from './connected-apps-page.js';
import { errorPage, sendKindPage } from './error-pages.js';
import { CSRF_FIELD, type FormTokens, type SessionBinding } from './form-tokens.js';
import { FormTooLarge, pageView, readForm, type FormRefusal } from './interactions.js';
import { claimedGrant, ownTokens } from './own-access-tokens.js';
import { sendJson as json } from './page-headers.js';
import type { Localized } from './page-language.js';
import { appRedirectUri } from './smart-launch.js';
import { requestTarget } from './request-target.js';

export const CONNECTED_APPS_PATH = '/connected-apps';

/** Who a bearer token speaks for: the person (the patient claim) and the app it was issued to. */
export interface TokenHolder { accountId: string; clientId: string }
export type VerifyToken = (token: string) => Promise<TokenHolder | undefined>;

/** Checks an access token this server issued (its own signing keys, issuer and the API's audience), its patient claim opened and its grant alive and theirs. */
export function ownTokenVerifier(input: {
  issuer: string; audience: string; patientClaim: string; signingKeys: readonly JWK[]; grantHolder: (grantId: string) => Promise<GrantHolder | undefined>;
}): VerifyToken {
  const verify = ownTokens(input);
  return async (token) => {
    const own = await verify(token);
    const claimed = own === undefined ? 'invalid' : claimedGrant(own);
    if (typeof claimed === 'string') return undefined;
    // A revoked grant's token, or one naming another's grant, lists and revokes nothing (a store that cannot say rejects: the page's 500).
    return holdsGrant(await input.grantHolder(claimed.grantId), claimed.holder) ? claimed.holder : undefined;
  };
}

/** The person the page is for, and the id of their page session (what the page's forms are bound to). */
export interface PageSession { id: string; accountId: string }

/** Whose page it is, and how a browser without a page session signs in and one with it signs out. */
export interface PageSessions {
  current(req: IncomingMessage, res: ServerResponse): Promise<PageSession | undefined>;
  /** Where the page's own login begins (`href`, the page's address) and how; without it the page says to sign in through an app. */
  signIn?: { href: string; begin(req: IncomingMessage, res: ServerResponse): Promise<void> };
  /** Ends the browser's page session: the Set-Cookie header that clears it. Without it the page has no "Sign out". */
  end?(req: IncomingMessage): Promise<string>;
}

/**
 * The demo's page sessions: the demo server's own oidc-provider session (docs/smart-launch.md#connected-apps
 * says why a login of its own would add nothing there), its forms bound to that session's uid.
 */
export function providerSessions(provider: Provider): PageSessions {
  return {
    current: async (req, res) => {
      const session = await provider.Session.get(provider.createContext(req, res));
      return session.accountId === undefined ? undefined : { id: session.uid, accountId: session.accountId };
    },
  };
}

export interface ConnectedAppsDeps extends ConnectedAppsContext {
  /** Whose page it is (the region's page sessions, or the demo's oidc-provider session). */
  sessions: PageSessions;
  clients: AuthClients;
  banner: Localized | string;
  verifyToken: VerifyToken;
  /** This server's origin: a revoking form must come from it. */
  origin: string;
  /** Where the server is mounted (`/auth` under the service), '' on a server of its own (the demo's). */
  mountPath?: string;
  /** The page's forms carry a token bound to the person's session (form-tokens.ts). */
  formTokens: FormTokens;
  onFormRefused?: (refused: FormRefusal) => void;
}

/** What the app is shown of a grant: no scope it could not read anyway, no secrets; the grant id to revoke it by. */
const forApp = (app: ConnectedApp) => ({
  id: app.grantId, clientId: app.clientId, appName: app.appName, appNames: app.appNames, patient: { id: app.patientId, name: app.patientName, basis: app.basis },
  reach: app.reach, allowedBy: app.allowedBy, scopes: app.scopes, ...(app.since === undefined ? {} : { since: new Date(app.since * 1000).toISOString() }),
});

/** CORS for the managing app's own origin alone. */
function corsOf(req: IncomingMessage, deps: Pick<ConnectedAppsDeps, 'clients'>): Record<string, string> {
  const origin = req.headers.origin;
  return origin !== undefined && deps.clients.managesGrantsFrom(origin)
    ? { 'access-control-allow-origin': origin, 'access-control-allow-headers': 'authorization', 'access-control-allow-methods': 'GET, DELETE', vary: 'Origin' }
    : { vary: 'Origin' };
}

/** A request of the API rather than of the page: a bearer token, a preflight, a DELETE or a grant's own address. */
function forApi(req: IncomingMessage, grantId: string | undefined): boolean {
  return req.headers.authorization !== undefined || req.method === 'OPTIONS' || req.method === 'DELETE' || grantId !== undefined;
}

/** The API: a bearer token of a client that manages grants, from its own origin when a browser sends it. */
async function api(req: IncomingMessage, res: ServerResponse, deps: ConnectedAppsDeps, grantId: string | undefined): Promise<void> {
  const allowed = (clientId: string) => deps.clients.get(clientId)?.managesGrants === true;
  const cors = corsOf(req, deps);
  if (req.method === 'OPTIONS') return json(res, 204, undefined, cors);
  const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  const holder = token === undefined ? undefined : await deps.verifyToken(token);
  if (holder === undefined) return json(res, 401, { error: 'invalid_token', error_description: 'send an access token of this server: Authorization: Bearer <token>' }, { ...cors, 'www-authenticate': 'Bearer error="invalid_token"' });
  if (!allowed(holder.clientId)) return json(res, 403, { error: 'insufficient_scope', error_description: `${holder.clientId} may not see or revoke a person's connected apps` }, cors);
  if (req.method === 'GET' && grantId === undefined) return json(res, 200, { apps: (await connectedApps(deps, holder.accountId)).map(forApp) }, cors);
  if (req.method === 'DELETE' && grantId !== undefined) {
    const revoked = await revokeConnectedApp(deps, holder.accountId, grantId, req.socket.remoteAddress ?? '');
    return revoked === undefined ? json(res, 404, { error: 'not_found', error_description: 'no such connected app of this person' }, cors) : json(res, 204, undefined, cors);
  }
  return json(res, 405, { error: 'method_not_allowed', error_description: 'GET the list, or DELETE one by its id' }, { ...cors, allow: grantId === undefined ? 'GET' : 'DELETE' });
}

/**
 * The grant id the path names, decoded. A segment that is no percent-encoding of text (`%E0%A4%A`) is
 * kept as sent: it names no grant, and is answered as an unknown one. decodeURIComponent threw there,
 * and again in connectedAppsFailed's catch, which ended the demo issuer's process with the API in it.
 */
const grantIdOf = (url: URL): string | undefined => {
  const rest = url.pathname.slice(CONNECTED_APPS_PATH.length);
  if (!rest.startsWith('/') || rest.length <= 1) return undefined;
  try {
    return decodeURIComponent(rest.slice(1));
  } catch {
    return rest.slice(1);
  }
};

/**
 * The answer when serving CONNECTED_APPS_PATH failed (the store could not answer): 503, the API's in
 * JSON, the page's as the service's own page, in the person's language, naming nothing internal.
 */
export function connectedAppsFailed(req: IncomingMessage, res: ServerResponse, deps: Pick<ConnectedAppsDeps, 'clients' | 'banner' | 'origin' | 'mountPath'>): void {
  if (res.headersSent) return void res.end();
  if (forApi(req, grantIdOf(requestTarget(req.url)))) {
    return json(res, 503, { error: 'temporarily_unavailable', error_description: 'The connected apps cannot be read or changed now: try again later' }, corsOf(req, deps));
  }
  sendKindPage(req, res, { status: 503, kind: 'apps_unavailable' }, { banner: deps.banner, selfUrl: `${deps.mountPath ?? ''}${CONNECTED_APPS_PATH}` });
}

/** Serves CONNECTED_APPS_PATH (the page, its form, the API) on the authorization server. */
export async function handleConnectedApps(req: IncomingMessage, res: ServerResponse, deps: ConnectedAppsDeps): Promise<void> {
  const url = requestTarget(req.url);
  const grantId = grantIdOf(url);
  // The page's own address as the browser sees it (the request's path is the server's, mount removed).
  const pagePath = `${deps.mountPath ?? ''}${CONNECTED_APPS_PATH}`;
  if (forApi(req, grantId)) return api(req, res, deps, grantId);
  const { sessions } = deps;
  const session = await sessions.current(req, res);
  const accountId = session?.accountId;
  const done = url.searchParams.get('done');
  // No page session: off to the page's own login, unless the person has just signed out of it.
  if (session === undefined && sessions.signIn !== undefined && (req.method === 'GET' || req.method === 'HEAD') && done !== 'signedOut') {
    return sessions.signIn.begin(req, res);
  }
  // Its forms are the page session's: a token of another session, even the same person's, is refused.
  const binding: SessionBinding | undefined = session === undefined ? undefined : { session: session.id, accountId: session.accountId };
  const view = await pageView(deps.provider, req, undefined, { banner: deps.banner, selfUrl: pagePath, formToken: binding === undefined ? '' : deps.formTokens.issue(binding) });
  // A browser sends `Origin: null` with a form posted under no-referrer; same-origin lets it name this page's origin.
  const sendPage = (status: number, html: string, headers: Record<string, string> = {}) => view.send(res, status, html, { 'referrer-policy': 'same-origin', ...headers });
  const people = accountId === undefined ? [] : await deps.smart.peopleFor(accountId);
  const person = people.find((p) => p.basis === 'self')?.name ?? (accountId === undefined ? undefined : '');
  const appUrl = appRedirectUri(deps.smart.publicBaseUrl());
  const links = { submitUrl: pagePath, appUrl, ...(sessions.signIn === undefined ? {} : { signInUrl: sessions.signIn.href }), signOut: sessions.end !== undefined };
  const appsNow = async () => (accountId === undefined ? [] : connectedApps(deps, accountId));
  /** The page with `apps` (as it stands now), `notice` above them. */
  const current = async (notice?: Notice, apps?: readonly ConnectedApp[] | 'unavailable') => connectedAppsPage(view.frame, {
    ...links, csrf: view.formToken, apps: apps ?? await appsNow(),
    ...(person === undefined ? {} : { person }), ...(notice === undefined ? {} : { notice }),
  });
  if (req.method === 'POST') {
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (error) {
      if (!(error instanceof FormTooLarge)) throw error;
      // The rest of the form is never read: the connection cannot carry another request.
      return sendPage(413, await current('tooLarge'), { connection: 'close' });
    }
    // The session cookie is SameSite=Lax, so another site's form carries none; an Origin, when sent, must be ours.
    // Either way the page says nothing was revoked, never what a revoke's result would (hostile review helper-147, F1).
    if (accountId === undefined) return sendPage(403, connectedAppsPage(view.frame, { ...links, csrf: '', apps: [], notice: 'nothingRevoked' }));
    if (fromAnotherSite(req, deps.origin)) return sendPage(403, await current('refused'));
    // A script of this site (the patient app's origin is the same) that never read this page holds no token.
    if (binding === undefined || !deps.formTokens.valid(form.get(CSRF_FIELD), binding)) {
      deps.onFormRefused?.({ form: 'connected-apps' });
      return sendPage(403, await current('refused'));
    }
    if (form.has('signout') && sessions.end !== undefined) {
      const cleared = await sessions.end(req);
      res.writeHead(303, { location: `${pagePath}?done=signedOut`, 'cache-control': 'no-store', 'set-cookie': cleared });
      return void res.end();
    }
    const revoked = await revokeConnectedApp(deps, accountId, form.get('grant') ?? '', req.socket.remoteAddress ?? '');
    const notice: PostedNotice = revoked === undefined ? 'gone' : 'revoked';
    // The revoke is done: a list that cannot be read now is said so under its notice, never as a 503 saying
    // nothing could be changed, nor by sending the browser to a page whose list fails the same way (helper-149 LOW-3, helper-150 LOW-C).
    const after = await appsNow().catch(() => undefined);
    if (after === undefined) return sendPage(200, await current(notice, 'unavailable'), { 'cache-control': 'no-store' });
    const at = String(nowSeconds());
    const proof = deps.formTokens.issue({ notice, ...binding, state: pageState(after), at });
    res.writeHead(303, { location: `${pagePath}?done=${notice}&${NOTICE_AT}=${at}&${NOTICE_PROOF}=${proof}`, 'cache-control': 'no-store' });
    return void res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return view.send(res, 405, errorPage(view.frame, 'apps_wrong_method'), { allow: 'GET, POST' });
  const apps = await appsNow();
  return sendPage(200, await current(noticeShown(deps.formTokens, url, binding, apps), apps));
}

/**
 * Whether the browser says the post came from elsewhere: an Origin not this server's, or Fetch Metadata
 * naming any site but this origin (sent by the browser itself, even where it sends no Origin).
 */
function fromAnotherSite(req: IncomingMessage, origin: string): boolean {
  const site = req.headers['sec-fetch-site'];
  return (req.headers.origin !== undefined && req.headers.origin !== origin) || (site !== undefined && site !== 'same-origin');
}

/** The page as a post left it: the grants it lists (a revoke, or an app allowed again, changes it). */
const pageState = (apps: readonly ConnectedApp[]): string => apps.map((app) => app.grantId).sort().join(' ');

/** What a post of the page reports, on the address it sends the browser to. */
type PostedNotice = Extract<Notice, 'revoked' | 'gone'>;
const isPostedNotice = (done: string | null): done is PostedNotice => done === 'revoked' || done === 'gone';
const NOTICE_PROOF = 'proof';
/** When the post was, in seconds since the epoch: its notice is shown for NOTICE_SHOWN_S after, a reload's worth. */
const NOTICE_AT = 'at';
const NOTICE_SHOWN_S = 600;
/** Instances behind one address may disagree on the time by this much. */
const CLOCK_SKEW_S = 60;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * The notice the page's address asks for, where it is true for this browser: a post's result only
 * with the proof that this page session's post sent it there, a few minutes ago at most, and that the
 * page lists the grants it left (a link of anyone else's, one's own address edited, kept past a change
 * or kept for later, shows none), that
 * the person signed out only where no one is signed in.
 */
function noticeShown(tokens: FormTokens, url: URL, binding: SessionBinding | undefined, apps: readonly ConnectedApp[]): Notice | undefined {
  const done = url.searchParams.get('done');
  if (done === 'signedOut') return binding === undefined ? done : undefined;
  if (binding === undefined || !isPostedNotice(done)) return undefined;
  const at = url.searchParams.get(NOTICE_AT) ?? '';
  const age = nowSeconds() - Number(at);
  if (!/^\d{1,12}$/.test(at) || age > NOTICE_SHOWN_S || age < -CLOCK_SKEW_S) return undefined;
  return tokens.valid(url.searchParams.get(NOTICE_PROOF), { notice: done, ...binding, state: pageState(apps), at }) ? done : undefined;
}
