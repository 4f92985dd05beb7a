// The demo authorization server's sign-in page, in Swedish and English: it says it is a demo, lists
// the demo people with what each one shows, and tells a person who typed something else what went wrong.
import { csrfField, errorParagraph, escape, page, type PageFrame } from '../../adapters/auth-server/interaction-pages.js';
import type { Lang, Localized } from '../../adapters/auth-server/page-language.js';
import { DEMO_PERSONS } from './demo-persons.js';

/** Above every page of the demo authorization server. */
export const DEMO_BANNER: Localized = {
  en: '<p class="demo"><strong>Demo only.</strong> This is the demo authorization server of the Patient Data Access Service. '
    + 'It signs in the six synthetic demo people (Swedish test identity numbers), with no password and no real '
    + 'identification. Set AUTH_ISSUER to use a real authorization server.</p>',
  sv: '<p class="demo"><strong>Endast demo.</strong> Det här är demoinloggningen till Patient Data Access Service. '
    + 'Den loggar in de sex påhittade demopersonerna (svenska testpersonnummer), utan lösenord och utan riktig '
    + 'identifiering. Ange AUTH_ISSUER för att använda en riktig inloggning.</p>',
};

const TEXT = {
  en: {
    title: 'Demo sign-in', heading: (app: string) => `Sign in to ${app}`, label: 'Identity number of a demo person (12 digits)',
    submit: 'Sign in', people: 'The demo people', as: (first: string) => `Sign in as ${first}`,
  },
  sv: {
    title: 'Demoinloggning', heading: (app: string) => `Logga in i ${app}`, label: 'Personnummer för en demoperson (12 siffror)',
    submit: 'Logga in', people: 'Demopersonerna', as: (first: string) => `Logga in som ${first}`,
  },
} as const;

/** The sign-in page, each form with the token `csrf`; `error` says what was wrong with the last try (what was typed is not shown again). */
export function loginPage(frame: PageFrame, input: { submitUrl: string; appName: string; csrf: string; error?: string }): string {
  const text = TEXT[frame.lang];
  const token = csrfField(input.csrf);
  const people = DEMO_PERSONS.map((p) => `<li><p><strong>${escape(p.name)}</strong> <code>${p.identityNumber}</code></p>`
    + `<p>${escape(frame.lang === 'sv' ? p.showsSv : p.shows)}</p>`
    + `<form action="${escape(input.submitUrl)}" method="post">${token}<input type="hidden" name="prompt" value="login">`
    + `<input type="hidden" name="login" value="${p.identityNumber}"><button type="submit">${escape(text.as(p.name.split(' ')[0] ?? p.name))}</button></form></li>`)
    .join('');
  return page(frame, text.title, `<h1>${escape(text.heading(input.appName))}</h1>${errorParagraph(input.error)}`
    + `<form action="${escape(input.submitUrl)}" method="post" autocomplete="off">${token}`
    + '<input type="hidden" name="prompt" value="login">'
    + `<label>${text.label}<br>`
    + '<input type="text" name="login" inputmode="numeric" maxlength="20" required autofocus></label> '
    + `<button type="submit">${text.submit}</button></form>`
    + `<h2>${text.people}</h2><ul class="people">${people}</ul>`);
}

const PROBLEMS = {
  empty: { en: 'Type the identity number of one of the demo people below, or pick one.', sv: 'Skriv personnumret för en av demopersonerna nedan, eller välj en.' },
  form: {
    en: 'That is not an identity number: type its 12 digits, YYYYMMDDNNNN (a dash before the last four is fine).',
    sv: 'Det är inget personnummer: skriv dess 12 siffror, ÅÅÅÅMMDDNNNN (ett bindestreck före de fyra sista går bra).',
  },
  unknown: {
    en: 'That number is not one of the demo people. This demo server signs in only the six people below; pick one of them.',
    sv: 'Det numret tillhör ingen av demopersonerna. Den här demoservern loggar bara in de sex personerna nedan; välj en av dem.',
  },
} as const satisfies Record<string, Localized>;

/** Why a typed login is not a demo person, in words for the person who typed it; undefined when it is one. */
export function loginProblem(typed: string, lang: Lang = 'en'): string | undefined {
  const compact = typed.replace(/[\s-]/g, '');
  if (compact === '') return PROBLEMS.empty[lang];
  if (!/^[0-9]{12}$/.test(compact)) return PROBLEMS.form[lang];
  if (!DEMO_PERSONS.some((p) => p.identityNumber === compact)) return PROBLEMS.unknown[lang];
  return undefined;
}
