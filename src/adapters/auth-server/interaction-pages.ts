// The authorization server's own pages (the picker, consent), and the frame the sign-in step's pages
// share with them: a banner the demo fills with its notice, and one style.
import { BASIS_NAMES } from '../../domain/access-log/display-names.js';
import { scopeMeaning } from './scope-meanings.js';
import type { LaunchPerson } from '../../ports/smart-launch.port.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}'
  + '.demo{background:#fff4ce;border:1px solid #e0b400;padding:.75rem 1rem;border-radius:.4rem}'
  + '.error{background:#fde7e9;border:1px solid #c50f1f;padding:.75rem 1rem;border-radius:.4rem}'
  + 'table{border-collapse:collapse;width:100%}td,th{text-align:left;vertical-align:top;padding:.4rem;border-bottom:1px solid #ddd}'
  + 'input[type=text]{font-size:1.1rem;padding:.3rem;width:14rem}button{font-size:1rem;padding:.3rem .8rem}'
  + '.people{list-style:none;padding:0}.people li{margin:.5rem 0}';

/** A whole page: `banner` (HTML) above the body on every page of one server (the demo says it is one). */
export function page(title: string, body: string, banner: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escape(title)}</title><style>${STYLE}</style></head><body>`
    + `${banner}${body}</body></html>`;
}

/** The `error` paragraph of a page that refused what was posted. */
export const errorParagraph = (error: string | undefined): string => (error === undefined ? '' : `<p class="error" role="alert">${escape(error)}</p>`);

/**
 * A SMART launch's picker: whose record the app opens, each person by name and relationship and
 * valued by Patient id (never an identity number).
 */
export function pickerPage(input: { banner: string; submitUrl: string; clientId: string; people: readonly LaunchPerson[]; error?: string }): string {
  const error = errorParagraph(input.error);
  const people = input.people.map((p) => `<li><form action="${escape(input.submitUrl)}" method="post">`
    + '<input type="hidden" name="prompt" value="patient">'
    + `<input type="hidden" name="patient" value="${escape(p.patientId)}">`
    + `<button type="submit">${escape(p.name)} <span>(${escape(p.basis === 'self' ? 'yourself' : BASIS_NAMES[p.basis].en.toLowerCase())})</span></button></form></li>`).join('');
  return page('Whose record?', `<h1>Whose record should ${escape(input.clientId)} open?</h1>${error}`
    + `<p>You may open your own record and the records of the people you act for now.</p><ul class="people">${people}</ul>`, input.banner);
}

/** The consent page: which application asks for which scopes (and, in a SMART launch, for whose record). */
export function consentPage(input: { banner: string; submitUrl: string; abortUrl: string; clientId: string; scopes: readonly string[]; patientName?: string }): string {
  const scopes = input.scopes.map((s) => {
    const meaning = scopeMeaning(s);
    return `<li>${meaning === undefined ? '' : `${escape(meaning)}: `}<code>${escape(s)}</code></li>`;
  }).join('');
  const whom = input.patientName === undefined ? 'as you, for you or for the people you act for' : `with the record of ${escape(input.patientName)}`;
  return page('Demo consent', `<h1>${escape(input.clientId)} asks for access</h1>`
    + `<p>It may then, ${whom}:</p><ul>${scopes || '<li>confirm your sign-in</li>'}</ul>`
    + `<form action="${escape(input.submitUrl)}" method="post"><input type="hidden" name="prompt" value="consent">`
    + `<button type="submit">Allow</button></form><p><a href="${escape(input.abortUrl)}">Cancel</a></p>`, input.banner);
}
