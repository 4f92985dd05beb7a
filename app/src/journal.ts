/**
 * Journal notes: each Composition with its sections, newest first. A section's text is its
 * narrative read as text (narrative.ts), shown with textContent and its line breaks kept
 * (`white-space: pre-wrap`). A section's entries are the note's values, Observations contained in
 * the note (`#v1`): each shown as a lab value is, as written with its unit, its mark and its range.
 */
import { h, pair, type Child } from './dom.js';
import type { Composition, CompositionSection, Observation, Practitioner, PractitionerRole, Reference, Resource } from './fhir-types.js';
import { ById } from './fhir-types.js';
import { nameOf, textOf, when } from './format.js';
import { LABELS, type Lang } from './i18n.js';
import { narrativeText } from './narrative.js';
import { rangesElement, valueElement } from './value-view.js';
import { hasValue } from './values.js';

function authorOf(byId: ById, ref: Reference): string | undefined {
  const role = byId.get<PractitionerRole>(ref);
  if (role?.resourceType === 'PractitionerRole') {
    const name = nameOf(byId.get<Practitioner>(role.practitioner)?.name);
    return [name, textOf(role.code?.[0])].filter(Boolean).join(', ') || undefined;
  }
  const person = byId.get<Practitioner>(ref);
  return person?.resourceType === 'Practitioner' ? nameOf(person.name) : ref.display;
}

/**
 * One value of the note: its name where it is not the section's title, the value as written with
 * its mark (value-view.ts), and its range; a unit the record gave without a value, as written.
 */
function entryOf(o: Observation | undefined, title: string | undefined, lang: Lang): Child {
  if (o === undefined) return null;
  const name = textOf(o.code);
  const ranges = rangesElement(o, lang);
  const valued = hasValue(o);
  const unitAlone = valued ? undefined : o.valueQuantity?.unit;
  if (!valued && unitAlone === undefined && ranges.length === 0) return null;
  return h('p', { class: 'entry' },
    name === undefined || name === title ? null : h('span', { class: 'entry-name' }, `${name}: `),
    valued ? valueElement(o, lang) : unitAlone === undefined ? null : h('span', { class: 'quantity' }, unitAlone),
    ...(ranges.length === 0 ? [] : [` (${LABELS.range[lang].toLowerCase()} `, ...ranges, ')']));
}

function sectionOf(s: CompositionSection, note: Composition, byId: ById, depth: number, lang: Lang): HTMLElement {
  const heading = h(depth === 0 ? 'h4' : depth === 1 ? 'h5' : 'h6', {}, s.title ?? '');
  const text = narrativeText(s.text?.div);
  return h('div', { class: 'record' },
    s.title === undefined ? null : heading,
    text === undefined ? null : h('p', { class: 'text' }, text),
    ...(s.entry ?? []).map((e) => entryOf(byId.get<Observation>(e, note), s.title, lang)),
    ...(s.section ?? []).map((n) => sectionOf(n, note, byId, depth + 1, lang)));
}

export function journalNotes(found: readonly Resource[], lang: Lang): HTMLElement {
  const byId = new ById(found);
  const notes = found.filter((r): r is Composition => r.resourceType === 'Composition')
    .sort((a, b) => (Date.parse(b.date ?? '') || 0) - (Date.parse(a.date ?? '') || 0));
  return h('ul', { class: 'cards' }, ...notes.map((n) => h('li', { class: 'card note' },
    h('h3', {}, n.title ?? textOf(n.type) ?? '?'),
    h('dl', {},
      ...pair(LABELS.when[lang], when(n.date, lang)),
      ...pair(LABELS.what[lang], n.title === undefined ? undefined : textOf(n.type)),
      ...pair(LABELS.author[lang], (n.author ?? []).map((a) => authorOf(byId, a)).filter(Boolean).join('; ')),
      ...pair(LABELS.status[lang], n.status === 'preliminary' ? LABELS.unsigned[lang] : undefined)),
    ...((n.section ?? []).length === 0 ? [h('p', { class: 'text' }, LABELS.noteEmpty[lang])] : (n.section ?? []).map((s) => sectionOf(s, n, byId, 0, lang))))));
}
