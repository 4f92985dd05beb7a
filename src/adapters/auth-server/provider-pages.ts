// oidc-provider's own HTML pages, each replaced by the service's (issue 52): its error page
// (`renderError`, English only, no CSP, fetching Google Fonts), its page that posts a form on by itself
// (an answer to the app by response_mode=form_post, a sign-out with nobody signed in, a sign-in as
// someone else than the session's), its 404 and 405, and the failures of middleware before its own handlers (a
// form too large). Each in the person's language, under the strict CSP (page-headers.ts).
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { appName, type NamedClient } from './app-names.js';
import { errorKind, errorPage, statusOf, type ErrorKind } from './error-pages.js';
import { BodyTooLarge, statedTooLarge } from './form-limit.js';
import { escape, page, type PageFrame } from './interaction-pages.js';
import { JSON_GUARD, pageHeaders, SUBMIT_SCRIPT } from './page-headers.js';
import { forPerson, servedAt } from './served-methods.js';
import { languageOf, type Localized } from './page-language.js';

/** The fields of oidc-provider's Koa context these pages read and write. */
export interface PageContext {
  req: IncomingMessage;
  method: string;
  path: string;
  originalUrl: string;
  status: number;
  type: string;
  body: unknown;
  set(field: string, value: string): void;
  response: { get(field: string): string | undefined };
  accepts(...types: string[]): string | false;
  oidc?: { client?: NamedClient & { clientId: string }; urlFor(name: string): string };
}

export interface PagesInput {
  /** HTML above every page (the demo's notice), as on the sign-in pages. */
  banner: Localized | string;
  /** Where the server is mounted (`/auth`), '' on a server of its own (the demo's). */
  mountPath: string;
}

/** The frame of a page answering `ctx`: its language, and its own address for the switch (a GET's with its query). */
export function frameOf(ctx: PageContext, input: PagesInput): PageFrame {
  return { lang: languageOf(ctx.req).lang, banner: input.banner, selfUrl: `${input.mountPath}${ctx.method === 'GET' ? ctx.originalUrl : ctx.path}` };
}

/** Sends `html` as the page of `frame`, with the pages' headers; `submits` when it runs SUBMIT_SCRIPT. */
export function answer(ctx: PageContext, frame: PageFrame, html: string, submits = false): void {
  for (const [field, value] of Object.entries(pageHeaders(frame.lang, submits))) ctx.set(field, value);
  ctx.type = 'html';
  ctx.body = html;
}

/** A form that posts itself where scripts run; a button posts it where they do not. */
export function submittingPage(frame: PageFrame, input: { title: string; text: string; action: string; fields: Readonly<Record<string, string>> }): string {
  const { lang } = frame;
  const hidden = Object.entries(input.fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  return page(frame, input.title, `<h1>${escape(input.title)}</h1><form method="post" action="${escape(input.action)}">${hidden}`
    + `<p>${escape(input.text)}</p><button type="submit">${{ en: 'Continue', sv: 'Fortsätt' }[lang]}</button></form><script>${SUBMIT_SCRIPT}</script>`);
}

type OAuthError = { error?: unknown; error_description?: unknown };

/**
 * Whether a refusal is answered with the service's page: always at a person's endpoint, never at one an
 * app calls (token, introspection, revocation, discovery, the keys: an app must read its error in
 * JSON), elsewhere when the request puts HTML first.
 */
function answersWithPage(ctx: PageContext): boolean {
  if (forPerson(ctx.path)) return true;
  if (servedAt(ctx.path)?.backChannel === true) return false;
  return ctx.accepts('json', 'html') === 'html';
}

/** oidc-provider's error as the service's page: the status oidc-provider chose (a form not its page's 403), the OAuth error code shown. */
function errorAnswer(ctx: PageContext, input: PagesInput, out: OAuthError, error: unknown): void {
  const frame = frameOf(ctx, input);
  const kind = errorKind(out, error);
  ctx.status = statusOf(kind, ctx.status);
  answer(ctx, frame, errorPage(frame, kind, typeof out.error === 'string' ? out.error : undefined));
}

/**
 * oidc-provider's `renderError`, which it calls for any request that puts HTML first: the service's
 * error page, but the OAuth error in JSON it would answer any other request where no page is
 * answered (answersWithPage).
 */
export function renderError(input: PagesInput) {
  return (ctx: PageContext, out: OAuthError, error: unknown): Promise<void> => {
    if (answersWithPage(ctx)) errorAnswer(ctx, input, out, error);
    else ctx.body = out;
    return Promise.resolve();
  };
}

/** An OAuth error in JSON, as oidc-provider's error handler answers a request that does not put HTML first. */
function oauthError(body: unknown): OAuthError | undefined {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || typeof (body as OAuthError).error !== 'string') return undefined;
  return body as OAuthError;
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string): string => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * oidc-provider's self-posting page (response_modes/form_post.js), which no setting replaces: its
 * action and fields, read back from the fixed markup it writes (each value escaped by its htmlSafe).
 */
function formPostOf(body: unknown): { action: string; fields: Record<string, string> } | undefined {
  if (typeof body !== 'string' || !body.includes('<title>Submitting Callback</title>')) return undefined;
  const action = /<form method="post" action="([^"]*)">/.exec(body)?.[1];
  if (action === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)) fields[name] = unescape(value);
  return { action: unescape(action), fields };
}

