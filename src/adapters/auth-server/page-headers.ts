// The headers every page of the authorization server is sent with: a strict CSP (nothing loaded from
// anywhere, inline styles only, never framed), not cached, no referrer. A page that posts a form on by
// itself runs exactly one script, allowed by its hash; no other page runs any.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Lang } from './page-language.js';

// No form-action: a browser holds the redirect after a form (back to the app) to it too.
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/** frame-ancestors 'none' said again for browsers that read no CSP, as the API's and the patient app's answers say it. */
export const NEVER_FRAMED = { 'x-frame-options': 'DENY' } as const;

/**
 * What an answer under the server that is no page carries (its JSON: token, introspection, revocation,
 * the signing keys, discovery, the connected-apps API): never rendered as something else, never framed,
 * as every JSON answer of the API (docs/running.md). A CSP on JSON limits nothing a page fetching it does.
 */
export const JSON_GUARD = {
  'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", ...NEVER_FRAMED,
} as const;

/** A JSON answer of the authorization server (an OAuth error, the connected-apps API): no-store, and JSON_GUARD. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...JSON_GUARD, ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** The one script: the page's form posts itself (a sign-out the app vouched for, an answer to the app). */
export const SUBMIT_SCRIPT = 'document.forms[0].submit()';
const SUBMITTING_CSP = `${PAGE_CSP}; script-src 'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

/** The headers of a page in `lang`; `submits` for one that runs SUBMIT_SCRIPT. Content-Type is the sender's. */
export function pageHeaders(lang: Lang, submits = false): Record<string, string> {
  return {
    'cache-control': 'no-store', 'content-security-policy': submits ? SUBMITTING_CSP : PAGE_CSP, 'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer', 'content-language': lang, vary: 'Accept-Language, Cookie', ...NEVER_FRAMED,
  };
}
