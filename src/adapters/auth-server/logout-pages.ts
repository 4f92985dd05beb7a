// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): an app that signs its person out sends
// the browser to `end_session_endpoint` with `id_token_hint` and `post_logout_redirect_uri`. When the
// hint is an ID token of this very sign-in (this app, this person, this browser's session), the app has said all there is to
// say: the whole sign-in session ends at once, without a second question (its page posts itself on),
// so the next sign-in asks who is signing in again. Without such a hint anybody could have sent the
// browser here, so the person is asked once, in their language (§2: the OP MUST ask then).
import { appName } from './app-names.js';
import { escape, page } from './interaction-pages.js';
import { answer, frameOf, submittingPage, type PageContext, type PagesInput } from './provider-pages.js';

interface LogoutClient { clientId: string; subjectType?: string; sectorIdentifier?: string }

interface LogoutContext extends PageContext {
  oidc: PageContext['oidc'] & {
    client?: LogoutClient;
    session: { accountId?: string; authorizations?: Record<string, { sid?: string } | undefined>; state?: { secret?: string } };
    entities: { IdTokenHint?: { payload?: { sub?: unknown; sid?: unknown } } };
    urlFor(name: string): string;
  };
}

/** The `sub` this server gives `accountId` in the client's ID tokens (public or pairwise). */
export type SubjectOf = (accountId: string, client: LogoutClient) => Promise<string>;

/** Whether the ID token hint is of this session: its app signed in here, in this very session (`sid`), its subject the person signed in. */
async function hintOfThisSession(ctx: LogoutContext, subjectOf: SubjectOf): Promise<boolean> {
  const { client, session, entities } = ctx.oidc;
  const { sub, sid } = entities.IdTokenHint?.payload ?? {};
  if (client === undefined || session.accountId === undefined || typeof sub !== 'string' || typeof sid !== 'string') return false;
  // This browser's sign-in of the app, not another's of the same person (every ID token names its session's sid).
  if (session.authorizations?.[client.clientId]?.sid !== sid) return false;
  return sub === await subjectOf(session.accountId, client);
}

/** oidc-provider's `features.rpInitiatedLogout`, its pages in this server's frame. */
export function rpInitiatedLogout(input: PagesInput & { subjectOf: SubjectOf }) {
  return {
    enabled: true,
    // `form` is oidc-provider's (its xsrf field); the button that submits it with logout=yes ends the whole session.
    logoutSource: async (ctx: LogoutContext, form: string) => {
      const frame = frameOf(ctx, input);
      const { lang } = frame;
      const secret = ctx.oidc.session.state?.secret;
      if (secret !== undefined && await hintOfThisSession(ctx, input.subjectOf)) {
        const text = { en: { title: 'Signing out', text: 'You are being signed out. If nothing happens, press Continue.' },
          sv: { title: 'Loggar ut', text: 'Du loggas ut. Om inget händer, tryck på Fortsätt.' } }[lang];
        answer(ctx, frame, submittingPage(frame, { ...text, action: ctx.oidc.urlFor('end_session_confirm'), fields: { xsrf: secret, logout: 'yes' } }), true);
        return;
      }
      const client = ctx.oidc.client;
      const app = client === undefined ? undefined : escape(appName(client, client.clientId, lang));
      const text = {
        en: { title: 'Sign out', heading: 'Sign out?', why: app === undefined ? 'You are signing out.' : `${app} asks to sign you out.`,
          more: 'Sign out here too, so that the next sign-in asks who you are.', yes: 'Sign out', no: 'Stay signed in' },
        sv: { title: 'Logga ut', heading: 'Logga ut?', why: app === undefined ? 'Du loggar ut.' : `${app} vill logga ut dig.`,
          more: 'Logga ut här också, så att nästa inloggning frågar vem du är.', yes: 'Logga ut', no: 'Förbli inloggad' },
      }[lang];
      answer(ctx, frame, page(frame, text.title, `<h1>${text.heading}</h1><p>${text.why} ${text.more}</p>${form}`
        + `<p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${text.yes}</button> `
        + `<button type="submit" form="op.logoutForm">${text.no}</button></p>`));
    },
    postLogoutSuccessSource: async (ctx: LogoutContext) => {
      const frame = frameOf(ctx, input);
      const text = { en: { title: 'Signed out', body: 'You are signed out.' }, sv: { title: 'Utloggad', body: 'Du är utloggad.' } }[frame.lang];
      answer(ctx, frame, page(frame, text.title, `<h1>${text.title}</h1><p>${text.body}</p>`));
    },
  };
}
