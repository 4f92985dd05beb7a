/** The patient summary (an IPS document Bundle): its Composition's sections, each with how many entries it holds. */
import { h, table } from './dom.js';
import type { Bundle, Composition } from './fhir-types.js';
import { textOf } from './format.js';
import { LABELS, type Lang } from './i18n.js';

export function summary(bundle: Bundle, lang: Lang): HTMLElement {
  const composition = bundle.entry?.map((e) => e.resource).find((r): r is Composition => r?.resourceType === 'Composition');
  const sections = composition?.section ?? [];
  if (sections.length === 0) return h('p', {}, LABELS.nothing[lang]);
  const rows = sections.map((s) => [
    s.title ?? textOf(s.emptyReason) ?? '?',
    s.entry === undefined || s.entry.length === 0 ? (textOf(s.emptyReason) ?? '0') : String(s.entry.length),
  ]);
  return table(`${LABELS.section[lang]}: ${LABELS.tableScroll[lang]}`, composition?.title, [LABELS.section[lang], LABELS.count[lang]], rows);
}
