// The language of the authorization server's pages: Swedish or English, as the person chose with the
// pages' switch (`?lang=`, then kept in a cookie), else as their browser asks (Accept-Language).
// English when nothing says otherwise, as for a script that sends no Accept-Language.
import type { IncomingMessage } from 'node:http';
import { requestTarget } from './request-target.js';

export const LANGUAGES = ['sv', 'en'] as const;
export type Lang = typeof LANGUAGES[number];
/** A text in both languages. */
export type Localized = Readonly<Record<Lang, string>>;

export const LANGUAGE_COOKIE = 'pdas_lang';

const isLang = (value: string | null | undefined): value is Lang => value === 'sv' || value === 'en';

function cookieLang(header: string | undefined): Lang | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE && isLang(value)) return value;
  }
  return undefined;
}

/** The first of sv/en the browser asks for, by its q-values (RFC 9110 §12.5.4). */
function acceptedLang(header: string | undefined): Lang | undefined {
  const ranked = (header ?? '').split(',').map((entry, index) => {
    const [range = '', ...params] = entry.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { lang: range.toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q.slice(2)), index };
  }).filter((entry) => entry.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.lang).find(isLang);
}

/** The first of sv/en in an OpenID Connect `ui_locales` (space-separated language tags, most wanted first). */
function uiLocale(value: unknown): Lang | undefined {
  return typeof value === 'string' ? value.split(' ').map((tag) => tag.toLowerCase().split('-')[0]).find(isLang) : undefined;
}

/**
 * The language asked for now by `?lang=` (a switch to remember) or an app's `ui_locales` (OpenID
 * Connect's, its first of sv/en), else the remembered one, else the `ui_locales` of the authorization
 * request a sign-in's page belongs to (`appAsked`: the app's language reaches every page of its sign-in,
 * not only the first request; helper-193, F5), else the browser's one.
 */
export function languageOf(req: Pick<IncomingMessage, 'url' | 'headers'>, appAsked?: unknown): { lang: Lang; chosen: boolean } {
  const query = requestTarget(req.url).searchParams;
  const asked = query.get('lang');
  if (isLang(asked)) return { lang: asked, chosen: true };
  const app = uiLocale(query.get('ui_locales'));
  if (app !== undefined) return { lang: app, chosen: false };
  const header = req.headers['accept-language'];
  return { lang: cookieLang(req.headers.cookie) ?? uiLocale(appAsked) ?? acceptedLang(Array.isArray(header) ? header.join(',') : header) ?? 'en', chosen: false };
}

/** The cookie that keeps a chosen language across the pages of one sign-in (and the next). */
export const languageCookie = (lang: Lang): string => `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly`;

export const localized = (text: Localized | string, lang: Lang): string => (typeof text === 'string' ? text : text[lang]);
