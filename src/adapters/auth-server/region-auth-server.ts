// The production authorization server of docs/sign-in.md: the same oidc-provider the demo runs, served by
// the service itself under `{PUBLIC_BASE_URL}/auth`, with the region's login in place of the demo's
// sign-in page and every piece of state in PostgreSQL, so any instance serves any step of a flow.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import pg, { type Pool } from 'pg';
import { outlivingConnections } from '../audit-postgres/bounded-client.js';
import type { GrantHolder } from '../../ports/access-token-verifier.port.js';
import type { HeldGrant } from '../../ports/app-grants.port.js';
import { scopesStillHeld } from './grant-endings.js';
import type { AuthServerMount } from '../../ports/auth-server.port.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { AppsSessions } from './apps-sessions.js';
import { createAuthProvider } from './auth-provider.js';
import { AuthClients, type AuthClient } from './clients.js';
import { CONNECTED_APPS_PATH, connectedAppsFailed, handleConnectedApps, ownTokenVerifier, type ConnectedAppsDeps } from './connected-apps-http.js';
import { refusedPage, sendErrorPage, sendKindPage } from './error-pages.js';
import { FormTokens } from './form-tokens.js';
import { escape, page } from './interaction-pages.js';
import { handleInteraction, INTERACTION_PATH, send, type FormRefusal, type LaunchState } from './interactions.js';
import { cookieScopeOf } from './login-binding.js';
import { languageOf } from './page-language.js';
import { migrateSignIn, PostgresModels, type PostgresModelAdapter } from './postgres-models.js';
import { REFRESH_TOKEN_TTL_SECONDS } from './provider-config.js';
import { AUTH_METHODS } from './region-clients.js';
import { RegionLogin, type InteractionState, type LoginEvents, type RegionLoginSettings } from './region-login.js';
import { LaunchPicks } from './smart-launch.js';
import { IssuerAddress } from './issuer-address.js';
import { holdsEncodedNul } from './request-target.js';
import { sendJson } from './page-headers.js';

const SWEEP_EVERY_MS = 10 * 60_000;

