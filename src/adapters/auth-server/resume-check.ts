// The check before oidc-provider's resume of an interaction (docs/sign-in.md, "The browser that went to
// the region"): a login at the region takes effect there, by a resume cookie alone, so the interaction a
// request's resume cookie names is taken up only in the browser bound to it (login-binding.ts), or, after
// the login, only in the session it was begun in (region-auth-server.ts `interactionState`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import onHeaders from 'on-headers';
import { send } from './interactions.js';
import { bindingMatches, clearedLoginBinding, type CookieScope } from './login-binding.js';
import { frameOf, problemPage, TEXT } from './region-login-answers.js';
import type { InteractionState, LoginEvents, LoginStore } from './region-login-ports.js';

/** How long a person has at the region's login before its answer is no longer taken. */
export const LOGIN_TTL_SECONDS = 10 * 60;

/** The store's row that carries a finished login's binding on to oidc-provider's resume of its interaction. */
const resumeKey = (uid: string): string => `resume:${uid}`;
/** When a row written now for `ttlSeconds` ends, in seconds since the epoch (kept in it, so a refusal does not lengthen it). */
const untilOf = (ttlSeconds: number): number => Math.floor(Date.now() / 1000) + ttlSeconds;

type Failed = (input: Parameters<LoginEvents['loginFailed']>[0]) => Promise<void>;

export class ResumeCheck {
  constructor(private readonly store: LoginStore, private readonly cookieScope: CookieScope, private readonly mountPath: string, private readonly failed: Failed) {}

  /**
   * Binds the resume of interaction `uid` to the browser holding the binding `binding` (the hash of its
   * cookie for `state`), for the login's lifetime: a finished login's, or a cancelled one's.
   */
  async bind(uid: string, row: { state: string; binding: string; clientId?: string }): Promise<void> {
    await this.store.upsert(resumeKey(uid), { ...row, until: untilOf(LOGIN_TTL_SECONDS) }, LOGIN_TTL_SECONDS);
  }

  /**
   * oidc-provider's resume of interaction `uid` (`{mount}/auth/<uid>`), where a login at the region takes
   * effect: only in the browser holding that login's binding. Someone who stopped his own browser before
   * the resume and planted its cookies in another (login CSRF) signs that browser in as nobody, and the
   * login is over for every browser. True when the resume may go on (also for the picker's and consent's,
   * in the session they were begun in); false when it was refused and answered.
   *
   * `interaction` says what oidc-provider holds of `uid` now. What it holds may change between this check
   * and oidc-provider's own read (a login being finished saves its person a moment later), so a region
   * login's interaction is taken up by no browser without the binding for as long as it lives, whatever it
   * holds at the moment of the check (third re-review helper-166, F1: "holds no login yet" passed, and the
   * login saved in between was taken). Only an interaction that is gone lets a cookie naming it by: gone is
   * final, as the store never stores an ended interaction again (postgres-models.ts; fifth review helper-168,
   * F1: a save that read it before its resume wrote it back, and a victim let by took it), and oidc-provider
   * finds nothing to resume either. So a resume cookie of a finished login planted in a browser refuses nothing there.
   */
  async resumes(req: IncomingMessage, res: ServerResponse, uid: string, interaction: (uid: string) => Promise<InteractionState>): Promise<boolean> {
    const row = await this.store.find(resumeKey(uid));
    const bound = typeof row?.state === 'string' && typeof row.binding === 'string' ? { state: row.state, binding: row.binding } : undefined;
    if (bound !== undefined && row?.refused !== true && bindingMatches(req, bound.state, bound.binding, this.cookieScope)) {
      // The row stays until it expires, and the binding until an answer takes the login on (a redirect):
      // oidc-provider may yet refuse this resume (its own cookie held back), or first send the browser to
      // sign out an earlier person and resume again, and every resume must be this browser's. Ended here,
      // a resume it refused left the next one unchecked (hostile review helper-163, F1).
      const cleared = clearedLoginBinding(bound.state, this.cookieScope);
      onHeaders(res, function taken(this: ServerResponse) {
        if (this.statusCode >= 300 && this.statusCode < 400) this.appendHeader('set-cookie', cleared);
      });
      return true;
    }
    const state = await interaction(uid);
    if (state === 'gone') return true;
    // With no row, the picker's or consent's interaction is oidc-provider's to keep to its session; any other with a
    // row, or a region login's with none (expired, or not written yet), is nobody's here (fail closed).
    if (bound === undefined && state === 'other') return true;
    // The login is over for every browser, kept refused for what is left of the row's life, never longer (re-review helper-164, F1).
    const left = row === undefined ? 0 : typeof row.until === 'number' ? row.until - untilOf(0) : LOGIN_TTL_SECONDS;
    if (row !== undefined && row.refused !== true && left > 0) await this.store.upsert(resumeKey(uid), { ...row, refused: true }, left);
    return this.refuse(req, res, uid, typeof row?.clientId === 'string' ? row.clientId : undefined);
  }

  /** A resume of a login in a browser that did not go to the region: recorded, and answered that nobody was signed in. */
  private async refuse(req: IncomingMessage, res: ServerResponse, uid: string, clientId: string | undefined): Promise<false> {
    await this.failed({
      kind: 'not-here', reason: 'the login was resumed in another browser than the one sent to the region (no binding cookie): nobody was signed in',
      clientId, sourceAddress: req.socket.remoteAddress ?? '',
    });
    // No language switch: its link is this resume, refused and recorded again (PageFrame.selfUrl).
    const frame = frameOf(req);
    send(res, 400, problemPage(frame, TEXT.notSignedIn, TEXT.otherBrowser, []), { 'content-language': frame.lang });
    return false;
  }
}
