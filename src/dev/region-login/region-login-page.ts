// The stand-in region login's one page (region-login.ts), in Swedish and English: it says at the top
// that it is a development stand-in and signs in whoever is named, then asks who signs in: any valid
// identity or coordination number typed, or one of the demo data's people picked; or the login is cancelled.
import { errorParagraph, escape, page, type PageFrame } from '../../adapters/auth-server/interaction-pages.js';
import type { Lang, Localized } from '../../adapters/auth-server/page-language.js';
import { DEMO_PERSONS } from '../demo-issuer/demo-persons.js';

/** Above every page of the stand-in. */
export const STAND_IN_BANNER: Localized = {
  en: '<p class="demo"><strong>Development stand-in for the region\'s login, not for production.</strong> It signs in whoever you name, '
    + 'with no identification, at LoA 3 (npm run region-login, docs/sign-in.md). Use it on your own machine until the region\'s login is ready.</p>',
  sv: '<p class="demo"><strong>Utvecklingsersättare för regionens inloggning, inte för drift.</strong> Den loggar in den du anger, '
    + 'utan identifiering, på tillitsnivå 3 (npm run region-login, docs/sign-in.md). Använd den på din egen dator tills regionens inloggning finns.</p>',
};

const TEXT = {
  en: {
    title: 'Region login (stand-in)', heading: 'Who signs in?', label: 'Identity or coordination number (12 digits)', submit: 'Sign in',
    people: 'People of the demo data', as: (name: string) => `Sign in as ${name}`, cancel: 'Cancel the login',
  },
  sv: {
    title: 'Regionens inloggning (ersättare)', heading: 'Vem loggar in?', label: 'Person- eller samordningsnummer (12 siffror)', submit: 'Logga in',
    people: 'Personer i demodatan', as: (name: string) => `Logga in som ${name}`, cancel: 'Avbryt inloggningen',
  },
} as const;

export const NOT_A_NUMBER: Localized = {
  en: 'That is not a valid identity or coordination number: type its 12 digits, YYYYMMDDNNNC, with a valid check digit.',
  sv: 'Det är inget giltigt person- eller samordningsnummer: skriv dess 12 siffror, ÅÅÅÅMMDDNNNK, med giltig kontrollsiffra.',
};

const loginForm = (action: string, lang: Lang): string => `<form action="${escape(action)}" method="post" autocomplete="off">`
  + `<label>${TEXT[lang].label}<br><input type="text" name="login" inputmode="numeric" maxlength="20" required autofocus></label> `
  + `<button type="submit">${TEXT[lang].submit}</button></form>`;

/** The page: the form, the demo people as one-press logins, and a way to cancel; `error` says what was wrong with the last try. */
export function standInLoginPage(frame: PageFrame, input: { submitUrl: string; cancelUrl: string; error?: string }): string {
  const text = TEXT[frame.lang];
  const people = DEMO_PERSONS.map((p) => `<li><form action="${escape(input.submitUrl)}" method="post">`
    + `<input type="hidden" name="login" value="${p.identityNumber}"><button type="submit">${escape(text.as(p.name))}</button> <code>${p.identityNumber}</code></form></li>`)
    .join('');
  return page(frame, text.title, `<h1>${text.heading}</h1>${errorParagraph(input.error)}${loginForm(input.submitUrl, frame.lang)}`
    + `<h2>${text.people}</h2><ul class="people">${people}</ul><p><a href="${escape(input.cancelUrl)}">${text.cancel}</a></p>`);
}
