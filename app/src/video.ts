/**
 * Video meetings among the appointments. Over FHIR a video meeting is an Appointment that carries
 * R5's virtual service as the HL7 cross-version extension, its `address` the link to join
 * (docs/upstream-fhir.md#38-video-meetings-operation-8); the booking of the same visit is an
 * Appointment of its own at the same start (docs/fhir-api.md: an Appointment search lists booked
 * appointments and video meetings). Shown apart they read as a duplicate with no place and no link:
 * here a booking and its meeting are one visit, marked as a video meeting.
 */
import type { Appointment, Extension } from './fhir-types.js';

const VIRTUAL_SERVICE = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';
/** How long before the start the link is offered; until the meeting's end it stays. */
export const OPEN_BEFORE_MS = 15 * 60 * 1000;
/** A meeting the record gives no end: the link stays an hour after its start. */
export const WITHOUT_END_MS = 60 * 60 * 1000;

/** The meeting's link as the record has it (`valueUrl`, else `valueUri` or `valueString`), or undefined: not a video meeting. */
export function meetingAddress(a: Appointment): string | undefined {
  const service = a.extension?.find((e) => e.url === VIRTUAL_SERVICE);
  const address = service?.extension?.find((e: Extension) => e.url === 'address');
  return address?.valueUrl ?? address?.valueUri ?? address?.valueString;
}

/** The address as a link a patient may follow: an https URL only, never a script or another scheme. */
export function joinLink(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  try {
    return new URL(address).protocol === 'https:' ? address : undefined;
  } catch {
    return undefined;
  }
}

export type MeetingTime = 'not-yet' | 'open' | 'over';

/** Where `now` stands to the meeting: before its link is offered, while it is, or after its end. */
export function meetingTime(a: Appointment, now: number): MeetingTime {
  const start = Date.parse(a.start ?? '');
  if (Number.isNaN(start)) return 'not-yet';
  const end = Date.parse(a.end ?? '');
  if (now < start - OPEN_BEFORE_MS) return 'not-yet';
  return now <= (Number.isNaN(end) ? start + WITHOUT_END_MS : end) ? 'open' : 'over';
}

/** One visit: the booking, and its video meeting where it has one (or the meeting alone). */
export interface Visit { booking: Appointment; meeting?: Appointment }

const actors = (a: Appointment): Set<string> =>
  new Set((a.participant ?? []).map((p) => p.actor?.reference).filter((r): r is string => r !== undefined && !r.startsWith('Patient/')));

/**
 * The appointments as visits: each video meeting joined to the booking at the same instant that
 * shares a practitioner or a place with it; a meeting with no such booking is a visit of its own.
 */
export function visitsOf(appointments: readonly Appointment[]): Visit[] {
  const meetings = appointments.filter((a) => meetingAddress(a) !== undefined);
  const bookings = appointments.filter((a) => meetingAddress(a) === undefined);
  const joined = new Set<Appointment>();
  const visits = bookings.map((booking): Visit => {
    const start = Date.parse(booking.start ?? '');
    const own = actors(booking);
    const meeting = meetings.find((m) => !joined.has(m) && Date.parse(m.start ?? '') === start && [...actors(m)].some((r) => own.has(r)));
    if (meeting === undefined) return { booking };
    joined.add(meeting);
    return { booking, meeting };
  });
  return [...visits, ...meetings.filter((m) => !joined.has(m)).map((m) => ({ booking: m, meeting: m }))];
}
