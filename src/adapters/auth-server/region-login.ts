// Sign-in through the region's own OpenID Provider (docs/sign-in.md), as a relying party built on
// openid-client: authorization code with PKCE, state and nonce, the ID token validated in full
// (signature by the provider's JWKS, iss, aud, exp, nonce, acr) and the person taken from the Swedish
// OpenID Connect Profile's identity number claim. A login in progress is kept in the shared store, so
// the region may send the person back to any instance; it finishes only in the browser that holds the
// interaction's cookie (login CSRF: a callback planted in another browser signs nobody in).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, type JWK } from 'jose';
import * as oidc from 'openid-client';
import type Provider from 'oidc-provider';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { escape, page, type PageFrame } from './interaction-pages.js';
import { send, type Details, type PageView, type SignInStep } from './interactions.js';
import { languageOf, type Localized } from './page-language.js';

export const PERSONAL_IDENTITY_NUMBER_CLAIM = 'https://id.oidc.se/claim/personalIdentityNumber';
export const COORDINATION_NUMBER_CLAIM = 'https://id.oidc.se/claim/coordinationNumber';
export const DEFAULT_LOGIN_SCOPES = 'openid https://id.oidc.se/scope/naturalPersonNumber';

/** How long a person has at the region's login before its answer is no longer taken. */
const LOGIN_TTL_SECONDS = 10 * 60;
const MAX_RETRY_MS = 60_000;

export interface RegionLoginSettings {
  /** SIGN_IN_LOGIN_ISSUER: https, or http on a loopback address only. */
  issuer: string;
  clientId: string;
  /** client_secret_basic with this secret, or private_key_jwt with `clientKey`. */
  clientSecret?: string;
  clientKey?: JWK;
  scopes: string;
  /** SIGN_IN_LOGIN_ACR: sent as acr_values; the ID token's acr must be one of them. */
  acr?: readonly string[];
  identityClaim: string;
  /** `{PUBLIC_BASE_URL}/auth/callback`, registered at the region. */
  redirectUri: string;
}

/** What happened at the region, for the audit trail and the counters (never a token or an identity number). */
export interface LoginEvents {
  loginSucceeded(input: { accountId: string; clientId: string | undefined; acr: string | undefined }): void;
  loginFailed(input: { reason: string; clientId: string | undefined }): void;
  discoveryFailed(error: Error): void;
}

/** The shared store's rows of logins in progress (postgres-models.ts, model RegionLogin). */
export interface LoginStore {
  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  destroy(id: string): Promise<void>;
}

interface Pending {
  state: string;
  uid: string;
  nonce: string;
  verifier: string;
  clientId?: string;
  used?: boolean;
  accountId?: string;
  acr?: string;
  failed?: Localized;
}

const pendingOf = (row: Record<string, unknown> | undefined): Pending | undefined =>
  typeof row?.state === 'string' && typeof row.uid === 'string' && typeof row.nonce === 'string' && typeof row.verifier === 'string'
    ? row as unknown as Pending : undefined;

/** What the pages say, in both languages. */
const TEXT = {
  cancelled: { en: 'The sign-in was cancelled at the region\'s login.', sv: 'Inloggningen avbröts i regionens inloggning.' },
  refused: { en: 'The region\'s login did not sign you in.', sv: 'Regionens inloggning loggade inte in dig.' },
  untrusted: { en: 'The answer from the region\'s login could not be trusted, so nobody was signed in.', sv: 'Svaret från regionens inloggning gick inte att lita på, så ingen loggades in.' },
  weak: {
    en: 'The sign-in method used is not strong enough for health records. Sign in again with a stronger one (such as BankID).',
    sv: 'Inloggningssättet räcker inte för journaler. Logga in igen med ett starkare (till exempel BankID).',
  },
  noNumber: { en: 'The region\'s login did not give a Swedish personal identity or coordination number.', sv: 'Regionens inloggning gav inget svenskt person- eller samordningsnummer.' },
  noIdToken: { en: 'The region\'s login did not say who you are.', sv: 'Regionens inloggning sa inte vem du är.' },
  unknown: { en: 'This sign-in is not known here, has expired or was already used. Start again from the app.', sv: 'Den här inloggningen är okänd här, har gått ut eller är redan använd. Börja om från appen.' },
  unavailable: { en: 'The region\'s login cannot be reached just now, so nobody can sign in. Try again in a minute.', sv: 'Regionens inloggning går inte att nå just nu, så ingen kan logga in. Försök igen om en minut.' },
  notSignedIn: { en: 'You are not signed in', sv: 'Du är inte inloggad' },
  unavailableTitle: { en: 'Sign-in is unavailable', sv: 'Inloggningen är inte tillgänglig' },
  again: { en: 'Sign in again', sv: 'Logga in igen' },
  back: { en: 'Back to the app', sv: 'Tillbaka till appen' },
} as const satisfies Record<string, Localized>;

