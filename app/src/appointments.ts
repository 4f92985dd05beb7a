/**
 * Booked appointments as a patient looks for them (visit-times.ts): upcoming first, soonest first,
 * the next one singled out with how far off it is; the past apart, newest first. Every text as the
 * record wrote it. A booking and its video meeting are one card, marked as a video meeting, with the
 * link to join while the meeting is open (video.ts).
 */
import { h, pair, section, type Child } from './dom.js';
import type { Appointment, Location, Practitioner, Resource } from './fhir-types.js';
import { ById } from './fhir-types.js';
import { LOCALE, nameOf, textOf, when } from './format.js';
import { LABELS, statusName, type Lang } from './i18n.js';
import { APPOINTMENT_WORDS } from './record-words.js';
import { joinLink, meetingAddress, meetingTime, OPEN_BEFORE_MS, visitsOf, type Visit } from './video.js';
import { byTime, daysUntil } from './visit-times.js';

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

/** How far off the next visit is, in words: `today`, `tomorrow`, `in 14 days` (`i dag`, `i morgon`, `om 14 dagar`). */
const howSoon = (start: string | undefined, lang: Lang, now: number): string | undefined => {
  const at = Date.parse(start ?? '');
  return Number.isNaN(at) ? undefined : new Intl.RelativeTimeFormat(LOCALE[lang], { numeric: 'auto' }).format(daysUntil(at, now), 'day');
};

function visitCard({ booking, meeting }: Visit, byId: ById, lang: Lang, now: number, next: boolean): HTMLElement {
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
  const soon = next ? howSoon(booking.start, lang, now) : undefined;
  const parts: Child[] = [
    next ? h('p', { class: 'next-label' }, APPOINTMENT_WORDS.next[lang], soon === undefined ? null : `, ${soon}`) : null,
    h('h4', {}, h('time', { datetime: booking.start }, when(booking.start, lang) ?? '?')),
    meeting === undefined ? null : h('p', { class: 'badge' }, LABELS.videoMeeting[lang]),
    h('dl', {}, ...details),
    meeting === undefined ? null : joinArea(meeting, lang, now),
  ];
  return h('li', { class: ['card', meeting === undefined ? '' : 'video', next ? 'next' : ''].filter(Boolean).join(' ') }, ...parts);
}

export function appointments(found: readonly Resource[], lang: Lang, now = Date.now()): HTMLElement {
  const byId = new ById(found);
  const { upcoming, past, next } = byTime(visitsOf(found.filter((r): r is Appointment => r.resourceType === 'Appointment')), now);
  const list = (visits: readonly Visit[]) => h('ul', { class: 'cards' }, ...visits.map((v) => visitCard(v, byId, lang, now, v === next)));
  return h('div', { class: 'appointments' },
    section(APPOINTMENT_WORDS.upcoming[lang], 3, upcoming.length === 0 ? h('p', {}, APPOINTMENT_WORDS.noUpcoming[lang]) : list(upcoming)),
    past.length === 0 ? null : section(APPOINTMENT_WORDS.past[lang], 3, list(past)));
}
