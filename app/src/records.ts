/**
 * Medications and diagnoses: one card each, newest first, every text as the record wrote it.
 * Appointments are appointments.ts's.
 */
import { h, pair } from './dom.js';
import type { Condition, Medication, MedicationRequest, Resource } from './fhir-types.js';
import { ById } from './fhir-types.js';
import { textOf, when } from './format.js';
import { LABELS, statusName, verificationName, type Lang } from './i18n.js';

const newestFirst = <T>(items: readonly T[], at: (t: T) => string | undefined): T[] =>
  [...items].sort((a, b) => (Date.parse(at(b) ?? '') || 0) - (Date.parse(at(a) ?? '') || 0));

const card = (title: string, ...details: Node[]) => h('li', { class: 'card' }, h('h3', {}, title), h('dl', {}, ...details));

/** A prescription's medication by name: its own concept, else the Medication it references, else the reference's display. */
export function medicationName(m: MedicationRequest, byId: ById): string {
  return textOf(m.medicationCodeableConcept) ?? textOf(byId.get<Medication>(m.medicationReference)?.code) ?? m.medicationReference?.display ?? '?';
}

export function medications(found: readonly Resource[], lang: Lang): HTMLElement {
  const byId = new ById(found);
  const list = newestFirst(found.filter((r): r is MedicationRequest => r.resourceType === 'MedicationRequest'), (m) => m.authoredOn);
  return h('ul', { class: 'cards' }, ...list.map((m) => {
    const medication = byId.get<Medication>(m.medicationReference);
    return card(medicationName(m, byId),
      ...pair(LABELS.what[lang], textOf(medication?.form)),
      ...(m.dosageInstruction ?? []).flatMap((d) => pair(LABELS.dosage[lang], d.text)),
      ...pair(LABELS.reason[lang], m.reasonCode?.map(textOf).filter(Boolean).join('; ')),
      ...pair(LABELS.prescribed[lang], when(m.authoredOn, lang)),
      ...pair(LABELS.status[lang], [statusName(m.status, lang), textOf(m.courseOfTherapyType)].filter(Boolean).join(', ')));
  }));
}

export function diagnoses(found: readonly Resource[], lang: Lang): HTMLElement {
  const list = newestFirst(found.filter((r): r is Condition => r.resourceType === 'Condition'), (c) => c.recordedDate ?? c.onsetDateTime);
  return h('ul', { class: 'cards' }, ...list.map((c) => card(textOf(c.code) ?? '?',
    ...pair(LABELS.code[lang], c.code?.coding?.map((x) => x.code).filter(Boolean).join(', ')),
    ...pair(LABELS.what[lang], c.category?.map(textOf).filter(Boolean).join(', ')),
    ...pair(LABELS.recorded[lang], when(c.recordedDate ?? c.onsetDateTime, lang)),
    ...pair(LABELS.status[lang], statusName(c.clinicalStatus?.coding?.[0]?.code, lang) ?? textOf(c.clinicalStatus),
      verificationName(c.verificationStatus, lang)))));
}