/** The per-source limit's refusal (src/http/auth-server-limit.ts), in words. */
const TOO_MANY = {
  sv: (s: number) => ({ title: 'För många försök', text: `För många förfrågningar från din adress. Försök igen om ${s} sekunder.` }),
  en: (s: number) => ({ title: 'Too many attempts', text: `Too many requests from your address. Try again in ${s} seconds.` }),
};
const CALLBACK_PATH = '/callback';
/** The characters that make Koa's URL reader (parseurl) fall back to the legacy parser, which reads a path otherwise. */
const OTHER_PARSE = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * Whether oidc-provider may resume an interaction at `path` (under the mount): its resume route is GET (and
 * HEAD) `/auth/:uid`, matched with the segment's letter case folded and one trailing slash dropped
 * (oidc-provider's router.js). Taken wider still (the segment percent-decoded), never narrower: the check
 * runs wherever a resume may happen, and nowhere else, so a cookie planted for `/` refuses no other page,
 * nor the token endpoint an app refreshes at (re-review helper-171, F1).
 */
function mayResume(method: string | undefined, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const parts = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (parts.length !== 3) return false;
  try {
    return decodeURIComponent(parts[1] ?? '').toLowerCase() === 'auth';
  } catch {
    return true;
  }
}

/** docs/sign-in.md's short address of the connected-apps page. */
const APPS_PATH = '/apps';

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RegionAuthServerOptions {
  /** `{PUBLIC_BASE_URL}/auth`: the issuer, and where the service serves it. */
  issuer: string;
  audience: string;
  patientClaim: string;
  clients: readonly AuthClient[];
  signingKeys: JWK[];
  cookieKeys: string[];
  pool: Pool;
  schema: string;
  login: Omit<RegionLoginSettings, 'redirectUri'>;
  smart: SmartLaunchContext;
  logger: Logger;
  events: LoginEvents;
  /** A token request refused (its OAuth error), for the counter of refused token requests. */
  onTokenRefused?: (error: string) => void;
  /** A form of the server's pages refused for its token (logged here), for the counter of refused forms. */
  onFormRefused?: (form: FormRefusal['form']) => void;
  /** TRUST_PROXY is set: the scheme a gateway terminated TLS with is taken from X-Forwarded-Proto. */
  behindProxy: boolean;
}

/** The sign-in state's connection pool: small, bounded like the audit store's, its failures never ending the process. */
export function signInPool(connectionString: string): Pool {
  return outlivingConnections(new pg.Pool({
    connectionString, max: 4, connectionTimeoutMillis: 2000, idleTimeoutMillis: 10_000, keepAlive: true,
    application_name: 'patient-data-access-sign-in', statement_timeout: 5000, lock_timeout: 5000, idle_in_transaction_session_timeout: 5000,
  }));
}

/** The salt of pairwise `sub`s, made once and kept in the shared store: every instance and restart gives a person the same `sub`. */
async function pairwiseSalt(models: PostgresModels): Promise<string> {
  const store = models.adapter('ServiceSecret');
  const kept = await store.find('pairwise-salt');
  if (typeof kept?.value === 'string') return kept.value;
  await models.insertOnce('ServiceSecret', 'pairwise-salt', { value: randomBytes(32).toString('base64url') });
  const made = await store.find('pairwise-salt');
  if (typeof made?.value !== 'string') throw new Error('the pairwise salt could not be kept in the sign-in schema');
  return made.value;
}

export class RegionAuthServer implements AuthServerMount {
  readonly mountPath: string;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly handler: ReturnType<Provider['callback']>;
  /** oidc-provider's grants in the shared store, whose liveness the API asks. */
  private readonly grants: PostgresModelAdapter;
  /** What every interaction is handled with; the same for each, so made once. */
  private readonly interactions: LaunchState;
  private readonly address: IssuerAddress;

  private constructor(
    private readonly provider: Provider,
    private readonly login: RegionLogin,
    launch: { smart: SmartLaunchContext; picks: LaunchPicks; formTokens: FormTokens; onFormRefused: (refused: FormRefusal) => void },
    private readonly models: PostgresModels,
    private readonly logger: Logger,
    readonly issuer: string,
    private readonly connected: ConnectedAppsDeps,
  ) {
    this.mountPath = new URL(issuer).pathname.replace(/\/$/, '');
    this.address = new IssuerAddress(issuer, provider.proxy);
    this.grants = models.adapter('Grant');
    this.handler = provider.callback();
    this.interactions = {
      ...launch, signIn: login.step, mountPath: this.mountPath, issuer,
      onAuditFailed: (error) => logger.warn({ err: { name: error.name, message: error.message } }, 'a grant could not be audited: nothing was granted'),
    };
  }

  /** Migrates the schema (only read when up to date), makes the provider, and starts discovering the region's login (retried, never fatal). */
  static async open(options: RegionAuthServerOptions): Promise<RegionAuthServer> {
    const { issuer, pool, schema, logger } = options;
    await migrateSignIn(pool, schema);
    const models = new PostgresModels(pool, schema);
    const mountPath = new URL(issuer).pathname.replace(/\/$/, '');
    const picks = new LaunchPicks(REFRESH_TOKEN_TTL_SECONDS, models.adapter('LaunchPick'));
    const clients = new AuthClients(options.clients);
    const provider = createAuthProvider(issuer, {
      audience: options.audience, patientClaim: options.patientClaim, clients, clientAuthMethods: AUTH_METHODS,
      signingKeys: options.signingKeys, cookieKeys: options.cookieKeys, pairwiseSalt: await pairwiseSalt(models),
      // The region's login vouched for the person; whose record they may open is the picker's and every read's question.
      knowsPerson: () => true,
      smart: options.smart, picks, adapter: models.adapter, mountPath, logger,
      // Each SMART sign-in is a new login at the region: a session left open in a shared browser opens nothing.
      freshLogin: true,
      https: new URL(issuer).protocol === 'https:',
      ...(options.onTokenRefused === undefined ? {} : { onTokenRefused: options.onTokenRefused }),
    });
    provider.proxy = options.behindProxy;
    // The connected-apps page opens only after a login at the region for the page itself, in a short session of its own.
    const appsSessions = new AppsSessions(models.adapter('AppsSession'), cookieScopeOf(`${issuer}${CALLBACK_PATH}`, mountPath));
    const pageHref = `${mountPath}${APPS_PATH}`;
    const login = new RegionLogin({ ...options.login, redirectUri: `${issuer}${CALLBACK_PATH}` }, models.adapter('RegionLogin'), options.events, mountPath,
      { href: pageHref, open: (req, accountId) => appsSessions.open(req, accountId) });
    const grants = models.adapter('Grant');
    // Every instance holds the same cookie keys, so any of them checks a form another rendered.
    const formTokens = new FormTokens(options.cookieKeys);
    const onFormRefused = (refused: FormRefusal): void => {
      logger.warn({ ...refused }, 'a form without its page\'s token was refused: nothing was done');
      options.onFormRefused?.(refused.form);
    };
    const connected: ConnectedAppsDeps = {
      provider, picks, smart: options.smart, clients, banner: '',
      sessions: {
        current: (req) => appsSessions.current(req), end: (req) => appsSessions.end(req),
        signIn: { href: pageHref, begin: (req, res) => login.beginPageLogin(req, res) },
      }, origin: new URL(issuer).origin, mountPath, issuer, formTokens, onFormRefused,
      verifyToken: ownTokenVerifier({
        issuer, audience: options.audience, patientClaim: options.patientClaim, signingKeys: options.signingKeys, grantHolder: (id) => grants.holderOf(id),
      }),
    };
    const server = new RegionAuthServer(provider, login, { smart: options.smart, picks, formTokens, onFormRefused }, models, logger, issuer, connected);
    await login.start();
    server.sweeper = setInterval(() => {
      models.sweep().catch((err: unknown) => logger.warn({ err: { message: (err as Error).message } }, 'sweeping expired sign-in state failed'));
    }, SWEEP_EVERY_MS);
    server.sweeper.unref();
    return server;
  }

  /**
   * Whose a grant is while it is alive, asked of the shared store (no cache: a grant revoked on any instance
   * ends its tokens at the next request on every other): the API's token verifier asks it for this server's tokens.
   */
  grantHolder(grantId: string): Promise<GrantHolder | undefined> {
    return this.grants.holderOf(grantId);
  }

  /** The scopes of the grant that keeps the app signed in for a subscription's (scopesStillHeld), asked of the shared store. */
  scopesHeld(held: HeldGrant): Promise<ReadonlySet<string> | undefined> {
    return scopesStillHeld(this.interactions.picks, (id: string) => this.grants.holderOf(id), (id: string) => this.grants.find(id), held);
  }

  /** Whether the region's login is discovered (until then sign-in pages answer 503; tokens already issued keep working). */
  get loginReady(): boolean {
    return this.login.ready;
  }

  /** The endpoints SMART discovery names. */
  endpoints(): {
    authorizationEndpoint: string; tokenEndpoint: string; revocationEndpoint: string; introspectionEndpoint: string; jwksUri: string; issuer: string;
    offlineAccess: boolean; authMethods: string[]; grantTypes: string[];
  } {
    return {
      issuer: this.issuer, authorizationEndpoint: this.provider.urlFor('authorization'), tokenEndpoint: this.provider.urlFor('token'),
      revocationEndpoint: this.provider.urlFor('revocation'), introspectionEndpoint: this.provider.urlFor('introspection'),
      jwksUri: this.provider.urlFor('jwks'), offlineAccess: true, authMethods: [...AUTH_METHODS],
      // What its apps may be registered for (region-clients.ts): never client credentials.
      grantTypes: ['authorization_code', 'refresh_token'],
    };
  }

  /**
   * What oidc-provider holds of interaction `uid` (region-login-ports.ts `InteractionState`): a login
   * prompt's is the region's login; one after it (the picker's, consent's) oidc-provider keeps to the
   * session it was begun in, and the store hides one its sign-out detour took that session from
   * (postgres-models.ts `carriesLoginElsewhere`).
   */
  private async interactionState(uid: string): Promise<InteractionState> {
    const interaction = await this.provider.Interaction.find(uid);
    if (interaction === undefined) return 'gone';
    return interaction.prompt?.name === 'login' ? 'region-login' : 'other';
  }

  /**
   * The interaction oidc-provider would resume for this request: its resume cookie read by oidc-provider's
   * own reader (the first of the name, unquoted, its signature checked with the cookie keys), or none. A
   * resume cookie of no interaction of this service's is no resume of anything and is never looked up
   * (re-review helper-171, F1 and F4: unsigned values by the dozen had refused a browser, or marked anyone's
   * login over by its uid alone).
   */
  private resumedInteraction(req: IncomingMessage, res: ServerResponse): string | undefined {
    const { cookies } = this.provider.createContext(req, res) as { cookies: { get(name: string, options: { signed: boolean }): string | undefined } };
    return cookies.get(this.provider.cookieName('resume'), { signed: true }) || undefined;
  }

  /** A request under the mount path, as the service's HTTP layer hands it over. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A target no browser sends: oidc-provider's Koa reads one holding these with the legacy URL parser, which ends
    // the path at a `#`, so the path checked here would not be the one it routes (re-review helper-173, F3).
    if (OTHER_PARSE.test(req.url ?? '') || holdsEncodedNul(req.url ?? '')) return sendKindPage(req, res, { status: 400, kind: 'malformed_address' }, { banner: '', selfUrl: this.mountPath });
    if (this.address.sendToOwn(req, res)) return;
    this.address.pin(req);
    const url = req.url ?? '/';
    if (!url.startsWith(this.mountPath)) return sendKindPage(req, res, { status: 404, kind: 'not_found' }, { banner: '', selfUrl: url });
    // Below the mount as oidc-provider reads it, from its own `/`: `/auth?x` is `/?x` (with no slash first, Koa read no
    // path at all, and the method table failed on it: re-review helper-175, F2); `/authx` is no address of the mount.
    const after = url.slice(this.mountPath.length);
    if (after !== '' && !after.startsWith('/') && !after.startsWith('?')) return sendKindPage(req, res, { status: 404, kind: 'not_found' }, { banner: '', selfUrl: url });
    const rest = after.startsWith('/') ? after : `/${after}`;
    const path = rest.split('?')[0] ?? '/';
    if (path === CALLBACK_PATH) return this.login.callback(req, res);
    // oidc-provider's resume of an interaction, where a login at the region takes effect: in its browser only.
    // It resumes by its resume cookie alone, wherever its router matches the resume (any case, a trailing slash),
    // so the interaction that cookie names, read as oidc-provider reads it, is checked at every such address.
    const resumed = mayResume(req.method, path) ? this.resumedInteraction(req, res) : undefined;
    if (resumed !== undefined && !await this.login.resumes(req, res, resumed, async (id) => this.interactionState(id))) return;
    req.url = rest;
    if (under(path, CONNECTED_APPS_PATH) || under(path, APPS_PATH)) {
      if (under(path, APPS_PATH)) req.url = `${CONNECTED_APPS_PATH}${rest.slice(APPS_PATH.length)}`;
      return handleConnectedApps(req, res, this.connected).catch((error: unknown) => {
        this.logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'connected-apps page failed');
        connectedAppsFailed(req, res, this.connected);
      });
    }
    if (path.startsWith(INTERACTION_PATH)) {
      return handleInteraction(this.provider, req, res, this.interactions).catch((error: unknown) => {
        // An expired or unknown interaction (a stale page, a cookie from another browser): start again.
        this.logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'sign-in page failed');
        if (!res.headersSent) sendErrorPage(req, res, error, { banner: '', selfUrl: `${this.mountPath}${rest}` });
        else res.end();
      });
    }
    // oidc-provider names its own URLs from the mount path (express's baseUrl), not from the stripped url.
    (req as IncomingMessage & { baseUrl?: string }).baseUrl = this.mountPath;
    // A resume reads its interaction only where the result's binding is this browser's (result-binding.ts).
    return resumed === undefined ? this.handler(req, res) : this.login.resuming(req, () => this.handler(req, res));
  }

  tooMany(req: IncomingMessage, res: ServerResponse, retryAfterSeconds: number, backChannel: boolean): void {
    if (backChannel) {
      sendJson(res, 429, { error: 'temporarily_unavailable', error_description: `Too many requests from this address: try again in ${retryAfterSeconds} seconds.` },
        { 'retry-after': String(retryAfterSeconds) });
      return;
    }
    const { lang } = languageOf(req);
    const { title, text } = TOO_MANY[lang](retryAfterSeconds);
    send(res, 429, page({ lang, banner: '', selfUrl: req.url ?? this.mountPath }, title, `<h1>${escape(title)}</h1><p>${escape(text)}</p>`),
      { 'content-language': lang, 'retry-after': String(retryAfterSeconds) });
  }

  refusedPage(request: { url: string; headers: IncomingHttpHeaders }, status: 400 | 431): { headers: Record<string, string>; body: string } {
    return refusedPage(request, status, this.mountPath);
  }

  close(): Promise<void> {
    this.login.stop();
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    return Promise.resolve();
  }
}
