// DEV-ONLY: the demo OAuth 2.0 / OpenID Connect authorization server that `npm start` runs when
// AUTH_ISSUER is unset. It is oidc-provider (a certified implementation) with fixed demo clients,
// synthetic people and an in-memory session store; the API trusts it exactly as it would a
// production issuer (discovery -> jwks_uri), which is why it must never be exposed beyond loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import { createAuthProvider } from '../../adapters/auth-server/auth-provider.js';
import { answeredFavicon } from '../../http/favicon.js';
import { repeatedHeader, repeatedHeaderMessage } from '../../http/repeated-headers.js';
import { sendJson } from '../../adapters/auth-server/page-headers.js';
import { madeQuietly } from '../quiet-library.js';
import {
  CONNECTED_APPS_PATH, connectedAppsFailed, handleConnectedApps, ownTokenVerifier, providerSessions, type ConnectedAppsDeps,
} from '../../adapters/auth-server/connected-apps-http.js';
import { AuthClients, type AuthClient } from '../../adapters/auth-server/clients.js';
import { sendErrorPage } from '../../adapters/auth-server/error-pages.js';
import { grantHolder, scopesStillHeld } from '../../adapters/auth-server/grant-endings.js';
import { FormTokens } from '../../adapters/auth-server/form-tokens.js';
import { handleInteraction, INTERACTION_PATH, type FormRefusal } from '../../adapters/auth-server/interactions.js';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../adapters/auth-server/provider-config.js';
import { patientClaimSeal, type OpenPatientClaim } from '../../adapters/auth-server/patient-claim-seal.js';
import { LaunchPicks } from '../../adapters/auth-server/smart-launch.js';
import type { GrantHolder } from '../../ports/access-token-verifier.port.js';
import type { HeldGrant } from '../../ports/app-grants.port.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { loadOrCreateCredentials } from './credentials-store.js';
import { CLIENT_CREDENTIALS_CLIENT_IDS, DEMO_CLIENTS, demoAuthClients, type DemoGrant } from './demo-clients.js';
import { findDemoPerson } from './demo-persons.js';
import { IssuerAddress } from '../../adapters/auth-server/issuer-address.js';
import { answerRefusedRequest } from './demo-refused-requests.js';
import { demoSignIn } from './demo-sign-in.js';

export { DEMO_PERSONS, type DemoPerson } from './demo-persons.js';
export type { LaunchPerson, SmartLaunchContext } from '../../ports/smart-launch.port.js';

export interface DemoCredentials {
  clients: Record<
    string,
    { clientId: string; clientSecret?: string; scopes: string[]; grant: DemoGrant }
  >;
}

export interface DemoAuthServer {
  issuer: string;
  close(): Promise<void>;
  credentials: DemoCredentials;
  /** Its client-credentials clients, whose tokens are client tokens while it runs. */
  clientIds: readonly string[];
  /** Its clients as the service reads them (the patient app's notification endpoints, docs/notifications.md). */
  registered: readonly AuthClient[];
  /** Whose a grant is while it is alive: the API takes a person token of this server only while its grant is, and is theirs. */
  grantHolder(grantId: string): Promise<GrantHolder | undefined>;
  /** The scopes of the grant that keeps the app signed in for a subscription's (grant-endings.ts scopesStillHeld). */
  scopesHeld(held: HeldGrant): Promise<ReadonlySet<string> | undefined>;
  /** Opens the sealed patient claim of its tokens (patient-claim-seal.ts), for the service in the same process. */
  openPatientClaim: OpenPatientClaim;
}

