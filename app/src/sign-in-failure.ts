/**
 * What the app says when a sign-in comes back without a token. The way back is an address anyone can
 * link to, so nothing of it but a code the protocol defines is repeated: an `error_description`, or a
 * library's message, would be someone else's words under the app's heading (hostile review, finding 1).
 */
import type { Words } from './i18n.js';

/** RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6: the codes an authorization answer may carry. */
const KNOWN_CODES = new Set([
  'invalid_request', 'unauthorized_client', 'access_denied', 'unsupported_response_type', 'invalid_scope',
  'server_error', 'temporarily_unavailable', 'interaction_required', 'login_required', 'account_selection_required',
  'consent_required', 'invalid_request_uri', 'invalid_request_object', 'request_not_supported',
  'request_uri_not_supported', 'registration_not_supported', 'invalid_grant', 'invalid_client',
]);

const AGAIN: Words = { sv: 'Börja om med Logga in.', en: 'Start again with Sign in.' };
const LATER: Words = { sv: 'Inloggningstjänsten kan inte svara just nu. Försök igen om en stund.', en: 'The sign-in service cannot answer right now. Try again in a while.' };
const CODE: Words = { sv: 'Felkod, för appens utvecklare', en: 'Error code, for the app\'s maker' };

/** The app's own words for a failed sign-in whose way back carried `params`, in both languages. */
export function signInFailure(params: URLSearchParams): Words {
  const code = params.get('error') ?? '';
  const known = KNOWN_CODES.has(code);
  const said = code === 'temporarily_unavailable' ? LATER : AGAIN;
  const say = (lang: keyof Words) => known ? `${said[lang]} ${CODE[lang]}: ${code}` : said[lang];
  return { sv: say('sv'), en: say('en') };
}
