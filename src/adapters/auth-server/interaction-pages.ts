// The authorization server's own pages (the picker, consent), and the frame the sign-in step's pages
// share with them: Swedish or English with a switch between them, a banner the demo fills with its
// notice, a `main` landmark, and one style that fits a phone's 390 px without sideways scrolling.
import type { AccessBasis } from '../../domain/access/relationship.js';
import { CSRF_FIELD } from './form-tokens.js';
import { localized, type Lang, type Localized } from './page-language.js';
import { scopeMeaning, scopeOpensFor, scopeReach, sharingScope } from './scope-meanings.js';
import type { LaunchPerson, OpenedParts } from '../../ports/smart-launch.port.js';
import { ownPath, requestTarget } from './request-target.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const STYLE = '*{box-sizing:border-box}'
  + 'body{font-family:system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem;color:#1b1b1b;overflow-wrap:anywhere;line-height:1.4}'
  + '.demo{background:#fff4ce;border:1px solid #8a6d00;padding:.75rem 1rem;border-radius:.4rem}'
  + '.error{background:#fde7e9;border:1px solid #c50f1f;padding:.75rem 1rem;border-radius:.4rem}'
  + 'nav ul{list-style:none;display:flex;gap:1rem;padding:0;margin:.5rem 0;justify-content:flex-end}'
  + 'a{color:#0b5cad}'
  + 'input[type=text]{font-size:1.1rem;padding:.3rem;width:14rem;max-width:100%}button{font-size:1rem;padding:.4rem .8rem;max-width:100%}'
  + '.people{list-style:none;padding:0}.people li{margin:.75rem 0;padding-bottom:.75rem;border-bottom:1px solid #ddd}'
  + '.people p{margin:.25rem 0}.scopes li{margin:.5rem 0}.people .scopes li{border:0;padding:0}.reach{display:block;color:#3b3b3b}'
  + '.scope{display:block;color:#595959;font-size:.85rem}';

export interface PageFrame {
  lang: Lang;
  /** HTML above every page of one server (the demo says it is one), in the page's language. */
  banner: Localized | string;
  /**
   * This page's own address, to which the language switch adds `?lang=`. None on a page its address cannot
   * show again (the region's answer at `/callback`, whose state is spent), nor on a login's refusal, whose
   * address runs the refused step again: no switch, the page already in the person's language (helper-196,
   * F1, and re-review helper-197, F3: the switch ran the step again, a refusal and an audit record a click).
   */
  selfUrl?: string;
}

/** `frame` with no language switch (see PageFrame.selfUrl). */
export const withoutSwitch = ({ lang, banner }: PageFrame): PageFrame => ({ lang, banner });

const SWITCH: Readonly<Record<Lang, { label: string; name: string }>> = {
  sv: { label: 'Språk', name: 'Svenska' },
  en: { label: 'Language', name: 'English' },
};

function languageSwitch(frame: PageFrame): string {
  if (frame.selfUrl === undefined) return '';
  const other: Lang = frame.lang === 'sv' ? 'en' : 'sv';
  const url = requestTarget(frame.selfUrl);
  url.searchParams.set('lang', other);
  return `<nav aria-label="${SWITCH[frame.lang].label}"><ul><li><a href="${escape(`${ownPath(url.pathname)}${url.search}`)}" lang="${other}" hreflang="${other}">`
    + `${SWITCH[other].name}</a></li></ul></nav>`;
}

/** A whole page: the banner and the language switch in its header, `body` its main content. */
export function page(frame: PageFrame, title: string, body: string): string {
  return `<!DOCTYPE html><html lang="${frame.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escape(title)}</title><style>${STYLE}</style></head><body>`
    + `<header>${languageSwitch(frame)}${localized(frame.banner, frame.lang)}</header><main>${body}</main></body></html>`;
}

/** The hidden field carrying the form's token (form-tokens.ts): first in every form of these pages. */
export const csrfField = (token: string): string => `<input type="hidden" name="${CSRF_FIELD}" value="${escape(token)}">`;

/**
 * The form that cancels a sign-in: a post of the page's token to the interaction's `/abort`, as every step
 * of the sign-in is, so another site's link cancels nothing (re-review helper-171, F3: a GET did, and at
 * consent recorded a refused consent in the person's log).
 */
export const cancelForm = (abortUrl: string, csrf: string, text: string): string =>
  `<form action="${escape(abortUrl)}" method="post">${csrfField(csrf)}<button type="submit">${escape(text)}</button></form>`;

const CANCEL_WORDS = {
  title: { en: 'Cancel the sign-in?', sv: 'Avbryta inloggningen?' },
  text: { en: 'The app is told that you cancelled, and is given nothing.', sv: 'Appen får veta att du avbröt, och får ingenting.' },
  cancel: { en: 'Cancel the sign-in', sv: 'Avbryt inloggningen' },
  back: { en: 'Go on with the sign-in', sv: 'Fortsätt logga in' },
} as const;