interface DemoLogger {
  warn(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  debug?(obj: object | string, msg?: string): void;
}


const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

const isConnectedAppsPath = (url: string | undefined): boolean => {
  const path = (url ?? '').split('?')[0] ?? '';
  return path === CONNECTED_APPS_PATH || path.startsWith(`${CONNECTED_APPS_PATH}/`);
};

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function issuerUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export async function startDemoAuthServer(options: {
  host: string;
  port: number;
  audience: string;
  patientClaim: string;
  dataDir: string;
  logger: DemoLogger;
  /** The API's /docs OAuth redirect page, so "Authorize" there signs a demo person in. */
  docsRedirectUri?: string;
  /** The service's side of a SMART launch (its FHIR API, whom a person may pick) and the audit of every grant. */
  smart: SmartLaunchContext;
}): Promise<DemoAuthServer> {
  const { host, port, audience, patientClaim, dataDir, logger, docsRedirectUri, smart } = options;
  const picks = new LaunchPicks(REFRESH_TOKEN_TTL_SECONDS);
  // Plain HTTP and dev-only interactions are tolerable only while nobody else can reach the port.
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`demo authorization server listens on loopback only, not on ${host}`);
  }

  const confidential = DEMO_CLIENTS.filter((client) => client.confidential);
  const { credentials: stored } = await loadOrCreateCredentials(
    dataDir,
    confidential.map((client) => client.clientId),
  );

  const registered = demoAuthClients({ clientSecrets: stored.clientSecrets, smart, ...(docsRedirectUri ? { docsRedirectUri } : {}) });

  // The issuer must name the port actually bound (port 0 in tests), so the provider is created
  // after listen and requests are handed to it from then on.
  let handle: ReturnType<Provider['callback']> | undefined;
  let provider: Provider | undefined;
  let connected: ConnectedAppsDeps | undefined;
  let issuer = '';
  /** The issuer's own address, known once it listens (port 0 in tests). */
  let address: IssuerAddress | undefined = undefined;
  const onAuditFailed = (error: Error) => logger.warn({ err: { name: error.name, message: error.message } }, 'a grant could not be audited: nothing was granted');
  // Sessions live in the in-memory adapter and end with the process, so their cookie keys may too (and the forms' tokens with them).
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const formTokens = new FormTokens(cookieKeys);
  const onFormRefused = (refused: FormRefusal) => logger.warn({ ...refused }, 'a form without its page\'s token was refused: nothing was done');
  // The API's deadlines (src/http/app.ts): a header block trickled in, or a request never finished, is not held for Node's minutes.
  // connectionsCheckingInterval: Node checks those deadlines every 30 s by default, so a 10 s one held 25–40 s.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 }, (req, res) => {
    // As the API refuses them (src/http/repeated-headers.ts): an app's OAuth error, before anything reads a header.
    const repeated = repeatedHeader(req.rawHeaders);
    if (repeated !== undefined) {
      sendJson(res, 400, { error: 'invalid_request', error_description: repeatedHeaderMessage(repeated) });
      return;
    }
    if (address?.sendToOwn(req, res) === true) return;
    address?.pin(req);
    if (answeredFavicon(req, res)) return;
    if (connected && isConnectedAppsPath(req.url)) {
      const deps = connected;
      handleConnectedApps(req, res, deps).catch((error: unknown) => {
        logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'connected-apps page failed');
        connectedAppsFailed(req, res, deps);
      });
      return;
    }
    if (provider && req.url?.startsWith(INTERACTION_PATH)) {
      handleInteraction(provider, req, res, { smart, picks, signIn: demoSignIn, issuer, onAuditFailed, formTokens, onFormRefused }).catch((error: unknown) => {
        // An expired or unknown interaction (a stale page, a cookie from another run): start again.
        logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'demo sign-in page failed');
        if (!res.headersSent) sendErrorPage(req, res, error, { banner: demoSignIn.banner, selfUrl: req.url ?? '/' });
        else res.end();
      });
      return;
    }
    if (handle) return handle(req, res);
    res.statusCode = 503;
    res.end();
  });
  server.on('clientError', answerRefusedRequest);
  issuer = issuerUrl(await listen(server, host, port));
  address = new IssuerAddress(issuer, false);

  try {
    const clients = new AuthClients(registered);
    provider = madeQuietly(() => createAuthProvider(issuer, {
      audience, patientClaim, clients, clientAuthMethods: clients.authMethods(), signingKeys: stored.signingKeys, pairwiseSalt: stored.pairwiseSalt, smart, picks, logger,
      cookieKeys,
      knowsPerson: (accountId) => findDemoPerson(accountId) !== undefined, banner: demoSignIn.banner,
    }), logger);
    handle = provider.callback();
    connected = {
      provider, picks, smart, clients, banner: demoSignIn.banner, origin: issuer, issuer, formTokens, onFormRefused,
      // The demo's own session (docs/smart-launch.md#connected-apps): its sign-in is a pick of a synthetic person, nothing to ask again.
      sessions: providerSessions(provider),
      verifyToken: ownTokenVerifier({ issuer, audience, patientClaim, signingKeys: stored.signingKeys, grantHolder: (id) => grantHolder(provider as Provider, id) }),
    };
  } catch (error) {
    server.close();
    throw error;
  }

  logger.warn(
    { issuer, clients: DEMO_CLIENTS.map((client) => client.clientId) },
    'demo authorization server — not for production: demo signing keys and client secrets (in DATA_DIR), ' +
      'fixed demo clients and people, sessions in memory, plain HTTP on loopback only; ' +
      'set AUTH_ISSUER to use a real authorization server',
  );

  const credentials: DemoCredentials = {
    clients: Object.fromEntries(
      DEMO_CLIENTS.map((client) => {
        const clientSecret = stored.clientSecrets[client.clientId];
        const scopes =
          client.grant === 'authorization_code' ? ['openid', ...client.apiScopes] : [...client.apiScopes];
        return [
          client.clientId,
          {
            clientId: client.clientId,
            ...(client.confidential && clientSecret ? { clientSecret } : {}),
            scopes,
            grant: client.grant,
          },
        ];
      }),
    ),
  };

  return {
    issuer,
    credentials,
    clientIds: CLIENT_CREDENTIALS_CLIENT_IDS,
    registered,
    grantHolder: (grantId) => (provider === undefined ? Promise.resolve(undefined) : grantHolder(provider, grantId)),
    scopesHeld: (held) => (provider === undefined ? Promise.resolve(undefined)
      : scopesStillHeld(picks, (id) => grantHolder(provider as Provider, id), (id) => (provider as Provider).Grant.adapter.find(id), held)),
    openPatientClaim: patientClaimSeal(stored.signingKeys).open,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections (a browser, undici's pool) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