/** Why a login was refused, in words for the person; the technical reason goes to the log. */
function refusalOf(error: unknown): { shown: Localized; reason: string } {
  if (error instanceof oidc.AuthorizationResponseError) {
    return { shown: error.error === 'access_denied' ? TEXT.cancelled : TEXT.refused, reason: `authorization response: ${error.error}` };
  }
  if (error instanceof RegionRefusal) return { shown: error.shown, reason: error.message };
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { shown: TEXT.untrusted, reason: `${typeof code === 'string' ? `${code}: ` : ''}${message}` };
}

type PrivateKey = Parameters<typeof oidc.PrivateKeyJwt>[0];

class RegionRefusal extends Error {
  constructor(message: string, readonly shown: Localized) {
    super(message);
  }
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
}

function problemPage(frame: PageFrame, title: Localized, message: Localized, links: ReadonlyArray<{ href: string; text: Localized }>): string {
  const { lang } = frame;
  const items = links.map((l) => `<li><a href="${escape(l.href)}">${escape(l.text[lang])}</a></li>`).join('');
  return page(frame, title[lang], `<h1>${escape(title[lang])}</h1><p class="error" role="alert">${escape(message[lang])}</p>${items === '' ? '' : `<ul>${items}</ul>`}`);
}

export class RegionLogin {
  private configuration: oidc.Configuration | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly settings: RegionLoginSettings,
    private readonly store: LoginStore,
    private readonly events: LoginEvents,
    private readonly mountPath: string,
  ) {}

  /** Whether the region's provider has been discovered: until then the sign-in pages answer 503. */
  get ready(): boolean {
    return this.configuration !== undefined;
  }

  /** Discovers the provider; a failure is retried in the background (doubling up to a minute), never fatal. */
  async start(): Promise<void> {
    let wait = 1000;
    const attempt = async (): Promise<void> => {
      if (this.stopped) return;
      try {
        this.configuration = await this.discover();
      } catch (error) {
        this.events.discoveryFailed(error instanceof Error ? error : new Error(String(error)));
        this.retry = setTimeout(() => void attempt(), wait);
        this.retry.unref();
        wait = Math.min(wait * 2, MAX_RETRY_MS);
      }
    };
    await attempt();
  }

  stop(): void {
    this.stopped = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
  }

  private async discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, clientKey } = this.settings;
    const auth = clientKey !== undefined
      ? oidc.PrivateKeyJwt({ key: await importJWK(clientKey, clientKey.alg ?? 'RS256'), ...(clientKey.kid === undefined ? {} : { kid: clientKey.kid }) } as PrivateKey)
      : oidc.ClientSecretBasic(clientSecret);
    const insecure = new URL(issuer).protocol === 'http:';
    return oidc.discovery(new URL(issuer), clientId, { redirect_uris: [this.settings.redirectUri], response_types: ['code'] }, auth, {
      // Plain http only for a provider on loopback (settings refuse any other), as in tests.
      execute: [...(insecure ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
      timeout: 5,
    });
  }

  /** The login prompt: off to the region, back with the person (or what went wrong), then on to the picker. */
  readonly step: SignInStep = {
    banner: '',
    login: async (provider, req, res, details, submitUrl, view) => this.login(provider, req, res, details, submitUrl, view),
  };

  private async login(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, submitUrl: string, view: PageView): Promise<void> {
    const back = { href: `${submitUrl}/abort`, text: TEXT.back };
    const again = { href: `${submitUrl}?again=1`, text: TEXT.again };
    const pending = pendingOf(await this.store.findByUid(details.uid));
    const startAgain = new URL(req.url ?? '/', 'http://x').searchParams.has('again');
    if (pending?.accountId !== undefined) {
      await this.store.destroy(pending.state);
      return provider.interactionFinished(req, res, { login: { accountId: pending.accountId, ...(pending.acr === undefined ? {} : { acr: pending.acr }) } },
        { mergeWithLastSubmission: false });
    }
    if (pending?.failed !== undefined && !startAgain) return view.send(res, 200, problemPage(view.frame, TEXT.notSignedIn, pending.failed, [again, back]));
    const configuration = this.configuration;
    if (configuration === undefined) return view.send(res, 503, problemPage(view.frame, TEXT.unavailableTitle, TEXT.unavailable, [again, back]));
    for (let old = pending; old !== undefined; old = pendingOf(await this.store.findByUid(details.uid))) await this.store.destroy(old.state);
    const next: Pending = {
      state: oidc.randomState(), uid: details.uid, nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(),
      ...(typeof details.params.client_id === 'string' ? { clientId: details.params.client_id } : {}),
    };
    await this.store.upsert(next.state, { ...next }, LOGIN_TTL_SECONDS);
    const { acr, scopes, redirectUri } = this.settings;
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri, scope: scopes, state: next.state, nonce: next.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(next.verifier), code_challenge_method: 'S256',
      ...(acr === undefined ? {} : { acr_values: acr.join(' ') }),
    });
    return redirect(res, url.href);
  }

  /** GET {mount}/callback: the region's answer. Whatever it says, the browser goes back to its interaction. */
  async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const current = new URL(this.settings.redirectUri);
    current.search = new URL(req.url ?? '/', 'http://x').search;
    const state = current.searchParams.get('state');
    const pending = pendingOf(state === null ? undefined : await this.store.find(state));
    const configuration = this.configuration;
    if (pending === undefined || pending.used === true || configuration === undefined) {
      this.events.loginFailed({ reason: pending === undefined ? 'unknown or expired state' : 'state already used', clientId: pending?.clientId });
      const { lang } = languageOf(req);
      const frame: PageFrame = { lang, banner: '', selfUrl: `${this.mountPath}/callback` };
      return send(res, 400, problemPage(frame, TEXT.notSignedIn, TEXT.unknown, []), { 'content-language': lang });
    }
    await this.store.upsert(pending.state, { ...pending, used: true }, LOGIN_TTL_SECONDS);
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: pending.verifier, expectedNonce: pending.nonce, expectedState: pending.state, idTokenExpected: true,
      });
      const { accountId, acr } = this.person(tokens.claims());
      await this.store.upsert(pending.state, { ...pending, used: true, accountId, ...(acr === undefined ? {} : { acr }) }, LOGIN_TTL_SECONDS);
      this.events.loginSucceeded({ accountId, clientId: pending.clientId, acr });
    } catch (error) {
      const { shown, reason } = refusalOf(error);
      await this.store.upsert(pending.state, { ...pending, used: true, failed: shown }, LOGIN_TTL_SECONDS);
      this.events.loginFailed({ reason, clientId: pending.clientId });
    }
    return redirect(res, `${this.mountPath}/interaction/${encodeURIComponent(pending.uid)}`);
  }

  /** The person of a validated ID token: a valid identity number in the profile's claim, at an accepted acr. */
  private person(claims: oidc.IDToken | undefined): { accountId: string; acr: string | undefined } {
    if (claims === undefined) throw new RegionRefusal('no ID token', TEXT.noIdToken);
    const acr = typeof claims.acr === 'string' ? claims.acr : undefined;
    const accepted = this.settings.acr;
    if (accepted !== undefined && (acr === undefined || !accepted.includes(acr))) {
      throw new RegionRefusal(`acr ${acr ?? '(none)'} is not one of ${accepted.join(' ')}`, TEXT.weak);
    }
    const claimed = [this.settings.identityClaim, COORDINATION_NUMBER_CLAIM].map((name) => claims[name]).find((v) => typeof v === 'string');
    const accountId = typeof claimed === 'string' ? parsePersonalIdentityNumber(claimed) : undefined;
    if (accountId === undefined) {
      throw new RegionRefusal(`no valid identity number in ${this.settings.identityClaim}`, TEXT.noNumber);
    }
    return { accountId, acr };
  }
}
