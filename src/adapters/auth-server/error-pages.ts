// The authorization server's page for whatever stops a sign-in: an app it does not know, an address the
// app did not register, a sign-in that expired or began in another browser, a request too large, an
// address with no page, a fault of its own. In the person's language, saying what happened and what to
// do; the OAuth error code for the app's maker, never oidc-provider's text or anything internal. No
// link back: where this page is shown, no address the app registered can be trusted with the answer.
// The server's own handlers answer with it too: a form or method a sign-in page does not take, and
// the connected-apps page when the store cannot answer.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { escape, page, type PageFrame } from './interaction-pages.js';
import { pageHeaders } from './page-headers.js';
import { languageOf, type Localized } from './page-language.js';

export type ErrorKind =
  | 'unknown_app' | 'unregistered_address' | 'expired' | 'too_large' | 'not_found' | 'malformed_address' | 'wrong_method' | 'fault' | 'invalid'
  | 'unexpected' | 'apps_unavailable' | 'apps_wrong_method' | 'refused_form';

const HEADING: Localized = { en: 'The sign-in cannot continue', sv: 'Inloggningen kan inte fortsätta' };
const START_AGAIN: Localized = { en: 'Go back to the app and start again from there.', sv: 'Gå tillbaka till appen och börja om därifrån.' };
const ASK_MAKER: Localized = {
  en: 'Go back to the app; if it happens again, tell the app\'s maker.',
  sv: 'Gå tillbaka till appen; händer det igen, berätta det för den som gjort appen.',
};

/** What each kind says: what happened, what to do, and a heading of its own where it is not a stopped sign-in. */
const SAID: Readonly<Record<ErrorKind, { what: Localized; todo: Localized; heading?: Localized }>> = {
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
    heading: { en: 'This page is not here', sv: 'Sidan finns inte' },
    what: { en: 'There is no page at this address; it is not here.', sv: 'Det finns ingen sida på den här adressen; den finns inte.' },
    todo: START_AGAIN,
  },
  // A percent-encoding that is none (`%ff`), or one of a NUL byte: refused before any page is chosen.
  malformed_address: {
    heading: { en: 'This address cannot be read', sv: 'Adressen går inte att läsa' },
    what: {
      en: 'This address cannot be read: it may have been cut short or changed on the way here.',
      sv: 'Den här adressen går inte att läsa: den kan ha kortats av eller ändrats på vägen hit.',
    },
    todo: START_AGAIN,
  },
  wrong_method: {
    what: { en: 'This address does not take what was sent to it.', sv: 'Den här adressen tar inte emot det som skickades hit.' },
    todo: START_AGAIN,
  },
  // A form of another step (a tampered or mixed-up page), or a method no page takes.
  unexpected: {
    what: {
      en: 'This page cannot take what was sent to it (perhaps a form from another page of the sign-in). Nothing was granted.',
      sv: 'Den här sidan kan inte ta emot det som skickades till den (kanske ett formulär från en annan sida i inloggningen). Inget har beviljats.',
    },
    todo: START_AGAIN,
  },
  // The store behind it could not answer: a revocation under way may or may not have been done.
  apps_unavailable: {
    heading: { en: 'Connected apps cannot be shown now', sv: 'Anslutna appar kan inte visas just nu' },
    what: {
      en: 'Something went wrong on our side, so your connected apps could not be read or changed just now.',
      sv: 'Något gick fel hos oss, så dina anslutna appar kunde inte läsas eller ändras just nu.',
    },
    todo: {
      en: 'Try again in a while. If you were revoking an app, open this page again then to see that it is gone.',
      sv: 'Försök igen om en stund. Om du höll på att återkalla en app, öppna sidan igen då och se att den är borta.',
    },
  },
  // A method the connected-apps page takes not (PUT, PATCH): it is no sign-in, so it says so in its own words.
  apps_wrong_method: {
    heading: { en: 'Connected apps cannot do that', sv: 'Anslutna appar kan inte göra det' },
    what: {
      en: 'The connected apps page only shows your apps and takes the buttons on it. What was sent here was neither. Nothing was changed.',
      sv: 'Sidan Anslutna appar visar bara dina appar och tar emot knapparna på den. Det som skickades hit var inget av dem. Ingenting ändrades.',
    },
    todo: {
      en: 'Open the connected apps page again, and use an app\'s button there to revoke its access.',
      sv: 'Öppna sidan Anslutna appar igen och använd en apps knapp där för att återkalla dess åtkomst.',
    },
  },
  fault: {
    what: { en: 'Something went wrong on our side. Nothing was granted.', sv: 'Något gick fel hos oss. Inget har beviljats.' },
    todo: { en: 'Try again in a while, from the app.', sv: 'Försök igen om en stund, från appen.' },
  },
  invalid: {
    what: { en: 'The app\'s request cannot be used here. Nothing was granted.', sv: 'Appens begäran kan inte användas här. Inget har beviljats.' },
    todo: ASK_MAKER,
  },
  // A form without its page's token (form-tokens.ts): posted by something other than this sign-in's page.
  refused_form: {
    what: {
      en: 'What was sent here did not come from this sign-in\'s own page, so nothing was done.',
      sv: 'Det som skickades hit kom inte från den här inloggningens egen sida, så ingenting gjordes.',
    },
    todo: START_AGAIN,
  },
};

