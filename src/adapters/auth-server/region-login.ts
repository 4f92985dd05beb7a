// Sign-in through the region's own OpenID Provider (docs/sign-in.md), as a relying party built on
// openid-client: authorization code with PKCE, state and nonce, the ID token validated in full
// (signature by the provider's JWKS, iss, aud, exp, nonce, acr) and the person taken from the Swedish
// OpenID Connect Profile's identity number claim. A login in progress is kept in the shared store, so
// the region may send the person back to any instance. Its answer is taken only from the browser that
// went to the region (login-binding.ts: a login an attacker began and a victim finished signs nobody in),
// and the login finishes only in that browser too, which also holds the interaction's cookie (login CSRF:
// a callback or an interaction planted in another browser signs nobody in). Each SMART sign-in asks the
// region for a fresh login. The connected-apps page signs the person in the same way, for the page
// alone: its login has no interaction, and its answer opens a short page session (apps-sessions.ts) in
// the browser that brought it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK } from 'jose';
import * as oidc from 'openid-client';
import type Provider from 'oidc-provider';
import { bindingMatches, clearedLoginBinding, cookieScopeOf, heldBindings, newLoginBinding, type CookieScope } from './login-binding.js';
import { LOGIN_TTL_SECONDS, ResumeCheck } from './resume-check.js';
import { send, type Details, type PageView, type SignInStep } from './interactions.js';
import { withoutSwitch } from './interaction-pages.js';
import { languageCookie, languageOf, type Lang, type Localized } from './page-language.js';
import { frameOf, problemPage, redirect, refusalOf, TEXT } from './region-login-answers.js';
import { UsedElsewhereFirst } from './raced-grants.js';
import { personOf } from './region-person.js';
import type { InteractionState, LoginEvents, LoginStore, PageLogins, RegionLoginSettings } from './region-login-ports.js';
import { requestTarget } from './request-target.js';
import { duringResume, RESULT_BINDING, type ResultBinding } from './result-binding.js';

export { COORDINATION_NUMBER_CLAIM, PERSONAL_IDENTITY_NUMBER_CLAIM } from './region-person.js';
export const DEFAULT_LOGIN_SCOPES = 'openid https://id.oidc.se/scope/naturalPersonNumber';

const MAX_RETRY_MS = 60_000;
/** The binding cookies a browser holds at most (about 100 bytes each): beginning one more ends the oldest. */
const MAX_HELD_BINDINGS = 8;

export type { LoginRefusal } from './region-login-answers.js';
export type { InteractionState, LoginEvents, LoginStore, PageLogins, RegionLoginSettings } from './region-login-ports.js';

interface Pending {
  state: string;
  /** The interaction of a SMART sign-in; none for the connected-apps page's login (`page`). */
  uid?: string;
  page?: true;
  nonce: string;
  verifier: string;
  clientId?: string;
  /** The SHA-256 of the value of the cookie given to the browser that went to the region (login-binding.ts). */
  binding?: string;
  /** When the person was sent to the region (seconds since the epoch): their login there must not be older. */
  startedAt?: number;
  used?: boolean;
  /** Set by the store's compare-and-set when a callback took the region's answer (`took`). */
  consumed?: unknown;
  accountId?: string;
  acr?: string;
  failed?: Localized;
}

const pendingOf = (row: Record<string, unknown> | undefined): Pending | undefined =>
  typeof row?.state === 'string' && (typeof row.uid === 'string' || row.page === true) && typeof row.nonce === 'string' && typeof row.verifier === 'string'
    ? row as unknown as Pending : undefined;

type PrivateKey = Parameters<typeof oidc.PrivateKeyJwt>[0];

export class RegionLogin {
  private configuration: oidc.Configuration | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Where the browser's binding cookie lives: `__Host-` on https, the server's path on plain http. */
  private readonly cookieScope: CookieScope;
  private readonly resumeCheck: ResumeCheck;

