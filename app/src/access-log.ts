/**
 * The access log ("who read my record") from the patient's AuditEvents (docs/fhir-api.md#the-same-rules-as-the-cos-api),
 * in the words the service's own log uses, as a phone can show it (log-groups.ts): by day, then one
 * line for each person and app that day, folded, saying when, how many events, what was read and
 * anything refused; opened, each event to the second. Paged by those lines, newest first.
 */
import { inLanguage } from './app-names.js';
import { h } from './dom.js';
import type { AuditEvent, Resource } from './fhir-types.js';
import { dayKey, LOCALE } from './format.js';
import { BASIS_NAMES, LABELS, OUTCOME_NAMES, type Lang } from './i18n.js';
import { dataRead } from './event-reads.js';
import { groupLog, pageOf, type LogDay, type LogGroup, type LogPage } from './log-groups.js';
import { LOG_WORDS } from './record-words.js';

const ZONE = 'Europe/Stockholm';
/** Lines a page: a phone shows a page in a few screens. */
const PER_PAGE = 8;
const DONE = '0';

/** The page each log was left on, so that switching language keeps it. */
const pageShown = new WeakMap<readonly Resource[], number>();

function who(e: AuditEvent, lang: Lang): string {
  const person = e.agent?.find((a) => a.requestor === true);
  const basis = person?.type?.text;
  const name = BASIS_NAMES.find((b) => b.en === basis)?.[lang] ?? basis ?? '?';
  const id = person?.who?.identifier?.value;
  return basis === BASIS_NAMES[0]?.en || id === undefined ? name : `${name} (${id})`;
}

const what = (e: AuditEvent, lang: Lang): string => dataRead(e, lang).join(', ');

/** The app, by its name in the page's language where the log gives one (its translations, issue 55 item 6). */
function appOf(e: AuditEvent, lang: Lang): string {
  const app = e.agent?.find((a) => a.requestor !== true)?.who;
  return inLanguage(app?.display, app?._display, lang) ?? '';
}
/**
 * What came of an event in the page's language: the log's own words where it gives them in that language (a check-in's or a
 * payment's result, "Not known whether it was registered": hostile review helper-138, F1), else its outcome code's name.
 */
const outcomeOf = (e: AuditEvent, lang: Lang): string => inLanguage(undefined, e._outcomeDesc, lang) ?? OUTCOME_NAMES[e.outcome ?? '']?.[lang] ?? e.outcome ?? '';
const clock = (epochMs: number, lang: Lang, seconds: boolean): string =>
  new Intl.DateTimeFormat(LOCALE[lang], { timeStyle: seconds ? 'medium' : 'short', timeZone: ZONE }).format(epochMs);
const dayName = (day: string, lang: Lang): string =>
  new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'full', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));

/** The folded line: who, through which app, when, how many events, what, and what was not done. */
function summary(g: LogGroup, lang: Lang): HTMLElement {
  const first = g.events[0] as AuditEvent;
  const [from, to] = [clock(g.earliest, lang, false), clock(g.latest, lang, false)];
  const span = from === to ? to : `${from}–${to}`;
  const count = `${g.events.length} ${(g.events.length === 1 ? LOG_WORDS.event : LOG_WORDS.events)[lang]}`;
  // What was done, in the order it was first done that day.
  const done = [...new Set([...g.events].reverse().flatMap((e) => dataRead(e, lang)))];
  const notDone = [...new Set(g.events.filter((e) => e.outcome !== DONE).map((e) => outcomeOf(e, lang)))]
    // The count in brackets: the log's words may hold a colon themselves (helper-139, F4).
    .map((words) => `${words} (${g.events.filter((e) => e.outcome !== DONE && outcomeOf(e, lang) === words).length})`);
  return h('summary', {},
    h('span', { class: 'log-who' }, who(first, lang)),
    appOf(first, lang) === '' ? null : h('span', { class: 'log-line' }, `${LABELS.application[lang]}: ${appOf(first, lang)}`),
    h('span', { class: 'log-line' }, `${span} · ${count}`),
    h('span', { class: 'log-line' }, `${LABELS.what[lang]}: ${done.join(', ')}`),
    notDone.length === 0 ? null : h('span', { class: 'log-line flag' }, h('span', { 'aria-hidden': 'true' }, '!\u00a0'), notDone.join(', ')));
}

function groupView(g: LogGroup, lang: Lang): HTMLElement {
  const rows = g.events.map((e) => h('tr', {},
    h('td', {}, h('time', { datetime: e.recorded }, clock(Date.parse(e.recorded ?? ''), lang, true))), h('td', {}, what(e, lang)), h('td', {}, outcomeOf(e, lang))));
  return h('li', { class: 'log-group' }, h('details', {}, summary(g, lang),
    h('table', {},
      h('thead', {}, h('tr', {}, ...[LABELS.when, LABELS.what, LABELS.outcome].map((w) => h('th', { scope: 'col' }, w[lang])))),
      h('tbody', {}, ...rows))));
}

const dayView = (d: LogDay, lang: Lang): HTMLElement[] =>
  [h('h3', { tabindex: '-1' }, dayName(d.day, lang)), h('ul', { class: 'log-groups' }, ...d.groups.map((g) => groupView(g, lang)))];

function pager(p: LogPage, lang: Lang, go: (page: number) => void): HTMLElement | null {
  if (p.pages <= 1) return null;
  const step = (label: string, to: number) => {
    const b = h('button', { type: 'button', ...(to < 0 || to >= p.pages ? { disabled: '' } : {}) }, label);
    b.addEventListener('click', () => go(to));
    return b;
  };
  return h('nav', { class: 'pager', 'aria-label': LOG_WORDS.pages[lang] },
    step(LOG_WORDS.newer[lang], p.page - 1),
    h('span', {}, LOG_WORDS.page[lang].replace('{page}', String(p.page + 1)).replace('{pages}', String(p.pages))),
    step(LOG_WORDS.older[lang], p.page + 1));
}

export function accessLog(found: readonly Resource[], lang: Lang): HTMLElement {
  const days = groupLog(found.filter((r): r is AuditEvent => r.resourceType === 'AuditEvent'), dayKey);
  const log = h('div', { class: 'access-log' });
  const show = (page: number, focus: boolean) => {
    const p = pageOf(days, page, PER_PAGE);
    pageShown.set(found, p.page);
    log.replaceChildren(h('p', { class: 'hint' }, LOG_WORDS.intro[lang]), ...p.days.flatMap((d) => dayView(d, lang)), pager(p, lang, (to) => show(to, true)) ?? '');
    // The new page's first day takes the focus, so a keyboard or screen reader starts reading there.
    if (focus) log.querySelector<HTMLElement>('h3')?.focus();
  };
  show(pageShown.get(found) ?? 0, false);
  return log;
}
