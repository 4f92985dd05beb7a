/**
 * The picked patient's record as the page's sections, each from its own read: one that failed says so
 * and the rest stand; one from which the region's release policy left something out says so, and whom to ask.
 */
import type { Chart } from 'chart.js';
import { accessLog } from './access-log.js';
import { h, section, type Child } from './dom.js';
import type { Resource } from './fhir-types.js';
import { nameOf, when } from './format.js';
import { LABELS, TITLES, type Lang } from './i18n.js';
import { allRefused, partsOf, type Found, type PatientRecord, type Settled } from './load.js';
import type { SharedWithMe } from './acting-for.js';
import { noLongerShares, sharesOnly } from './sharing-words.js';
import { summary } from './summary.js';
import { isSubsetted } from './subsetted.js';
import { viewOf } from './views.js';

/**
 * A failed read in the app's own words, with its status for whoever helps the person. Never the
 * error's message: fhirclient's is English, names the URL and holds the answer's whole body.
 */
function failure(s: Extract<Settled<unknown>, { ok: false }>, lang: Lang): HTMLElement {
  const said = s.status === 401 ? LABELS.failedSignIn : s.status === 403 || s.status === 404 ? LABELS.failedRefused
    : s.status === 429 ? LABELS.failedBusy : LABELS.failedLater;
  return h('p', { class: 'error' }, `${LABELS.failed[lang]}${s.status === undefined ? '' : ` (${s.status})`}: ${said[lang]}`);
}

/** Said where the answer was marked as leaving something out: that there is more, and whom to ask for it. */
const notShown = (lang: Lang): HTMLElement => h('p', { class: 'notice', role: 'note' }, LABELS.notShownOnline[lang]);

/** A part the person reading through a grant was not given: not asked for, and not shown (the notice above says so). */
const notShared = (s: Settled<unknown>): boolean => !s.ok && s.notShared === true;

function block(title: string, settled: Settled<Found>, lang: Lang, render: (found: Resource[]) => Child): HTMLElement | null {
  if (notShared(settled)) return null;
  if (!settled.ok) return section(title, 2, failure(settled, lang));
  const { resources, filtered } = settled.value;
  return section(title, 2, filtered ? notShown(lang) : null,
    resources.length === 0 ? (filtered ? null : h('p', {}, LABELS.nothing[lang])) : render(resources));
}

const NOT_YET = new Set([404, 405, 501]);

function summarySection(settled: PatientRecord['summary'], lang: Lang): HTMLElement | null {
  if (notShared(settled)) return null;
  if (settled.ok) return section(TITLES.summary[lang], 2, isSubsetted(settled.value) ? notShown(lang) : null, summary(settled.value, lang));
  return section(TITLES.summary[lang], 2, settled.status !== undefined && NOT_YET.has(settled.status) ? h('p', {}, LABELS.notAvailable[lang]) : failure(settled, lang));
}

/** Said in place of a record the person no longer shares: the page reads nothing of it. */
export function endedView(shared: SharedWithMe, lang: Lang): Node[] {
  return [h('h1', { id: 'patient-name' }, shared.name ?? '?'), h('p', { class: 'error', role: 'alert' }, noLongerShares(shared.name, lang))];
}

/**
 * The record's sections: each read's as its folder describes it (views.ts), then the summary and the
 * access log. Read through a grant (`shared`), it says first what the person shares and that
 * the rest is not shared, and shows only those parts; every part refused says they no longer share it.
 */
export function recordView(record: PatientRecord, lang: Lang, charts: (() => Chart)[], shared?: SharedWithMe): Node[] {
  if (shared !== undefined && allRefused(partsOf(record))) return endedView(shared, lang);
  const patient = record.patient.ok ? record.patient.value : undefined;
  return [
    h('h1', { id: 'patient-name' }, nameOf(patient?.name) ?? shared?.name ?? '?'),
    patient?.birthDate === undefined ? null : h('p', { class: 'born' }, `${LABELS.born[lang]} ${when(patient.birthDate, lang) ?? ''}`),
    shared === undefined ? null : h('p', { class: 'notice', role: 'note' }, sharesOnly(shared.name, shared.categories, lang)),
    record.patient.ok || notShared(record.patient) ? null : failure(record.patient, lang),
    ...record.reads.map(({ read, found }) => block(read.title[lang], found, lang, (v) => viewOf(read)(v, lang, charts))),
    summarySection(record.summary, lang),
    block(TITLES.accessLog[lang], record.accessLog, lang, (v) => accessLog(v, lang)),
  ].filter((n): n is HTMLElement => n !== null);
}