  constructor(
    private readonly settings: RegionLoginSettings,
    private readonly store: LoginStore,
    private readonly events: LoginEvents,
    private readonly mountPath: string,
    private readonly pages?: PageLogins,
  ) {
    this.cookieScope = cookieScopeOf(settings.redirectUri, mountPath);
    this.resumeCheck = new ResumeCheck(store, this.cookieScope, mountPath, async (input) => this.failed(input));
  }

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
    cancelling: async (req, res, details) => this.bindCancel(req, res, details.uid),
  };

  /**
   * A sign-in cancelled at its login prompt goes on to its resume like a finished login, and is bound the
   * same way: a row and a fresh binding cookie of this browser, so that its resume, too, is taken up only
   * here. Let by unbound, a login still being finished into the cancelled interaction was taken up in a
   * browser that planted its resume cookies (fourth re-review helper-167, F1). The login it cancels ends
   * here, its row and its binding cookie with it: none is finished into the interaction after the cancel.
   */
  private async bindCancel(req: IncomingMessage, res: ServerResponse, uid: string): Promise<Record<string, unknown>> {
    const ended = await this.endLogins(uid);
    for (const state of ended) res.appendHeader('set-cookie', clearedLoginBinding(state, this.cookieScope));
    const state = oidc.randomState();
    const binding = newLoginBinding(state, this.cookieScope, LOGIN_TTL_SECONDS);
    await this.resumeCheck.bind(uid, { state, binding: binding.hash });
    // Bounded as a login begun is: a cancel posted again and again gave a cookie each (re-review helper-181, F1).
    res.appendHeader('set-cookie', [...this.oldestBeyondBound(req, ended), binding.cookie]);
    return { [RESULT_BINDING]: { state, hash: binding.hash } satisfies ResultBinding };
  }

  private async login(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, submitUrl: string, view: PageView): Promise<void> {
    const back = { href: `${submitUrl}/abort`, text: TEXT.back, csrf: view.formToken };
    const again = { href: `${submitUrl}?again=1`, text: TEXT.again };
    const pending = await this.loginOf(details.uid);
    const startAgain = requestTarget(req.url).searchParams.has('again');
    if (pending?.accountId !== undefined) {
      if (!bindingMatches(req, pending.state, pending.binding, this.cookieScope)) {
        // The interaction's cookies were planted in a browser that did not go to the region: that browser
        // is not signed in as whoever logged in there, and the login is over for every browser.
        const { accountId: _person, acr: _acr, ...rest } = pending;
        await this.store.upsert(pending.state, { ...rest, used: true, failed: TEXT.finishedElsewhere }, LOGIN_TTL_SECONDS);
        await this.failed({
          kind: 'not-here', reason: 'the login was to be finished in another browser than the one sent to the region (no binding cookie): nobody was signed in',
          clientId: pending.clientId, sourceAddress: req.socket.remoteAddress ?? '',
        });
        return view.send(res, 400, problemPage(withoutSwitch(view.frame), TEXT.notSignedIn, TEXT.otherBrowser, [back]));
      }
      await this.endLogins(details.uid);
      // Finished here, the login still counts only where oidc-provider resumes it ({mount}/auth/<uid>, a
      // redirect the browser may be stopped before and its cookies planted elsewhere): the binding goes
      // on to the resume (resumes()), which ends it.
      await this.resumeCheck.bind(details.uid, { state: pending.state, binding: pending.binding ?? '', ...(pending.clientId === undefined ? {} : { clientId: pending.clientId }) });
      // The result names this browser's binding in the same save (result-binding.ts): a cancel saved before or after it
      // cannot pair this login with another browser's binding.
      const bound: ResultBinding = { state: pending.state, hash: pending.binding ?? '' };
      return provider.interactionFinished(req, res,
        { login: { accountId: pending.accountId, ...(pending.acr === undefined ? {} : { acr: pending.acr }) }, [RESULT_BINDING]: bound },
        { mergeWithLastSubmission: false });
    }
    if (pending?.failed !== undefined && !startAgain) return view.send(res, 200, problemPage(view.frame, TEXT.notSignedIn, pending.failed, [again, back]));
    const configuration = this.configuration;
    if (configuration === undefined) return view.send(res, 503, problemPage(view.frame, TEXT.unavailableTitle, TEXT.unavailable, [again, back]));
    await this.endLogins(details.uid);
    // A language chosen with the switch on the way is kept, as the page's login keeps it (helper-196, F2).
    const of = { uid: details.uid, ...(typeof details.params.client_id === 'string' ? { clientId: details.params.client_id } : {}) };
    return this.toRegion(configuration, req, res, of, view.frame.lang, view.keepLanguage);
  }

  /** The logins in progress for interaction `uid` (two, where its prompt was loaded twice at once). */
  private async loginsOf(uid: string): Promise<Pending[]> {
    return (await this.store.findAllByUid(uid)).flatMap((row) => pendingOf(row) ?? []);
  }

  /**
   * The login of interaction `uid` the prompt goes on with: one the person finished at the region, else one
   * the region refused (what the person is told), else one still at the region. A prompt loaded twice at once
   * began two, and went on with either: the one not finished sent the person to the region again (re-review
   * helper-177, F3).
   */
  private async loginOf(uid: string): Promise<Pending | undefined> {
    const logins = await this.loginsOf(uid);
    return logins.find((l) => l.accountId !== undefined) ?? logins.find((l) => l.failed !== undefined) ?? logins[0];
  }

  /** Ends every login in progress for interaction `uid` (their rows): the states they had. */
  private async endLogins(uid: string): Promise<string[]> {
    const ended = (await this.loginsOf(uid)).map((old) => old.state);
    for (const state of ended) await this.store.destroy(state);
    return ended;
  }

  /** Runs oidc-provider's resume `run` of request `req`: its interaction is found only with its result's binding (result-binding.ts). */
  resuming<T>(req: IncomingMessage, run: () => T): T {
    return duringResume((bound) => bindingMatches(req, bound.state, bound.hash, this.cookieScope), run);
  }

  /** The resume check of the interaction oidc-provider would resume (resume-check.ts): true when the request may go on. */
  resumes(req: IncomingMessage, res: ServerResponse, uid: string, interaction: (uid: string) => Promise<InteractionState>): Promise<boolean> {
    return this.resumeCheck.resumes(req, res, uid, interaction);
  }

  /**
   * GET of the connected-apps page without its session: off to the region's login for the page alone,
   * bound to this browser as a SMART sign-in is (503 while the region's login is not discovered).
   */
  async beginPageLogin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const configuration = this.configuration;
    if (configuration === undefined || this.pages === undefined) {
      const self = `${this.mountPath}/apps`;
      const frame = frameOf(req, self);
      return send(res, 503, problemPage(frame, TEXT.unavailableTitle, TEXT.unavailable, [{ href: this.pages?.href ?? self, text: TEXT.again }]),
        { 'content-language': frame.lang });
    }
    // A language chosen with the page's switch is kept as the pages' own switch keeps it: the pages after
    // the region's login speak it too.
    const { lang, chosen } = languageOf(req);
    return this.toRegion(configuration, req, res, { page: true }, lang, chosen ? [languageCookie(lang)] : []);
  }

  /**
   * A new login in progress for `of`, kept in the store, and the browser sent to the region with its binding
   * cookie (and `cookies`), asking for the region's login in `lang`, the language of the page the person left.
   */
  private async toRegion(
    configuration: oidc.Configuration, req: IncomingMessage, res: ServerResponse, of: Pick<Pending, 'uid' | 'clientId' | 'page'>, lang: Lang, cookies: string[] = [],
  ): Promise<void> {
    const state = oidc.randomState();
    const binding = newLoginBinding(state, this.cookieScope, LOGIN_TTL_SECONDS);
    const next: Pending = {
      state, ...of, nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), binding: binding.hash, startedAt: Math.floor(Date.now() / 1000),
    };
    await this.store.upsert(next.state, { ...next }, LOGIN_TTL_SECONDS);
    const { acr, scopes, redirectUri } = this.settings;
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri, scope: scopes, state: next.state, nonce: next.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(next.verifier), code_challenge_method: 'S256',
      acr_values: acr.join(' '),
      // A fresh login for every sign-in, the page's too: a session the person (or someone) left open at the region is not reused.
      prompt: 'login',
      // OpenID Connect Core 3.1.2.1: a wish, which a region's login may not honour. Always sv or en, never the request's own text.
      ui_locales: lang,
    });
    return redirect(res, url.href, [...this.oldestBeyondBound(req), ...cookies, binding.cookie]);
  }

  /**
   * The Set-Cookie headers ending the browser's oldest binding cookies beyond the newest seven, before it is given one
   * more (`ended`: those ended already). A handful of logins in progress at once is a person's; more, another site
   * sending the browser here again and again to fill its Cookie header until every page of the origin is refused
   * (re-review helper-175, F1). A browser sends cookies of one path in the order it made them (RFC 6265 §5.4), and all
   * of these are at Path=/ on https. Ending them all (as once) let four forced begins end the login its person was at
   * the region for (re-review helper-177, F1), and one cookie for every login, its value kept, let whoever once copied
   * that value bind his own logins to the browser (review helper-180, F1): each login has its own value.
   */
  private oldestBeyondBound(req: IncomingMessage, ended: readonly string[] = []): string[] {
    const held = heldBindings(req, this.cookieScope).filter((state) => !ended.includes(state));
    return held.slice(0, Math.max(0, held.length - (MAX_HELD_BINDINGS - 1))).map((old) => clearedLoginBinding(old, this.cookieScope));
  }

  /**
   * GET {mount}/callback: the region's answer. Taken only from the browser that went to the region (its
   * binding cookie, checked before the code is exchanged); then, whatever it says, the browser goes back
   * to its interaction. Every answer is audited before the browser is answered.
   */
  async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const current = new URL(this.settings.redirectUri);
    current.search = requestTarget(req.url).search;
    const state = current.searchParams.get('state');
    const pending = pendingOf(state === null ? undefined : await this.store.find(state));
    const configuration = this.configuration;
    const sourceAddress = req.socket.remoteAddress ?? '';
    const cleared = state === null || !/^[\w-]{1,128}$/.test(state) ? undefined : clearedLoginBinding(state, this.cookieScope);
    const refuse = async (reason: string, shown: Localized, endsBinding = true): Promise<void> => {
      await this.failed({ kind: 'not-here', reason, clientId: pending?.clientId, sourceAddress });
      const frame = frameOf(req);
      return send(res, 400, problemPage(frame, TEXT.notSignedIn, shown, []),
        { 'content-language': frame.lang, ...(cleared === undefined || !endsBinding ? {} : { 'set-cookie': cleared }) });
    };
    // An answer already taken (a reload, a double request, or a page that knows the state) leaves the binding
    // alone: the login that took it still needs it in this browser (hostile review helper-128, F2).
    if (pending?.used === true || pending?.consumed !== undefined) return refuse('state already used', TEXT.unknown, false);
    if (pending === undefined || configuration === undefined) {
      return refuse(pending === undefined ? 'unknown or expired state' : 'the region\'s login is not discovered yet', TEXT.unknown);
    }
    if (!bindingMatches(req, pending.state, pending.binding, this.cookieScope)) {
      // Another browser than the one that went to the region: the code is never exchanged, and the login is over.
      // Marked taken as well: a write-back of the row read before a callback took it dropped that mark, and the right
      // browser's next load took the answer again (hostile review helper-131, F1).
      await this.store.upsert(pending.state, { ...pending, used: true, consumed: true, failed: TEXT.finishedElsewhere }, LOGIN_TTL_SECONDS);
      return refuse('the answer came to another browser than the one sent to the region (no binding cookie): the code was not exchanged', TEXT.otherBrowser);
    }
    // Answers loaded together each read the state unused: one takes it, the rest are replays (helper-130, F2).
    if (!await this.took(pending.state)) return refuse('state already used', TEXT.unknown, false);
    const taken: Pending = { ...pending, used: true, consumed: true };
    await this.store.upsert(pending.state, { ...taken }, LOGIN_TTL_SECONDS);
    const failed = await this.exchange(configuration, current, taken, sourceAddress);
    // Signed in, exchange() kept the person on the row, and the binding stays for the login to finish in
    // this browser (login()); refused, the row keeps what the person is told, and the binding ends.
    if (failed !== undefined) await this.store.upsert(pending.state, { ...taken, failed }, LOGIN_TTL_SECONDS);
    if (pending.page === true) return this.finishPageLogin(req, res, pending.state, failed, cleared);
    return redirect(res, `${this.mountPath}/interaction/${encodeURIComponent(pending.uid ?? '')}`, failed === undefined ? undefined : cleared);
  }

  /** Whether this request took the region's answer for `state`: a compare-and-set, so its code is exchanged once. */
  private async took(state: string): Promise<boolean> {
    try {
      await this.store.consume(state);
      return true;
    } catch (err) {
      if (err instanceof UsedElsewhereFirst) return false;
      throw err;
    }
  }

  /**
   * The connected-apps page's login answered, in the browser that went to the region (the callback
   * checked its binding): signed in, its page session opens in this very answer and the browser goes
   * to the page; refused, the page says why and offers to sign in again. The binding ends either way.
   */
  private async finishPageLogin(req: IncomingMessage, res: ServerResponse, state: string, failed: Localized | undefined, cleared: string | undefined): Promise<void> {
    const pages = this.pages;
    const accountId = failed === undefined ? pendingOf(await this.store.find(state))?.accountId : undefined;
    await this.store.destroy(state);
    if (pages === undefined || accountId === undefined) {
      const frame = frameOf(req);
      const again = pages === undefined ? [] : [{ href: pages.href, text: TEXT.again }];
      return send(res, 200, problemPage(frame, TEXT.notSignedIn, failed ?? TEXT.unknown, again),
        { 'content-language': frame.lang, ...(cleared === undefined ? {} : { 'set-cookie': cleared }) });
    }
    return redirect(res, pages.href, [...(cleared === undefined ? [] : [cleared]), await pages.open(req, accountId)]);
  }

  /** The code exchanged and the answer checked; the person kept on the login's row once recorded. What the person is told when not. */
  private async exchange(configuration: oidc.Configuration, current: URL, pending: Pending, sourceAddress: string): Promise<Localized | undefined> {
    let person: { accountId: string; subject: string; acr: string | undefined };
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: pending.verifier, expectedNonce: pending.nonce, expectedState: pending.state, idTokenExpected: true,
      });
      person = personOf(tokens.claims(), pending.startedAt, this.settings);
    } catch (error) {
      const { shown, reason, kind } = refusalOf(error, this.settings.clientKey === undefined ? 'SIGN_IN_LOGIN_CLIENT_SECRET_FILE' : 'SIGN_IN_LOGIN_CLIENT_KEY_FILE');
      await this.failed({ kind, reason, clientId: pending.clientId, sourceAddress });
      return shown;
    }
    try {
      await this.events.loginSucceeded({ ...person, clientId: pending.clientId, sourceAddress });
    } catch {
      // Not recorded, not signed in (the log says why): the person may try again.
      return TEXT.notRecorded;
    }
    const { accountId, acr } = person;
    await this.store.upsert(pending.state, { ...pending, used: true, accountId, ...(acr === undefined ? {} : { acr }) }, LOGIN_TTL_SECONDS);
    return undefined;
  }

  /** A refused login, recorded; a record that cannot be stored changes nothing for the person, who is refused anyway (the log says so). */
  private async failed(input: Parameters<LoginEvents['loginFailed']>[0]): Promise<void> {
    await this.events.loginFailed(input).catch(() => undefined);
  }
}
