// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): an app that signs its person out sends
// the browser to `end_session_endpoint` with `id_token_hint` and `post_logout_redirect_uri`; this
// server asks once, in the person's language, and on "Sign out" ends the whole sign-in session, so
// the next sign-in asks who is signing in again (and another person may).
import type { IncomingMessage } from 'node:http';
import { escape, page } from './interaction-pages.js';
import { languageOf, type Localized } from './page-language.js';

// No form-action: a browser holds the redirect after the form (back to the app) to it too.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

interface LogoutContext {
  req: IncomingMessage;
  path: string;
  type: string;
  body: unknown;
  set(field: string, value: string): void;
  oidc: { client?: { clientId: string; clientName?: string } };
}

function answer(ctx: LogoutContext, html: string, lang: string): void {
  ctx.set('content-security-policy', CSP);
  ctx.set('content-language', lang);
  ctx.type = 'html';
  ctx.body = html;
}

/** oidc-provider's `features.rpInitiatedLogout`, its pages in this server's frame. */
export function rpInitiatedLogout(banner: Localized | string) {
  return {
    enabled: true,
    // `form` is oidc-provider's (its xsrf field); the button that submits it with logout=yes ends the whole session.
    logoutSource: async (ctx: LogoutContext, form: string) => {
      const { lang } = languageOf(ctx.req);
      const app = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
      const text = {
        en: { title: 'Sign out', heading: 'Sign out?', why: app === undefined ? 'You are signing out.' : `You signed out of ${escape(app)}.`,
          more: 'Sign out here too, so that the next sign-in asks who you are.', yes: 'Sign out', no: 'Stay signed in' },
        sv: { title: 'Logga ut', heading: 'Logga ut?', why: app === undefined ? 'Du loggar ut.' : `Du loggade ut från ${escape(app)}.`,
          more: 'Logga ut här också, så att nästa inloggning frågar vem du är.', yes: 'Logga ut', no: 'Förbli inloggad' },
      }[lang];
      answer(ctx, page({ lang, banner, selfUrl: ctx.path }, text.title, `<h1>${text.heading}</h1><p>${text.why} ${text.more}</p>${form}`
        + `<p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${text.yes}</button> `
        + `<button type="submit" form="op.logoutForm">${text.no}</button></p>`), lang);
    },
    postLogoutSuccessSource: async (ctx: LogoutContext) => {
      const { lang } = languageOf(ctx.req);
      const text = { en: { title: 'Signed out', body: 'You are signed out.' }, sv: { title: 'Utloggad', body: 'Du är utloggad.' } }[lang];
      answer(ctx, page({ lang, banner, selfUrl: ctx.path }, text.title, `<h1>${text.title}</h1><p>${text.body}</p>`), lang);
    },
  };
}