/** A GET of `/abort` (a link, a bookmark): the person is asked, and cancels with the page's own form. */
export function cancelPage(frame: PageFrame, input: { abortUrl: string; backUrl: string; csrf: string }): string {
  const { lang } = frame;
  return page(frame, CANCEL_WORDS.title[lang], `<h1>${CANCEL_WORDS.title[lang]}</h1><p>${CANCEL_WORDS.text[lang]}</p>`
    + `${cancelForm(input.abortUrl, input.csrf, CANCEL_WORDS.cancel[lang])}<p><a href="${escape(input.backUrl)}">${CANCEL_WORDS.back[lang]}</a></p>`);
}

/** The `error` paragraph of a page that refused what was posted. */
export const errorParagraph = (error: string | undefined): string => (error === undefined ? '' : `<p class="error" role="alert">${escape(error)}</p>`);

/** How the signed-in person stands to someone on the picker: "you are their guardian", not "(guardian)". */
export const STANDING: Readonly<Record<AccessBasis, Localized>> = {
  self: { en: 'yourself', sv: 'du själv' },
  guardian: { en: 'you are their guardian', sv: 'du är vårdnadshavare' },
  'power-of-attorney': { en: 'you hold their power of attorney', sv: 'du är ombud med fullmakt' },
  partner: { en: 'you are their partner', sv: 'du är närstående (partner)' },
  proxy: { en: 'they shared their record with you', sv: 'de har delat sin journal med dig' },
  client: { en: 'as the care provider\'s system', sv: 'som vårdgivarens system' },
};

export const PICKER_ERRORS = {
  nobody: { en: 'This person has no record here to open.', sv: 'Det finns ingen journal här att öppna för dig.' },
  pick: { en: 'Pick one of the people below.', sv: 'Välj en av personerna nedan.' },
} as const satisfies Record<string, Localized>;

/**
 * A SMART launch's picker: whose record the app opens, each person by name and how the person signed
 * in stands to them, valued by Patient id (never an identity number).
 */
export function pickerPage(frame: PageFrame, input: { submitUrl: string; appName: string; csrf: string; people: readonly LaunchPerson[]; error?: Localized }): string {
  const { lang } = frame;
  const people = input.people.map((p) => `<li><form action="${escape(input.submitUrl)}" method="post">${csrfField(input.csrf)}`
    + '<input type="hidden" name="prompt" value="patient">'
    + `<input type="hidden" name="patient" value="${escape(p.patientId)}">`
    + `<button type="submit">${escape(p.name)} <span>— ${escape(STANDING[p.basis][lang])}</span></button></form></li>`).join('');
  const title = { en: 'Whose record?', sv: 'Vems journal?' }[lang];
  const heading = { en: `Whose record should ${escape(input.appName)} open?`, sv: `Vems journal ska ${escape(input.appName)} öppna?` }[lang];
  const intro = { en: 'You may open your own record and the records of the people you act for now.', sv: 'Du kan öppna din egen journal och journalerna för dem du företräder just nu.' }[lang];
  return page(frame, title, `<h1>${heading}</h1>${errorParagraph(input.error?.[lang])}<p>${intro}</p><ul class="people">${people}</ul>`);
}

/** Names as a person reads them: "A, B and C". */
function nameList(names: readonly string[], lang: Lang): string {
  const and = { en: ' and ', sv: ' och ' }[lang];
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')}${and}${names.at(-1) ?? ''}`;
}

/** One person on the consent page: a name, the right it rests on, and what of the record it opens (LaunchPerson). */
export interface ConsentPerson {
  name: string;
  basis: AccessBasis;
  opens?: OpenedParts;
}

/** Said after someone who shared part of their record: the scope reaches only that. */
const SHARED: Localized = { en: ' (what was shared with you)', sv: ' (det som delats med dig)' };
/** Said for a scope that opens nothing of what the person picked shared. */
const NOTHING_SHARED: Localized = { en: 'Whose records: nobody\'s (none of this was shared with you)', sv: 'Vems journaler: ingens (inget av detta har delats med dig)' };
/** Said for a scope that opens nothing of the person picked by another right: the release policy takes it whole. */
const NOTHING_SHOWN: Localized = { en: 'Whose records: nobody\'s (none of this may be shown to you)', sv: 'Vems journaler: ingens (inget av detta får visas för dig)' };

/** Said for a scope this server has no words for: neither door takes it (helper-147, F8), so it opens nothing. */
const UNKNOWN_SCOPE: Localized = { en: 'Nothing: this service does not know this permission', sv: 'Ingenting: tjänsten känner inte till den här behörigheten' };

/**
 * Whose records a scope of sharing reaches: in an app opened for someone else, her own grants, to see
 * under a user/ scope alone; where the region does not offer sharing, nobody's.
 */
