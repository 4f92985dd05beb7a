/**
 * The view every read shares (src/reads/app-view.ts): a read with no view of its own is shown as one
 * card a resource of the types its search matches, newest first, each in the record's own words:
 * what it is, when, its status (and how sure it is, unless confirmed), its narrative as text where
 * it has one and its notes. What the search included
 * beside them (a practitioner, a place) is what they refer to, not items of their own.
 */
import { h, pair } from './dom.js';
import { ById, type Annotation, type CodeableConcept, type Narrative, type Reference, type Resource } from './fhir-types.js';
import { textOf, when } from './format.js';
import { LABELS, statusName, verificationName, type Lang } from './i18n.js';
import { narrativeText } from './narrative.js';
import { unsaidNotes } from './notes.js';

const concept = (r: Resource, member: string): string | undefined => textOf(r[member] as CodeableConcept | undefined);
const text = (r: Resource, member: string): string | undefined => (typeof r[member] === 'string' ? r[member] : undefined);

/** The first of a list of concepts (an Encounter's `type`), or the one concept. */
const firstConcept = (r: Resource, member: string): string | undefined =>
  (Array.isArray(r[member]) ? textOf((r[member] as CodeableConcept[])[0]) : concept(r, member));

/** What the resource is, by the first member that says it, else its type. */
function titleOf(r: Resource): string {
  return concept(r, 'code') ?? concept(r, 'medicationCodeableConcept') ?? concept(r, 'vaccineCode') ?? text(r, 'title')
    ?? text(r, 'description') ?? firstConcept(r, 'type') ?? concept(r, 'serviceType') ?? r.resourceType;
}

/** When it happened or was recorded, by the first member that says it. */
function timeOf(r: Resource): string | undefined {
  const period = r.period as { start?: string } | undefined;
  return text(r, 'effectiveDateTime') ?? text(r, 'occurrenceDateTime') ?? text(r, 'performedDateTime') ?? text(r, 'start')
    ?? period?.start ?? text(r, 'recordedDate') ?? text(r, 'authoredOn') ?? text(r, 'created') ?? text(r, 'date') ?? text(r, 'issued');
}

/** Its status: the plain code, else a clinical status's first code, in words where the page has them. */
function statusOf(r: Resource, lang: Lang): string | undefined {
  const code = text(r, 'status') ?? (r.clinicalStatus as CodeableConcept | undefined)?.coding?.[0]?.code;
  return statusName(code, lang);
}

/**
 * Its notes (an allergy's), each as written and when it was noted where it says: the reason an
 * allergy was made inactive is one. A note the narrative already says is not said twice.
 */
function notesOf(r: Resource, narrative: string | undefined, lang: Lang): HTMLElement[] {
  const notes = Array.isArray(r.note) ? (r.note as Annotation[]) : [];
  return unsaidNotes(notes, narrative).map((n) => h('div', { class: 'annotation' },
      n.time === undefined ? null : h('p', { class: 'noted' }, `${LABELS.noted[lang]} ${when(n.time, lang) ?? ''}`),
      h('p', { class: 'text' }, n.text)));
}

/**
 * Where it happened, by the name of what the search included for it: the unit that provided it (an
 * Encounter's `serviceProvider`), else its first place; a reference's own display where nothing was included.
 */
function whereOf(r: Resource, byId: ById): string | undefined {
  const refs = [r.serviceProvider, (r.location as { location?: Reference }[] | undefined)?.[0]?.location] as (Reference | undefined)[];
  for (const ref of refs) {
    const name = byId.get(ref)?.name;
    if (typeof name === 'string') return name;
    if (ref?.display !== undefined) return ref.display;
  }
  return undefined;
}

export function listView(found: readonly Resource[], types: readonly string[], lang: Lang): HTMLElement {
  const items = found.filter((r) => types.includes(r.resourceType));
  const byId = new ById(found);
  const at = (r: Resource) => Date.parse(timeOf(r) ?? '') || 0;
  return h('ul', { class: 'cards' }, ...[...items].sort((a, b) => at(b) - at(a)).map((r) => {
    const narrative = narrativeText((r.text as Narrative | undefined)?.div);
    return h('li', { class: 'card' }, h('h3', {}, titleOf(r)),
      h('dl', {}, ...pair(LABELS.when[lang], when(timeOf(r), lang)), ...pair(LABELS.where[lang], whereOf(r, byId)),
        ...pair(LABELS.status[lang], statusOf(r, lang), verificationName(r.verificationStatus as CodeableConcept | undefined, lang))),
      narrative === undefined || narrative === '' ? null : h('p', { class: 'text' }, narrative),
      ...notesOf(r, narrative, lang));
  }));
}
