/**
 * The patient summary (an IPS document Bundle) as a person reads it: each section of its Composition
 * with what it holds, one line an entry in the record's own words (a result with its value as
 * written and its date), or why it is empty: none known, or left out of this summary.
 */
import { h } from './dom.js';
import type { AllergyIntolerance, Bundle, Composition, CompositionSection, Condition, MedicationRequest, Observation, Resource } from './fhir-types.js';
import { ById } from './fhir-types.js';
import { textOf, when } from './format.js';
import { SUMMARY_SECTIONS } from 'virtual:access-log-names';
import { LABELS, type Lang } from './i18n.js';
import { timeOf } from './lab-series.js';
import { narrativeText } from './narrative.js';
import { markText, valueText } from './values.js';
import { medicationName } from './records.js';

const EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';

/**
 * An entry's line: the app's own for the types it knows, else the section narrative's line for it (the
 * service writes one line an entry, in order, as the type's declaration says), else its type.
 */
function entryLine(r: Resource, byId: ById, lang: Lang, narrated: string | undefined): string {
  switch (r.resourceType) {
    case 'Condition':
    case 'AllergyIntolerance':
      return textOf((r as Condition | AllergyIntolerance).code) ?? '?';
    case 'MedicationRequest': {
      const m = r as MedicationRequest;
      const name = medicationName(m, byId);
      const dosage = (m.dosageInstruction ?? []).map((d) => d.text).filter(Boolean).join('; ');
      return dosage === '' ? name : `${name}: ${dosage}`;
    }
    case 'Observation': {
      const o = r as Observation;
      const date = when(timeOf(o), lang);
      const mark = markText(o, lang);
      return `${textOf(o.code) ?? '?'}: ${valueText(o, lang)}${mark === undefined ? '' : `, ${mark.toLowerCase()}`}${date === undefined ? '' : ` (${date})`}`;
    }
    default:
      return narrated ?? r.resourceType;
  }
}

function emptyText(s: CompositionSection, lang: Lang): string {
  const reason = s.emptyReason?.coding?.find((c) => c.system === EMPTY_REASON)?.code;
  if (reason === 'nilknown') return LABELS.noneKnown[lang];
  if (reason === 'withheld') return LABELS.withheld[lang];
  return textOf(s.emptyReason) ?? LABELS.nothing[lang];
}

export function summary(bundle: Bundle, lang: Lang): HTMLElement {
  const resources = (bundle.entry ?? []).flatMap((e) => (e.resource === undefined ? [] : [e.resource]));
  const composition = resources.find((r): r is Composition => r.resourceType === 'Composition');
  const sections = composition?.section ?? [];
  if (sections.length === 0) return h('p', {}, LABELS.nothing[lang]);
  const byId = new ById(resources);
  return h('div', { class: 'summary' }, ...sections.map((s) => {
    const code = s.code?.coding?.find((c) => c.code !== undefined)?.code;
    const title = (code === undefined ? undefined : SUMMARY_SECTIONS[code]?.[lang]) ?? s.title ?? '?';
    const entries = (s.entry ?? []).map((ref) => byId.get(ref)).filter((r): r is Resource => r !== undefined);
    // Its lines match the entries one for one only when every entry was found.
    const narrated = entries.length === (s.entry ?? []).length ? narrativeText(s.text?.div)?.split('\n') ?? [] : [];
    const body = entries.length === 0
      ? h('p', {}, emptyText(s, lang))
      : h('ul', {}, ...entries.map((r, i) => h('li', { class: 'text' }, entryLine(r, byId, lang, narrated[i]))));
    // A heading and its list, not a landmark: its titles are the page's own ("Medications"), and two regions of one name confuse a screen reader's list of them.
    return h('div', {}, h('h3', {}, title), body);
  }));
}