const OWN_GRANTS: Readonly<Record<'yours' | 'seeOnly' | 'nobody' | 'notOffered', Localized>> = {
  yours: { en: 'Whose records: yours', sv: 'Vems journaler: din egen' },
  seeOnly: { en: 'Whose records: yours, to see only (to share it, open the app for yourself)', sv: 'Vems journaler: din egen, bara att se (öppna appen för dig själv för att dela den)' },
  nobody: { en: 'Whose records: nobody\'s (sharing your record needs the app opened for yourself)', sv: 'Vems journaler: ingens (att dela din journal kräver att appen öppnas för dig själv)' },
  notOffered: { en: 'Whose records: nobody\'s (this region does not offer sharing your record)', sv: 'Vems journaler: ingens (regionen erbjuder inte att dela din journal)' },
};

/**
 * The consent page: which application asks for which scopes, each in words (the scope as written in
 * small print after them), and whose records each one reaches by name: `patient/` the person picked,
 * `user/` everyone the person may act for.
 */
export function consentPage(frame: PageFrame, input: {
  submitUrl: string; abortUrl: string; appName: string; scopes: readonly string[];
  /** The form's token (form-tokens.ts). */
  csrf: string;
  /** The person picked, in a SMART launch, and on what the signed-in person reads them. */
  picked?: ConsentPerson;
  /** Everyone the signed-in person may act for now, themself first, and on what (a proxy: what was shared). */
  everyone: readonly ConsentPerson[];
  /** Whether the region offers sharing (SmartLaunchContext.sharingOffered). */
  sharingOffered: boolean;
}): string {
  const { lang } = frame;
  const reachText = (scope: string): string => {
    const sharing = sharingScope(scope);
    // Where sharing is off, both doors refuse every sharing route (helper-147, F3).
    if (sharing !== undefined && !input.sharingOffered) return `<span class="reach">${OWN_GRANTS.notOffered[lang]}</span>`;
    if (sharing !== undefined && input.picked !== undefined && input.picked.basis !== 'self') {
      // Said for someone else picked alone (helper-146, LOW-2): both doors then refuse sharing's changes, and read her grants under user/ alone.
      const whose = !sharing.reads ? OWN_GRANTS.nobody : sharing.writes ? OWN_GRANTS.seeOnly : OWN_GRANTS.yours;
      return `<span class="reach">${whose[lang]}</span>`;
    }
    const reach = scopeReach(scope);
    if (reach === 'none') return '';
    const reached = reach === 'picked' && input.picked !== undefined ? [input.picked] : input.everyone;
    const names = reached.filter((p) => scopeOpensFor(scope, p.opens)).map((p) => (p.basis === 'proxy' ? `${p.name}${SHARED[lang]}` : p.name));
    // A picked person the scope opens nothing of (helper-106, F1): said so, and why.
    if (names.length === 0 && reached.length > 0) return `<span class="reach">${(reached[0]?.basis === 'proxy' ? NOTHING_SHARED : NOTHING_SHOWN)[lang]}</span>`;
    const whose = names.length === 0 ? { en: 'you and the people you act for', sv: 'dig och dem du företräder' }[lang] : nameList(names, lang);
    return `<span class="reach">${{ en: 'Whose records: ', sv: 'Vems journaler: ' }[lang]}${escape(whose)}</span>`;
  };
  const scopes = input.scopes.map((s) => {
    // The words first; the scope as written after them in small print, for the app's maker (issue 55 item 7).
    const meaning = scopeMeaning(s, lang);
    const code = `<code>${escape(s)}</code>`;
    return `<li>${escape(meaning ?? UNKNOWN_SCOPE[lang])}${reachText(s)}<small class="scope">${code}</small></li>`;
  }).join('');
  const title = { en: 'Allow access?', sv: 'Ge åtkomst?' }[lang];
  const heading = { en: `${escape(input.appName)} asks for access`, sv: `${escape(input.appName)} ber om åtkomst` }[lang];
  const whom = input.picked === undefined
    ? { en: 'It may then:', sv: 'Appen får då:' }[lang]
    : { en: `It opens the record of ${escape(input.picked.name)} and may then:`, sv: `Appen öppnar journalen för ${escape(input.picked.name)} och får då:` }[lang];
  const none = { en: 'confirm your sign-in', sv: 'bekräfta din inloggning' }[lang];
  return page(frame, title, `<h1>${heading}</h1><p>${whom}</p><ul class="scopes">${scopes || `<li>${none}</li>`}</ul>`
    + `<form action="${escape(input.submitUrl)}" method="post">${csrfField(input.csrf)}<input type="hidden" name="prompt" value="consent">`
    + `<button type="submit">${{ en: 'Allow', sv: 'Tillåt' }[lang]}</button></form>`
    + cancelForm(input.abortUrl, input.csrf, { en: 'Cancel', sv: 'Avbryt' }[lang]));
}
