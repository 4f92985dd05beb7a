// The connected-apps page in Swedish and English, without JavaScript: each app holding a grant to the
// records of the signed-in person or of someone they act for, what it may do, and a button to revoke it.
import type { ConnectedApp } from './connected-apps.js';
import { csrfField, escape, page, STANDING, type PageFrame } from './interaction-pages.js';
import type { Lang } from './page-language.js';
import { scopeMeaning } from './scope-meanings.js';

const TEXT = {
  en: {
    title: 'Connected apps', throughApp: 'You are not signed in here. Sign in through an app, such as the patient app, then come back to this page.',
    openApp: 'Open the patient app', intro: (name: string) => `Signed in as ${name}. These apps may read your record or the records of the people you act for. `
      + 'Revoking one ends its access at once: it cannot read more without asking again.',
    none: 'No app holds access to your record or to the records of the people you act for.',
    record: (name: string, standing: string) => `Opens the record of ${name} (${standing}).`,
    everyone: 'Opens your record and the records of the people you act for.',
    allowedBy: { you: 'You allowed it', patient: 'The patient allowed it', another: 'Someone else who acts for the patient allowed it' },
    on: 'on', may: 'It may:', revoke: (app: string, name: string) => `Revoke ${app}'s access to ${name}'s record`,
    revoked: 'The access was revoked.', gone: 'That app no longer holds access here.',
    nothingRevoked: 'Nothing was revoked.', listUnavailable: (open: string) => `The list of your apps cannot be shown just now. ${open} in a minute.`, openList: 'Open the list again',
    refused: 'That was not sent from this page, so nothing was revoked. To revoke an app\'s access, use its button below.',
    tooLarge: 'What was sent was too large, so nothing was revoked. To revoke an app\'s access, use its button below.',
    signedOut: 'You signed out of this page.', notHere: 'You are not signed in on this page.', signIn: 'Sign in',
    signOut: 'Sign out', signOutHint: 'On a shared computer, sign out when you are done.',
  },
  sv: {
    title: 'Anslutna appar', throughApp: 'Du är inte inloggad här. Logga in via en app, till exempel patientappen, och kom sedan tillbaka hit.',
    openApp: 'Öppna patientappen', intro: (name: string) => `Inloggad som ${name}. De här apparna får läsa din journal eller journalerna för dem du företräder. `
      + 'Om du återkallar en app slutar dess åtkomst direkt: den kan inte läsa mer utan att fråga igen.',
    none: 'Ingen app har åtkomst till din journal eller till journalerna för dem du företräder.',
    record: (name: string, standing: string) => `Öppnar journalen för ${name} (${standing}).`,
    everyone: 'Öppnar din journal och journalerna för dem du företräder.',
    allowedBy: { you: 'Du tillät det', patient: 'Patienten tillät det', another: 'Någon annan som företräder patienten tillät det' },
    on: 'den', may: 'Appen får:', revoke: (app: string, name: string) => `Återkalla ${app}s åtkomst till journalen för ${name}`,
    revoked: 'Åtkomsten är återkallad.', gone: 'Den appen har inte längre någon åtkomst här.',
    nothingRevoked: 'Inget återkallades.', listUnavailable: (open: string) => `Listan över dina appar kan inte visas just nu. ${open} om en minut.`, openList: 'Öppna listan igen',
    refused: 'Det skickades inte från den här sidan, så inget återkallades. Använd appens knapp nedan för att återkalla dess åtkomst.',
    tooLarge: 'Det som skickades var för stort, så inget återkallades. Använd appens knapp nedan för att återkalla dess åtkomst.',
    signedOut: 'Du har loggat ut från den här sidan.', notHere: 'Du är inte inloggad på den här sidan.', signIn: 'Logga in',
    signOut: 'Logga ut', signOutHint: 'Logga ut när du är klar om du använder en delad dator.',
  },
} as const;

const when = (seconds: number, lang: Lang): string =>
  new Intl.DateTimeFormat(lang === 'sv' ? 'sv-SE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' }).format(new Date(seconds * 1000));

function appItem(app: ConnectedApp, lang: Lang, submitUrl: string, csrf: string): string {
  const text = TEXT[lang];
  const meanings = app.scopes.filter((s) => s !== 'openid').map((s) => `<li>${escape(scopeMeaning(s, lang) ?? s)}</li>`).join('');
  const name = app.appNames[lang];
  return `<li><h2>${escape(name)}</h2>`
    + `<p>${app.reach === 'everyone' ? text.everyone : escape(text.record(app.patientName, STANDING[app.basis][lang]))} ${text.allowedBy[app.allowedBy]}`
    + `${app.since === undefined ? '' : ` ${text.on} ${escape(when(app.since, lang))}`}.</p>`
    + `${meanings === '' ? '' : `<p>${text.may}</p><ul class="scopes">${meanings}</ul>`}`
    + `<form action="${escape(submitUrl)}" method="post">${csrfField(csrf)}<input type="hidden" name="grant" value="${escape(app.grantId)}">`
    + `<button type="submit">${escape(text.revoke(name, app.patientName))}</button></form></li>`;
}

/** What the page says above the list: after a revoke, why a post revoked nothing, or that the person signed out of the page. */
export type Notice = 'revoked' | 'gone' | 'refused' | 'nothingRevoked' | 'tooLarge' | 'signedOut';

/**
 * The page: signed out (`person` undefined: a link to `signInUrl`, the page's own login, else to the
 * app), or the person's connected apps, each form with the token `csrf`, and with `signOut` a form
 * ending the page's session; `notice` after a post. `apps` 'unavailable': the list could not be read after
 * a post that changed it, which the notice reports.
 */
export function connectedAppsPage(frame: PageFrame, input: {
  submitUrl: string; appUrl: string; csrf: string; person?: string; apps: readonly ConnectedApp[] | 'unavailable'; notice?: Notice; signInUrl?: string; signOut?: boolean;
}): string {
  const text = TEXT[frame.lang];
  const notice = input.notice === undefined ? '' : `<p class="${input.notice === 'revoked' || input.notice === 'signedOut' ? 'demo' : 'error'}" role="status">${text[input.notice]}</p>`;
  if (input.person === undefined) {
    const signIn = input.signInUrl === undefined
      ? `<p>${text.throughApp}</p><p><a href="${escape(input.appUrl)}">${text.openApp}</a></p>`
      : `<p>${text.notHere}</p><p><a href="${escape(input.signInUrl)}">${text.signIn}</a></p>`;
    return page(frame, text.title, `<h1>${text.title}</h1>${notice}${signIn}`);
  }
  const { apps } = input;
  // A link, not "reload": the page answers a post, and reloading it would send the post again (helper-151, LOW-2).
  const list = apps === 'unavailable' ? `<p class="error" role="status">${text.listUnavailable(`<a href="${escape(input.submitUrl)}">${text.openList}</a>`)}</p>`
    : apps.length === 0 ? `<p>${text.none}</p>` : `<ul class="people">${apps.map((a) => appItem(a, frame.lang, input.submitUrl, input.csrf)).join('')}</ul>`;
  const signOut = input.signOut !== true ? ''
    : `<form action="${escape(input.submitUrl)}" method="post">${csrfField(input.csrf)}<input type="hidden" name="signout" value="1">`
      + `<p>${text.signOutHint}</p><button type="submit">${text.signOut}</button></form>`;
  return page(frame, text.title, `<h1>${text.title}</h1>${notice}<p>${escape(text.intro(input.person))}</p>${list}${signOut}`);
}
