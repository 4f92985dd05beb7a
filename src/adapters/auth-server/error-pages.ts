// The authorization server's page for whatever stops a sign-in: an app it does not know, an address the
// app did not register, a sign-in that expired or began in another browser, a request too large, an
// address with no page, a fault of its own. In the person's language, saying what happened and what to
// do; the OAuth error code for the app's maker, never oidc-provider's text or anything internal. No
// link back: where this page is shown, no address the app registered can be trusted with the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escape, page, type PageFrame } from './interaction-pages.js';
import { pageHeaders } from './page-headers.js';
import { languageOf, type Localized } from './page-language.js';

export type ErrorKind = 'unknown_app' | 'unregistered_address' | 'expired' | 'too_large' | 'not_found' | 'wrong_method' | 'fault' | 'invalid';

const HEADING: Localized = { en: 'The sign-in cannot continue', sv: 'Inloggningen kan inte fortsätta' };
const NOT_FOUND_HEADING: Localized = { en: 'This page is not here', sv: 'Sidan finns inte' };
const START_AGAIN: Localized = { en: 'Go back to the app and start again from there.', sv: 'Gå tillbaka till appen och börja om därifrån.' };
const ASK_MAKER: Localized = {
  en: 'Go back to the app; if it happens again, tell the app\'s maker.',
  sv: 'Gå tillbaka till appen; händer det igen, berätta det för den som gjort appen.',
};

const SAID: Readonly<Record<ErrorKind, { what: Localized; todo: Localized }>> = {
  unknown_app: {
    what: { en: 'The app that sent you here is not registered with this service, so it cannot sign you in here.', sv: 'Appen som skickade dig hit är inte registrerad hos den här tjänsten, så den kan inte logga in dig här.' },
    todo: ASK_MAKER,
  },
  unregistered_address: {
    what: {
      en: 'The app asked for you to be sent on to an address that is not registered for it. To protect you, you are not sent there.',
      sv: 'Appen bad att du skulle skickas vidare till en adress som inte är registrerad för den. För att skydda dig skickas du inte dit.',
    },
    todo: ASK_MAKER,
  },
  expired: {
    what: {
      en: 'This sign-in has expired, or it was begun in another browser and is not known here.',
      sv: 'Den här inloggningen har gått ut, eller så påbörjades den i en annan webbläsare och är inte känd här.',
    },
    todo: START_AGAIN,
  },
  too_large: {
    what: { en: 'What was sent here is too large to be a sign-in request.', sv: 'Det som skickades hit är för stort för att vara en inloggning.' },
    todo: START_AGAIN,
  },
  not_found: {
    what: { en: 'There is no page at this address; it is not here.', sv: 'Det finns ingen sida på den här adressen; den finns inte.' },
    todo: START_AGAIN,
  },
  wrong_method: {
    what: { en: 'This address does not take what was sent to it.', sv: 'Den här adressen tar inte emot det som skickades hit.' },
    todo: START_AGAIN,
  },
  fault: {
    what: { en: 'Something went wrong on our side. Nothing was granted.', sv: 'Något gick fel hos oss. Inget har beviljats.' },
    todo: { en: 'Try again in a while, from the app.', sv: 'Försök igen om en stund, från appen.' },
  },
  invalid: {
    what: { en: 'The app\'s request cannot be used here. Nothing was granted.', sv: 'Appens begäran kan inte användas här. Inget har beviljats.' },
    todo: ASK_MAKER,
  },
};

const CODE: Localized = { en: 'Error code, for the app\'s maker:', sv: 'Felkod, för den som gjort appen:' };

/** The page; `code` the OAuth error (a fixed word of the protocol, shown as it is) when there is one. */
export function errorPage(frame: PageFrame, kind: ErrorKind, code?: string): string {
  const { lang } = frame;
  const heading = (kind === 'not_found' ? NOT_FOUND_HEADING : HEADING)[lang];
  const said = SAID[kind];
  const detail = code === undefined ? '' : `<p>${CODE[lang]} <code>${escape(code)}</code></p>`;
  return page(frame, heading, `<h1>${heading}</h1><p class="error" role="alert">${said.what[lang]}</p><p>${said.todo[lang]}</p>${detail}`);
}

/** oidc-provider's error, as `renderError` is given it, in the kinds above. */
export function errorKind(out: { error?: unknown; error_description?: unknown }, error: unknown): ErrorKind {
  const name = error instanceof Error ? error.name : '';
  if (name === 'SessionNotFound') return 'expired';
  switch (out.error) {
    case 'invalid_client': return 'unknown_app';
    case 'invalid_redirect_uri': return 'unregistered_address';
    case 'server_error': case 'temporarily_unavailable': return 'fault';
    default:
      // RP-initiated logout refuses an address the app did not register with this description (end_session.js).
      return out.error_description === 'post_logout_redirect_uri not registered' ? 'unregistered_address' : 'invalid';
  }
}

/**
 * The page as an answer of the server's own handlers (the sign-in steps, outside oidc-provider): a
 * sign-in oidc-provider no longer knows (SessionNotFound) is `expired`, anything else a fault.
 */
export function sendErrorPage(req: IncomingMessage, res: ServerResponse, error: unknown, frame: { banner: Localized | string; selfUrl: string }): void {
  const { lang } = languageOf(req);
  const expired = error instanceof Error && error.name === 'SessionNotFound';
  res.writeHead(expired ? 400 : 500, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders(lang) });
  res.end(errorPage({ lang, ...frame }, expired ? 'expired' : 'fault'));
}