/** The longest address a refused request's page links back to (its language switch). */
const MAX_SELF_URL = 1024;

const CODE: Localized = { en: 'Error code, for the app\'s maker:', sv: 'Felkod, för den som gjort appen:' };

/** The page; `code` the OAuth error (a fixed word of the protocol, shown as it is) when there is one. */
export function errorPage(frame: PageFrame, kind: ErrorKind, code?: string): string {
  const { lang } = frame;
  const said = SAID[kind];
  const heading = (said.heading ?? HEADING)[lang];
  const detail = code === undefined ? '' : `<p>${CODE[lang]} <code>${escape(code)}</code></p>`;
  return page(frame, heading, `<h1>${heading}</h1><p class="error" role="alert">${said.what[lang]}</p><p>${said.todo[lang]}</p>${detail}`);
}

/** oidc-provider's descriptions of a sign-out confirmation that is not its question's form. */
const SIGN_OUT_FORM_REFUSALS: ReadonlySet<string> = new Set(['xsrf token invalid', 'could not find logout details']);

/** oidc-provider's error, as `renderError` is given it, in the kinds above. */
export function errorKind(out: { error?: unknown; error_description?: unknown }, error: unknown): ErrorKind {
  const name = error instanceof Error ? error.name : '';
  if (name === 'SessionNotFound') return 'expired';
  switch (out.error) {
    case 'invalid_client': return 'unknown_app';
    case 'invalid_redirect_uri': return 'unregistered_address';
    case 'server_error': case 'temporarily_unavailable': return 'fault';
    default:
      // RP-initiated logout refuses an address the app did not register, and a confirmation without its
      // form's token (or in a browser never asked), by these descriptions (end_session.js, shared/xsrf.js).
      if (out.error_description === 'post_logout_redirect_uri not registered') return 'unregistered_address';
      return SIGN_OUT_FORM_REFUSALS.has(String(out.error_description)) ? 'refused_form' : 'invalid';
  }
}

/** The status of a refusal of `kind`: a form that is not its page's is 403, as every such form is (form-tokens.ts); else oidc-provider's. */
export function statusOf(kind: ErrorKind, status: number): number {
  return kind === 'refused_form' ? 403 : status;
}

/**
 * The page as an answer of the server's own handlers (the sign-in steps, outside oidc-provider): a
 * sign-in oidc-provider no longer knows (SessionNotFound) is `expired`, anything else a fault.
 */
export function sendErrorPage(req: IncomingMessage, res: ServerResponse, error: unknown, frame: { banner: Localized | string; selfUrl: string }): void {
  const expired = error instanceof Error && error.name === 'SessionNotFound';
  sendKindPage(req, res, { status: expired ? 400 : 500, kind: expired ? 'expired' : 'fault' }, frame);
}

/**
 * The page for a request refused before it reached the server (by the HTTP layer, which hands over its
 * address and headers as far as it read them): 400 a malformed address, 431 a request too large. Its
 * language switch points at the address's path alone (the query may be what was too large), or, for
 * an over-long path, at the server's own path.
 */
export function refusedPage(request: { url: string; headers: IncomingHttpHeaders }, status: 400 | 431, mountPath: string): { headers: Record<string, string>; body: string } {
  const { lang } = languageOf(request);
  const path = request.url.split('?')[0] ?? mountPath;
  const selfUrl = path.length <= MAX_SELF_URL ? path : mountPath;
  const kind: ErrorKind = status === 400 ? 'malformed_address' : 'too_large';
  return { headers: { 'content-type': 'text/html; charset=utf-8', ...pageHeaders(lang) }, body: errorPage({ lang, banner: '', selfUrl }, kind) };
}

/** The page of `kind` with `status` (and `headers`, such as a 405's Allow), in the language the request asks for. */
export function sendKindPage(
  req: IncomingMessage, res: ServerResponse, answer: { status: number; kind: ErrorKind; headers?: Record<string, string> }, frame: { banner: Localized | string; selfUrl: string },
): void {
  const { lang } = languageOf(req);
  res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders(lang), ...answer.headers });
  res.end(errorPage({ lang, ...frame }, answer.kind));
}
