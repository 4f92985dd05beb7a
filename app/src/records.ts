/**
 * Appointments, medications and diagnoses: one card each, newest first, every text as the record wrote
 * it. A booking and its video meeting are one card, marked as a video meeting, with the link to join
 * while the meeting is open (video.ts).
 */
import { h, pair, type Child } from './dom.js';
import type { Appointment, Condition, Location, Medication, MedicationRequest, Practitioner, Resource } from './fhir-types.js';
import { ById } from './fhir-types.js';
import { nameOf, textOf, when } from './format.js';
import { LABELS, statusName, type Lang } from './i18n.js';
import { joinLink, meetingAddress, meetingTime, OPEN_BEFORE_MS, visitsOf } from './video.js';

const newestFirst = <T>(items: readonly T[], at: (t: T) => string | undefined): T[] =>
  [...items].sort((a, b) => (Date.parse(at(b) ?? '') || 0) - (Date.parse(at(a) ?? '') || 0));

const card = (title: string, ...details: Node[]) => h('li', { class: 'card' }, h('h3', {}, title), h('dl', {}, ...details));

/** Each join area's meeting, so that the link can appear (and go) while the page stays open. */
const meetingOf = new WeakMap<Element, Appointment>();

/** The link to join while the meeting is open; before, when it will be offered; after its end, nothing. */
function joinContent(meeting: Appointment, lang: Lang, now: number): Child[] {
  const time = meetingTime(meeting, now);
  if (time === 'over') return [];
  if (time === 'not-yet') return [h('p', {}, LABELS.joinLater[lang].replace('{minutes}', String(OPEN_BEFORE_MS / 60_000)))];
  const link = joinLink(meetingAddress(meeting));
  if (link === undefined) return [h('p', {}, LABELS.joinNoLink[lang])];
  return [h('a', { class: 'join-link', href: link, target: '_blank', rel: 'noopener noreferrer' }, LABELS.join[lang])];
}

function joinArea(meeting: Appointment, lang: Lang, now: number): HTMLElement {
  const area = h('div', { class: 'join' }, ...joinContent(meeting, lang, now));
  meetingOf.set(area, meeting);
  return area;
}

/** Brings every join area below `root` up to `now`: called every half minute while the page is open. */
export function refreshJoins(root: ParentNode, lang: Lang, now = Date.now()): void {
  for (const area of Array.from(root.querySelectorAll('.join'))) {
    const meeting = meetingOf.get(area);
    if (meeting !== undefined) area.replaceChildren(...joinContent(meeting, lang, now).filter((c): c is Node => c instanceof Node));
  }
}

function placeOf(l: Location | undefined): string | undefined {
  if (l === undefined) return undefined;
  return l.name ?? [...(l.address?.line ?? []), ...(l.address?.city === undefined ? [] : [l.address.city])].join(', ');
}

const whatOf = (a: Appointment | undefined): string | undefined =>
  (a === undefined ? undefined : a.description ?? textOf(a.serviceType?.[0]) ?? textOf(a.appointmentType));

export function appointments(found: readonly Resource[], lang: Lang, now = Date.now()): HTMLElement {
  const byId = new ById(found);
  const visits = newestFirst(visitsOf(found.filter((r): r is Appointment => r.resourceType === 'Appointment')), (v) => v.booking.start);
  return h('ul', { class: 'cards' }, ...visits.map(({ booking, meeting }) => {
    const actors = [...booking.participant ?? [], ...meeting?.participant ?? []].map((p) => p.actor);
    const who = new Set(actors.map((r) => byId.get<Practitioner>(r)).filter((r) => r?.resourceType === 'Practitioner').map((p) => nameOf(p?.name)));
    const where = new Set(actors.map((r) => byId.get<Location>(r)).filter((r) => r?.resourceType === 'Location').map(placeOf));
    const details = [
      ...pair(LABELS.what[lang], whatOf(booking) ?? whatOf(meeting)),
      ...pair(LABELS.who[lang], [...who].filter(Boolean).join(', ')),
      // A video meeting is held online: the unit's address is not where the patient goes.
      ...pair(LABELS.where[lang], meeting === undefined ? [...where].filter(Boolean).join('; ') : LABELS.online[lang]),
      ...pair(LABELS.status[lang], statusName(booking.status, lang)),
    ];
    const title = h('h3', {}, h('time', { datetime: booking.start }, when(booking.start, lang) ?? '?'));
    if (meeting === undefined) return h('li', { class: 'card' }, title, h('dl', {}, ...details));
    return h('li', { class: 'card video' }, title,
      h('p', { class: 'badge' }, LABELS.videoMeeting[lang]),
      h('dl', {}, ...details),
      joinArea(meeting, lang, now));
  }));
}

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
    ...pair(LABELS.status[lang], statusName(c.clinicalStatus?.coding?.[0]?.code, lang) ?? textOf(c.clinicalStatus)))));
}