/** The self-posting page in the service's words: signing out, or back to the app with its answer. */
function replaceFormPost(ctx: PageContext, input: PagesInput): void {
  const form = formPostOf(ctx.body);
  if (form === undefined) return;
  const frame = frameOf(ctx, input);
  const { lang } = frame;
  const client = ctx.oidc?.client;
  const app = client === undefined ? { en: 'the app', sv: 'appen' }[lang] : appName(client, client.clientId, lang);
  const signingOut = ctx.oidc !== undefined && form.action === ctx.oidc.urlFor('end_session_confirm');
  const text = signingOut
    ? { en: { title: 'Signing out', text: 'You are being signed out. If nothing happens, press Continue.' },
      sv: { title: 'Loggar ut', text: 'Du loggas ut. Om inget händer, tryck på Fortsätt.' } }[lang]
    : { en: { title: `Back to ${app}`, text: `You are being sent back to ${app}. If nothing happens, press Continue.` },
      sv: { title: `Tillbaka till ${app}`, text: `Du skickas tillbaka till ${app}. Om inget händer, tryck på Fortsätt.` } }[lang];
  answer(ctx, frame, submittingPage(frame, { ...text, ...form }), true);
}

/** A request refused before oidc-provider's handlers (a form too large): its status, and its kind for a page. */
function refusal(error: unknown): { status: number; kind: ErrorKind; code: string } {
  const status = (error as { status?: unknown }).status;
  return status === 413 ? { status, kind: 'too_large', code: 'invalid_request' } : { status: 500, kind: 'fault', code: 'server_error' };
}

/** A request oidc-provider has no route for: 405 with `Allow` at a path it serves, 404 elsewhere (served-methods.ts). */
function notRouted(ctx: PageContext, input: PagesInput): void {
  const served = servedAt(ctx.path);
  const allow = served?.methods.join(', ');
  if (allow !== undefined) ctx.set('Allow', allow);
  // OPTIONS that is no CORS preflight (oidc-provider answers only those): what the path takes.
  if (served !== undefined && ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  const status = served === undefined ? 404 : 405;
  if (served?.page === true || (served?.backChannel !== true && ctx.accepts('html', 'json') === 'html')) {
    const frame = frameOf(ctx, input);
    answer(ctx, frame, errorPage(frame, served === undefined ? 'not_found' : 'wrong_method'));
  } else {
    ctx.set('Cache-Control', 'no-store');
    const main = served?.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(' or ');
    ctx.body = served === undefined
      ? { error: 'not_found', error_description: `${ctx.path} is no endpoint of this authorization server: its discovery document names them all` }
      : { error: 'invalid_request', error_description: `${ctx.path} takes ${main ?? ''}: ${ctx.method} is not served here` };
  }
  ctx.status = status;
}

/**
 * What oidc-provider answered, in the service's words: its self-posting pages, its unrouted requests,
 * its OAuth errors in JSON at a person's page (the sign-out endpoints' error handler negotiates, and so
 * did the POSTed authorization request's refusal of a body that is no form), the headers of any HTML.
 */
function ownAnswer(ctx: PageContext, input: PagesInput): void {
  replaceFormPost(ctx, input);
  // Nothing answered: oidc-provider's router has no route for the method and path.
  if (ctx.status === 404 && ctx.body === undefined) notRouted(ctx, input);
  const refused = forPerson(ctx.path) ? oauthError(ctx.body) : undefined;
  if (refused !== undefined) errorAnswer(ctx, input, refused, undefined);
  // Any other HTML (none is known): never without the strict CSP.
  if ((ctx.response.get('content-type') ?? '').startsWith('text/html') && !ctx.response.get('content-security-policy')) {
    for (const [field, value] of Object.entries(pageHeaders(frameOf(ctx, input).lang))) ctx.set(field, value);
  }
}

/** Whatever is no page (JSON, an empty answer, a redirect) is never rendered as something else, nor framed. */
function guardNonPage(ctx: PageContext): void {
  if (ctx.response.get('content-security-policy')) return;
  for (const [field, value] of Object.entries(JSON_GUARD)) ctx.set(field, value);
}

/**
 * The Koa middleware around everything oidc-provider answers: an error thrown before its own error
 * handlers, or by this middleware's own work on its answer (which Koa would answer with a plain 500,
 * logged nowhere), answered as the service's page or an OAuth error and logged (always the page at a
 * person's endpoint); its self-posting pages, unrouted requests, OAuth errors at a person's endpoint
 * and the headers of its HTML made the service's (ownAnswer); whatever else it answers guarded (guardNonPage).
 */
export function ownPages(provider: Provider, input: PagesInput): void {
  provider.use(async (ctx: PageContext, next: () => Promise<void>) => {
    try {
      if (statedTooLarge(ctx.req.headers)) throw new BodyTooLarge('request too large');
      await next();
      ownAnswer(ctx, input);
    } catch (error) {
      const { status, kind, code } = refusal(error);
      if (status === 500) provider.emit('server_error', ctx, error);
      ctx.status = status;
      // The rest of a body too large is never read: the connection cannot carry another request.
      if (status === 413) ctx.set('connection', 'close');
      if (answersWithPage(ctx)) {
        const frame = frameOf(ctx, input);
        answer(ctx, frame, errorPage(frame, kind, code));
      } else {
        ctx.body = { error: code, error_description: kind === 'too_large' ? 'the request body is too large' : 'the request could not be handled; try again later' };
      }
    }
    guardNonPage(ctx);
  });
}
