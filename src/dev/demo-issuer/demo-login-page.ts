// The demo authorization server's sign-in page: it says it is a demo, lists the demo people with what
// each one shows, and tells a person who typed something else what went wrong.
import { errorParagraph, escape, page } from '../../adapters/auth-server/interaction-pages.js';
import { DEMO_PERSONS } from './demo-persons.js';

/** Above every page of the demo authorization server. */
export const DEMO_BANNER = '<p class="demo"><strong>Demo only.</strong> This is the demo authorization server of the Patient Data Access Service. '
  + 'It signs in the six synthetic demo people below (Swedish test identity numbers), with no password and no real '
  + 'identification. Set AUTH_ISSUER to use a real authorization server.</p>';

/** The sign-in page; `error` says what was wrong with the last try (what was typed is not shown again). */
export function loginPage(input: { submitUrl: string; clientId: string; error?: string }): string {
  const people = DEMO_PERSONS.map((p) => `<tr><td><code>${p.identityNumber}</code></td><td>${escape(p.name)}</td><td>${escape(p.shows)}</td>`
    + `<td><form action="${escape(input.submitUrl)}" method="post"><input type="hidden" name="prompt" value="login">`
    + `<input type="hidden" name="login" value="${p.identityNumber}"><button type="submit">Sign in as ${escape(p.name.split(' ')[0] ?? p.name)}</button></form></td></tr>`)
    .join('');
  const error = errorParagraph(input.error);
  return page('Demo sign-in', `<h1>Sign in to ${escape(input.clientId)}</h1>${error}`
    + `<form action="${escape(input.submitUrl)}" method="post" autocomplete="off">`
    + '<input type="hidden" name="prompt" value="login">'
    + '<label>Identity number of a demo person (12 digits)<br>'
    + `<input type="text" name="login" inputmode="numeric" maxlength="20" required autofocus></label> `
    + '<button type="submit">Sign in</button></form>'
    + `<h2>The demo people</h2><table><thead><tr><th>Identity number</th><th>Name</th><th>What signing in as them shows</th><th></th></tr></thead><tbody>${people}</tbody></table>`, DEMO_BANNER);
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
