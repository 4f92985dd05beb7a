// The demo authorization server's sign-in and consent pages: they say it is a demo, list the demo
// people with what each one shows, and tell a person who typed something else what went wrong.
import { BASIS_NAMES } from '../../domain/access-log/display-names.js';
import { DEMO_PERSONS } from './demo-persons.js';
import { scopeMeaning } from './scope-meanings.js';
import type { LaunchPerson } from '../../ports/smart-launch.port.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}'
  + '.demo{background:#fff4ce;border:1px solid #e0b400;padding:.75rem 1rem;border-radius:.4rem}'
  + '.error{background:#fde7e9;border:1px solid #c50f1f;padding:.75rem 1rem;border-radius:.4rem}'
  + 'table{border-collapse:collapse;width:100%}td,th{text-align:left;vertical-align:top;padding:.4rem;border-bottom:1px solid #ddd}'
  + 'input[type=text]{font-size:1.1rem;padding:.3rem;width:14rem}button{font-size:1rem;padding:.3rem .8rem}'
  + '.people{list-style:none;padding:0}.people li{margin:.5rem 0}';

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escape(title)}</title><style>${STYLE}</style></head><body>`
    + '<p class="demo"><strong>Demo only.</strong> This is the demo authorization server of the Patient Data Access Service. '
    + 'It signs in the six synthetic demo people below (Swedish test identity numbers), with no password and no real '
    + 'identification. Set AUTH_ISSUER to use a real authorization server.</p>'
    + `${body}</body></html>`;
}

/** The sign-in page; `error` says what was wrong with the last try (what was typed is not shown again). */
export function loginPage(input: { submitUrl: string; clientId: string; error?: string }): string {
  const people = DEMO_PERSONS.map((p) => `<tr><td><code>${p.identityNumber}</code></td><td>${escape(p.name)}</td><td>${escape(p.shows)}</td>`
    + `<td><form action="${escape(input.submitUrl)}" method="post"><input type="hidden" name="prompt" value="login">`
    + `<input type="hidden" name="login" value="${p.identityNumber}"><button type="submit">Sign in as ${escape(p.name.split(' ')[0] ?? p.name)}</button></form></td></tr>`)
    .join('');
  const error = input.error === undefined ? '' : `<p class="error" role="alert">${escape(input.error)}</p>`;
  return page('Demo sign-in', `<h1>Sign in to ${escape(input.clientId)}</h1>${error}`
    + `<form action="${escape(input.submitUrl)}" method="post" autocomplete="off">`
    + '<input type="hidden" name="prompt" value="login">'
    + '<label>Identity number of a demo person (12 digits)<br>'
    + `<input type="text" name="login" inputmode="numeric" maxlength="20" required autofocus></label> `
    + '<button type="submit">Sign in</button></form>'
    + `<h2>The demo people</h2><table><thead><tr><th>Identity number</th><th>Name</th><th>What signing in as them shows</th><th></th></tr></thead><tbody>${people}</tbody></table>`);
}

/**
 * A SMART launch's picker: whose record the app opens, each person by name and relationship and
 * valued by Patient id (never an identity number).
 */
export function pickerPage(input: { submitUrl: string; clientId: string; people: readonly LaunchPerson[]; error?: string }): string {
  const error = input.error === undefined ? '' : `<p class="error" role="alert">${escape(input.error)}</p>`;
  const people = input.people.map((p) => `<li><form action="${escape(input.submitUrl)}" method="post">`
    + '<input type="hidden" name="prompt" value="patient">'
    + `<input type="hidden" name="patient" value="${escape(p.patientId)}">`
    + `<button type="submit">${escape(p.name)} <span>(${escape(p.basis === 'self' ? 'yourself' : BASIS_NAMES[p.basis].en.toLowerCase())})</span></button></form></li>`).join('');
  return page('Whose record?', `<h1>Whose record should ${escape(input.clientId)} open?</h1>${error}`
    + `<p>You may open your own record and the records of the people you act for now.</p><ul class="people">${people}</ul>`);
}

/** The consent page: which application asks for which scopes (and, in a SMART launch, for whose record). */
export function consentPage(input: { submitUrl: string; abortUrl: string; clientId: string; scopes: readonly string[]; patientName?: string }): string {
  const scopes = input.scopes.map((s) => {
    const meaning = scopeMeaning(s);
    return `<li>${meaning === undefined ? '' : `${escape(meaning)}: `}<code>${escape(s)}</code></li>`;
  }).join('');
  const whom = input.patientName === undefined ? 'as you, for you or for the people you act for' : `with the record of ${escape(input.patientName)}`;
  return page('Demo consent', `<h1>${escape(input.clientId)} asks for access</h1>`
    + `<p>It may then, ${whom}:</p><ul>${scopes || '<li>confirm your sign-in</li>'}</ul>`
    + `<form action="${escape(input.submitUrl)}" method="post"><input type="hidden" name="prompt" value="consent">`
    + `<button type="submit">Allow</button></form><p><a href="${escape(input.abortUrl)}">Cancel</a></p>`);
}

/** Why a typed login is not a demo person, in words for the person who typed it; undefined when it is one. */
export function loginProblem(typed: string): string | undefined {
  const compact = typed.replace(/[\s-]/g, '');
  if (compact === '') return 'Type the identity number of one of the demo people below, or pick one.';
  if (!/^[0-9]{12}$/.test(compact)) {
    return 'That is not an identity number: type its 12 digits, YYYYMMDDNNNN (a dash before the last four is fine).';
  }
  if (!DEMO_PERSONS.some((p) => p.identityNumber === compact)) {
    return 'That number is not one of the demo people. This demo server signs in only the six people below; pick one of them.';
  }
  return undefined;
}
