// What the sign-in at the region says to the person, and why a login was refused: the pages' words in
// Swedish and English, the refusals told apart from the region's and openid-client's errors (the person
// reads the words, the log and the audit the reason), and the redirect and problem page of region-login.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { cancelForm, escape, page, type PageFrame } from './interaction-pages.js';
import { languageOf, type Localized } from './page-language.js';

/**
 * Why a login signed nobody in, as the audit trail tells them apart: the answer came to no login in
 * progress here or to another browser than the one that went to the region (`not-here`); the region did
 * not sign the person in, or its answer was refused (`refused`); the region would not serve the service
 * itself (`region-failed`: its token endpoint refused the service's client authentication).
 */
export type LoginRefusal = 'not-here' | 'refused' | 'region-failed';

/** What the pages say, in both languages. */
export const TEXT = {
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
  otherBrowser: {
    en: 'This sign-in was not started in this browser, so nobody was signed in. Start the sign-in again in this browser, from the app.',
    sv: 'Inloggningen påbörjades inte i den här webbläsaren, så ingen loggades in. Börja om inloggningen i den här webbläsaren, från appen.',
  },
  finishedElsewhere: {
    en: 'The region\'s login was finished in another browser, so nobody was signed in here. Sign in again.',
    sv: 'Regionens inloggning avslutades i en annan webbläsare, så ingen loggades in här. Logga in igen.',
  },
  stale: {
    en: 'The region\'s login used an earlier login instead of a new one, so nobody was signed in. Sign in again.',
    sv: 'Regionens inloggning använde en tidigare inloggning i stället för en ny, så ingen loggades in. Logga in igen.',
  },
  misconfigured: {
    en: 'This service\'s sign-in is not set up correctly at the region, so nobody can sign in just now. It is nothing you did: try again later.',
    sv: 'Tjänstens inloggning är inte rätt inställd hos regionen, så ingen kan logga in just nu. Det är inget du har gjort: försök igen senare.',
  },
  notRecorded: {
    en: 'The sign-in could not be recorded, so nobody was signed in. Try again in a minute.',
    sv: 'Inloggningen kunde inte registreras, så ingen loggades in. Försök igen om en minut.',
  },
  notSignedIn: { en: 'You are not signed in', sv: 'Du är inte inloggad' },
  unavailableTitle: { en: 'Sign-in is unavailable', sv: 'Inloggningen är inte tillgänglig' },
  again: { en: 'Sign in again', sv: 'Logga in igen' },
  back: { en: 'Back to the app', sv: 'Tillbaka till appen' },
} as const satisfies Record<string, Localized>;

export interface Refused { shown: Localized; reason: string; kind: LoginRefusal }

/** A way on from a problem page: a link, or with `csrf` the sign-in's cancel, a post of the page's form token to `href`. */
export interface ProblemLink { href: string; text: Localized; csrf?: string }

/**
 * Whether the region's token endpoint refused the service itself (RFC 6749 §5.2 `invalid_client`): in
 * the body, or, as a 401 answer to client_secret_basic may, in its WWW-Authenticate challenge.
 */
export function refusedTheClient(error: unknown): boolean {
  if (error instanceof oidc.ResponseBodyError) return error.error === 'invalid_client';
  if (error instanceof oidc.WWWAuthenticateChallengeError) return error.cause.some((c) => c.parameters.error === 'invalid_client');
  return false;
}

/**
 * Why a login was refused, in words for the person; the technical reason goes to the log. `credential`
 * names the setting holding the service's own credential at the region, for an operator to check when
 * the region does not take it.
 */
export function refusalOf(error: unknown, credential: string): Refused {
  if (error instanceof oidc.AuthorizationResponseError) {
    return { shown: error.error === 'access_denied' ? TEXT.cancelled : TEXT.refused, reason: `authorization response: ${error.error}`, kind: 'refused' };
  }
  if (refusedTheClient(error)) {
    return {
      shown: TEXT.misconfigured, kind: 'region-failed',
      reason: `the region's token endpoint answered invalid_client: it does not accept the service's client authentication; check SIGN_IN_LOGIN_CLIENT_ID and ${credential} against the service's registration at the region`,
    };
  }
  if (error instanceof RegionRefusal) return { shown: error.shown, reason: error.message, kind: 'refused' };
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { shown: TEXT.untrusted, reason: `${typeof code === 'string' ? `${code}: ` : ''}${message}`, kind: 'refused' };
}


export class RegionRefusal extends Error {
  constructor(message: string, readonly shown: Localized) {
    super(message);
  }
}

export function redirect(res: ServerResponse, location: string, cookie?: string | string[]): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...(cookie === undefined ? {} : { 'set-cookie': cookie }) });
  res.end();
}

/** The frame of a page at `selfUrl` (none: a page with no language switch, see PageFrame). */
export function frameOf(req: IncomingMessage, selfUrl?: string): PageFrame {
  return { lang: languageOf(req).lang, banner: '', ...(selfUrl === undefined ? {} : { selfUrl }) };
}

export function problemPage(frame: PageFrame, title: Localized, message: Localized, links: ReadonlyArray<ProblemLink>): string {
  const { lang } = frame;
  const items = links.map((l) => `<li>${l.csrf === undefined ? `<a href="${escape(l.href)}">${escape(l.text[lang])}</a>` : cancelForm(l.href, l.csrf, l.text[lang])}</li>`).join('');
  return page(frame, title[lang], `<h1>${escape(title[lang])}</h1><p class="error" role="alert">${escape(message[lang])}</p>${items === '' ? '' : `<ul>${items}</ul>`}`);
}
